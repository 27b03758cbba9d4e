import { describe, expect, it } from "vitest";
import { timestampOf } from "./timestamps.js";

describe("timestampOf", () => {
  it("reads dates as midnight UTC, times without an offset as UTC and keeps offsets", () => {
    expect(timestampOf("2016-03-04")).toBe("2016-03-04T00:00:00.000Z");
    expect(timestampOf("2016-03-04T05:06:07")).toBe("2016-03-04T05:06:07.000Z");
    expect(timestampOf("2016-03-04T05:06:07Z")).toBe("2016-03-04T05:06:07.000Z");
    expect(timestampOf("2016-03-04T05:06:07+02:00")).toBe("2016-03-04T03:06:07.000Z");
  });
});
