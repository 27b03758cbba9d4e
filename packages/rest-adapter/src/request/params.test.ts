import { DomainError } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { v3Message } from "../wording/index.js";
import { PARAM_LIMITS } from "./limits.js";
import { formPairs, mergeParams, paramsFromPairs } from "./params.js";

const fromQuery = (query: string) => paramsFromPairs(formPairs(query));

describe("paramsFromPairs", () => {
  it("collects key[]=a&key[]=b into an array, in order", () => {
    expect(fromQuery("labels[]=bug&labels[]=ui")).toEqual({ labels: ["bug", "ui"] });
  });

  it("makes a one-element array from a single key[]", () => {
    expect(fromQuery("labels[]=bug")).toEqual({ labels: ["bug"] });
  });

  it("nests a[b]=c and a[b][c]=d into objects", () => {
    expect(fromQuery("user[name]=Alice&user[email]=a@example.com")).toEqual({
      user: { name: "Alice", email: "a@example.com" },
    });
    expect(fromQuery("a[b][c]=d&a[b][e]=f&a[g]=h")).toEqual({ a: { b: { c: "d", e: "f" }, g: "h" } });
  });

  it("builds arrays inside nested objects with a[b][]=x", () => {
    expect(fromQuery("a[b][]=x&a[b][]=y")).toEqual({ a: { b: ["x", "y"] } });
  });

  it("keeps the last value of a repeated plain key", () => {
    expect(fromQuery("state=opened&state=closed")).toEqual({ state: "closed" });
  });

  it("creates params without a prototype, so __proto__ keys stay plain data", () => {
    const params = fromQuery("__proto__[polluted]=yes&__proto__=x&a[__proto__][polluted]=yes");
    expect(Object.getPrototypeOf(params)).toBeNull();
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.keys(params)).toEqual(["__proto__", "a"]);
    expect(Object.getOwnPropertyDescriptor(params, "__proto__")?.value).toBe("x");
    expect(Object.getPrototypeOf(params["a"])).toBeNull();
  });

  it("skips pairs without a name, as Rack does", () => {
    expect(fromQuery("=lost&a=1&=also")).toEqual({ a: "1" });
  });

  it("reads names that are not Rack-shaped as plain keys", () => {
    expect(fromQuery("[a]=1&b[=2&c]=3&d[x=4")).toEqual({ "[a]": "1", "b[": "2", "c]": "3", "d[x": "4" });
  });

  it("never inherits names from Object.prototype", () => {
    const params = fromQuery("a=1");
    expect(params["toString"]).toBeUndefined();
    expect(params["constructor"]).toBeUndefined();
  });
});

/** The message of the DomainError thrown by `fn`; fails the test when it throws nothing or something else. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (DomainError.is(error) && error.kind === "bad_request") return v3Message(error.failure) as string;
    throw error;
  }
  throw new Error("expected a 400, nothing was thrown");
}

/** `a[a][a]…=1` with `levels` levels in all. */
const nested = (levels: number) => `a${"[a]".repeat(levels - 1)}=1`;

describe("paramsFromPairs limits", () => {
  const { values, depth } = PARAM_LIMITS;

  it(`builds ${values} repeated key[] values into one array, in order`, () => {
    const query = Array.from({ length: values }, (_, index) => `key[]=${index}`).join("&");
    const params = fromQuery(query);
    expect(params["key"]).toHaveLength(values);
    expect((params["key"] as string[]).slice(-2)).toEqual([String(values - 2), String(values - 1)]);
  });

  it("refuses one value more with 400, 240 KB of key[] included", () => {
    const query = Array.from({ length: values + 1 }, (_, index) => `k${index}=1`).join("&");
    expect(refusal(() => fromQuery(query))).toBe("400 (Bad request) too many parameters");
    expect(refusal(() => fromQuery("key[]=1&".repeat(30_000)))).toBe("400 (Bad request) too many parameters");
  });

  it("counts pairs without a name too", () => {
    expect(refusal(() => fromQuery("=1&".repeat(values + 1)))).toBe("400 (Bad request) too many parameters");
  });

  it(`reads names of ${depth} levels and refuses deeper ones with 400`, () => {
    let leaf: unknown = fromQuery(nested(depth));
    for (let level = 1; level < depth; level++) leaf = (leaf as Record<string, unknown>)["a"];
    expect(leaf).toEqual({ a: "1" });
    expect(fromQuery(`a${"[a]".repeat(depth - 2)}[]=1`)).toBeDefined();
    expect(refusal(() => fromQuery(nested(depth + 1)))).toBe(
      "400 (Bad request) parameters nested too deeply",
    );
    expect(refusal(() => fromQuery(`a${"[a]".repeat(depth - 1)}[]=1`))).toBe(
      "400 (Bad request) parameters nested too deeply",
    );
  });

  it("refuses a name of a few hundred thousand levels (under 1 MiB) with 400", () => {
    expect(refusal(() => paramsFromPairs([[`a${"[a]".repeat(300_000)}`, "1"]]))).toBe(
      "400 (Bad request) parameters nested too deeply",
    );
  });
});

describe("formPairs", () => {
  it("decodes + as a space and percent escapes, in names and values", () => {
    expect(formPairs("search=john+doe&path=group%2Fproj&na%6De=%C3%A9t%C3%A9")).toEqual([
      ["search", "john doe"],
      ["path", "group/proj"],
      ["name", "été"],
    ]);
  });

  it("keeps repeated keys and empty values in order", () => {
    expect(formPairs("a=1&b=&a=2")).toEqual([
      ["a", "1"],
      ["b", ""],
      ["a", "2"],
    ]);
  });

  it("decodes encoded brackets so they still build arrays", () => {
    expect(paramsFromPairs(formPairs("labels%5B%5D=a&labels%5B%5D=b"))).toEqual({ labels: ["a", "b"] });
  });
});

describe("mergeParams", () => {
  it("lets later sources win: query, then body, then path", () => {
    const query = fromQuery("id=from-query&page=2&sort=asc");
    const body = { id: "from-body", sort: "desc" };
    const path = { id: "42" };
    expect(mergeParams(query, body, path)).toEqual({ id: "42", page: "2", sort: "desc" });
  });

  it("returns a new object without a prototype, even from a JSON source with a __proto__ key", () => {
    const body = JSON.parse('{"__proto__": {"admin": true}}') as Record<string, unknown>;
    const query = { a: "1" };
    const merged = mergeParams(query, body);
    expect(Object.getPrototypeOf(merged)).toBeNull();
    expect(Object.keys(merged)).toEqual(["a", "__proto__"]);
    expect(merged["admin"]).toBeUndefined();
    expect(({} as Record<string, unknown>)["admin"]).toBeUndefined();
    expect(query).toEqual({ a: "1" });
  });
});
