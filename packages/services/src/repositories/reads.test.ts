import { DomainError } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { parseTimestamp } from "./reads.js";

describe("parseTimestamp", () => {
  it("reads ISO 8601 timestamps in GitLab's form and its usual variants", () => {
    const at = (value: string) => parseTimestamp("since", value).toISOString();
    expect(at("2016-01-02T03:04:05Z")).toBe("2016-01-02T03:04:05.000Z");
    expect(at("2016-01-02T03:04:05.250Z")).toBe("2016-01-02T03:04:05.250Z");
    expect(at("2016-01-02T03:04:05+02:00")).toBe("2016-01-02T01:04:05.000Z");
    expect(at("2016-01-02T03:04:05-0130")).toBe("2016-01-02T04:34:05.000Z");
    expect(at("2016-01-02T03:04")).toBe("2016-01-02T03:04:00.000Z");
    expect(at("2016-01-02")).toBe("2016-01-02T00:00:00.000Z");
    expect(at("2016-02-29T00:00:00Z")).toBe("2016-02-29T00:00:00.000Z");
  });

  it("refuses anything else with GitLab's message, naming the parameter", () => {
    for (const value of [
      "",
      "yesterday",
      "1451703845",
      "2016-13-01",
      "2015-02-29",
      "2016-01-02T24:00:00Z",
      "2016-01-02T03:04:05+25:00",
    ]) {
      let error: unknown;
      try {
        parseTimestamp("until", value);
      } catch (caught) {
        error = caught;
      }
      expect(DomainError.is(error), value).toBe(true);
      expect((error as DomainError).kind).toBe("bad_request");
      expect((error as DomainError).failure).toEqual({
        kind: "bad_request",
        reason: "timestamp_invalid",
        attribute: "until",
      });
    }
  });
});
