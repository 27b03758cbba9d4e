import type { PageJson } from "@kiln/schemas";
import { describe, expect, it } from "vitest";
import { items, pages } from "./pages.js";

/** A list of `count` numbers served in pages, as the server answers them; records what was asked. */
function listOf(count: number, total: "known" | "unknown" = "known") {
  const asked: number[] = [];
  const procedure = {
    query: async (input: { page?: number; per_page?: number }): Promise<PageJson<number>> => {
      const page = input.page ?? 1;
      const perPage = input.per_page ?? 20;
      asked.push(page);
      const all = Array.from({ length: count }, (_, n) => n + 1);
      const slice = all.slice((page - 1) * perPage, page * perPage);
      const full = slice.length === perPage;
      const last = page * perPage >= count;
      return {
        items: slice,
        page,
        per_page: perPage,
        total: total === "known" ? count : null,
        next_page: total === "known" ? (last ? null : page + 1) : full ? page + 1 : null,
      };
    },
  };
  return { procedure, asked };
}

describe("pages and items", () => {
  it("follow next_page to the end, one request per page as the loop asks", async () => {
    const { procedure, asked } = listOf(5);
    const seen: number[][] = [];
    for await (const page of pages(procedure, { per_page: 2 })) seen.push(page.items);
    expect(seen).toEqual([[1, 2], [3, 4], [5]]);
    expect(asked).toEqual([1, 2, 3]);
  });

  it("start at the page asked for, and stop early when the loop does", async () => {
    const { procedure, asked } = listOf(10);
    const got: number[] = [];
    for await (const item of items(procedure, { per_page: 3, page: 2 })) {
      got.push(item);
      if (got.length === 4) break;
    }
    expect(got).toEqual([4, 5, 6, 7]);
    expect(asked).toEqual([2, 3]);
  });

  it("end on an empty page when the total is unknown", async () => {
    const { procedure, asked } = listOf(4, "unknown");
    const got: number[] = [];
    for await (const item of items(procedure, { per_page: 2 })) got.push(item);
    expect(got).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual([1, 2, 3]);
  });
});
