import { describe, expect, it } from "vitest";
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

  it("never inherits names from Object.prototype", () => {
    const params = fromQuery("a=1");
    expect(params["toString"]).toBeUndefined();
    expect(params["constructor"]).toBeUndefined();
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
