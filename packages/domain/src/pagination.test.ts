import { describe, expect, it } from "vitest";
import { pageOfAll, pageRequest } from "./pagination.js";

describe("pageRequest", () => {
  it.each([
    [{}, { page: 1, perPage: 20 }],
    [
      { page: 3, per_page: 50 },
      { page: 3, perPage: 50 },
    ],
    [
      { page: 0, per_page: 0 },
      { page: 1, perPage: 20 },
    ],
    [
      { page: -4, per_page: -1 },
      { page: 1, perPage: 20 },
    ],
    [{ per_page: 1000 }, { page: 1, perPage: 100 }],
  ])("clamps %j to %j", (input, expected) => {
    expect(pageRequest(input)).toEqual(expected);
  });
});

describe("pageOfAll", () => {
  it("cuts the requested page out of a whole list and counts it all", () => {
    const all = [1, 2, 3, 4, 5];
    expect(pageOfAll(all, { page: 2, perPage: 2 })).toEqual({ items: [3, 4], page: 2, perPage: 2, total: 5 });
    expect(pageOfAll(all, { page: 4, perPage: 2 }).items).toEqual([]);
  });
});
