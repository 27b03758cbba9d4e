import type { Page } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { paginationHeaders } from "./pagination.js";

const BASE = "https://kiln.example.com";
const PATH = "/api/v3/users";

/** A page whose items are just their positions; only their count matters. */
function page(current: number, perPage: number, total: number | null, count = perPage): Page<unknown> {
  return { items: Array.from({ length: count }, (_, i) => i), page: current, perPage, total };
}

const url = (query: string) => `${BASE}${PATH}?${query}`;

describe("paginationHeaders", () => {
  it("gives every header and four links for a middle page", () => {
    expect(paginationHeaders(page(2, 20, 50), BASE, PATH, [])).toEqual({
      "X-Total": "50",
      "X-Total-Pages": "3",
      "X-Per-Page": "20",
      "X-Page": "2",
      "X-Next-Page": "3",
      "X-Prev-Page": "1",
      Link: [
        `<${url("page=1&per_page=20")}>; rel="prev"`,
        `<${url("page=3&per_page=20")}>; rel="next"`,
        `<${url("page=1&per_page=20")}>; rel="first"`,
        `<${url("page=3&per_page=20")}>; rel="last"`,
      ].join(", "),
    });
  });

  it("has no previous page on the first page", () => {
    const headers = paginationHeaders(page(1, 20, 50), BASE, PATH, []);
    expect(headers["X-Prev-Page"]).toBe("");
    expect(headers["X-Next-Page"]).toBe("2");
    expect(headers["Link"]).toBe(
      [
        `<${url("page=2&per_page=20")}>; rel="next"`,
        `<${url("page=1&per_page=20")}>; rel="first"`,
        `<${url("page=3&per_page=20")}>; rel="last"`,
      ].join(", "),
    );
  });

  it("has no next page on the last page", () => {
    const headers = paginationHeaders(page(3, 20, 50, 10), BASE, PATH, []);
    expect(headers["X-Next-Page"]).toBe("");
    expect(headers["X-Prev-Page"]).toBe("2");
    expect(headers["X-Total-Pages"]).toBe("3");
    expect(headers["Link"]).toBe(
      [
        `<${url("page=2&per_page=20")}>; rel="prev"`,
        `<${url("page=1&per_page=20")}>; rel="first"`,
        `<${url("page=3&per_page=20")}>; rel="last"`,
      ].join(", "),
    );
  });

  it("describes an empty collection as GitLab 8.x does: zero pages, last page 0", () => {
    expect(paginationHeaders(page(1, 20, 0, 0), BASE, PATH, [])).toEqual({
      "X-Total": "0",
      "X-Total-Pages": "0",
      "X-Per-Page": "20",
      "X-Page": "1",
      "X-Next-Page": "",
      "X-Prev-Page": "",
      Link: [
        `<${url("page=1&per_page=20")}>; rel="first"`,
        `<${url("page=0&per_page=20")}>; rel="last"`,
      ].join(", "),
    });
  });

  it("leaves out totals and rel=last when the total is unknown, with next only on a full page", () => {
    const full = paginationHeaders(page(2, 20, null), BASE, PATH, []);
    expect(full).not.toHaveProperty("X-Total");
    expect(full).not.toHaveProperty("X-Total-Pages");
    expect(full["X-Next-Page"]).toBe("3");
    expect(full["Link"]).toBe(
      [
        `<${url("page=1&per_page=20")}>; rel="prev"`,
        `<${url("page=3&per_page=20")}>; rel="next"`,
        `<${url("page=1&per_page=20")}>; rel="first"`,
      ].join(", "),
    );

    const partial = paginationHeaders(page(2, 20, null, 19), BASE, PATH, []);
    expect(partial).not.toHaveProperty("X-Total");
    expect(partial["X-Next-Page"]).toBe("");
    expect(partial["Link"]).not.toContain('rel="next"');
    expect(partial["Link"]).not.toContain('rel="last"');
  });

  it("keeps other query parameters, sorted by key, and replaces page and per_page", () => {
    const query: [string, string][] = [
      ["search", "ali"],
      ["per_page", "5"],
      ["active", "true"],
      ["page", "1"],
    ];
    const headers = paginationHeaders(page(1, 5, 5), BASE, PATH, query);
    expect(headers["Link"]).toBe(
      [
        `<${url("active=true&page=1&per_page=5&search=ali")}>; rel="first"`,
        `<${url("active=true&page=1&per_page=5&search=ali")}>; rel="last"`,
      ].join(", "),
    );
  });

  it("keeps repeated array parameters in their order, with encoded brackets", () => {
    const query: [string, string][] = [
      ["labels[]", "bug"],
      ["labels[]", "api"],
    ];
    const link = paginationHeaders(page(1, 20, 1, 1), BASE, PATH, query)["Link"];
    expect(link).toContain(`<${url("labels%5B%5D=bug&labels%5B%5D=api&page=1&per_page=20")}>; rel="first"`);
  });

  it("never echoes private_token or access_token into links", () => {
    const query: [string, string][] = [
      ["private_token", "secret-1"],
      ["access_token", "secret-2"],
      ["sudo", "bob"],
    ];
    const link = paginationHeaders(page(1, 20, 40), BASE, PATH, query)["Link"];
    expect(link).not.toContain("secret");
    expect(link).not.toContain("token");
    expect(link).toContain(`<${url("page=2&per_page=20&sudo=bob")}>; rel="next"`);
  });

  it("percent-encodes values so they cannot break the query", () => {
    const query: [string, string][] = [
      ["search", "a&b=c/d"],
      ["name", "été"],
    ];
    const link = paginationHeaders(page(1, 20, 1, 1), BASE, PATH, query)["Link"];
    expect(link).toContain(
      `<${url("name=%C3%A9t%C3%A9&page=1&per_page=20&search=a%26b%3Dc%2Fd")}>; rel="first"`,
    );
  });

  it("builds absolute URLs from the base URL, including a base path", () => {
    const link = paginationHeaders(page(1, 20, 1, 1), "https://example.com/kiln", PATH, [])["Link"];
    expect(link).toBe(
      [
        `<https://example.com/kiln/api/v3/users?page=1&per_page=20>; rel="first"`,
        `<https://example.com/kiln/api/v3/users?page=1&per_page=20>; rel="last"`,
      ].join(", "),
    );
  });
});
