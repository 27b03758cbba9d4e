import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Method, type Route, route } from "./route.js";
import { RouteTable } from "./router.js";

const unused = () => {
  throw new Error("the router never calls routes");
};

const def = (method: Method, path: string): Route =>
  route({ method, path, params: z.object({}), call: unused, present: unused });

const table = new RouteTable([
  def("GET", "/projects"),
  def("GET", "/projects/owned"),
  def("GET", "/projects/:id"),
  def("PUT", "/projects/:id"),
  def("DELETE", "/projects/:id"),
  def("GET", "/projects/owned/stats"),
  def("GET", "/projects/:id/members"),
  def("GET", "/projects/:id/members/:user_id"),
]);

/** The matched route's path and raw path parameters, or the whole match when nothing was found. */
function matched(method: string, path: string) {
  const match = table.match(method, path);
  return match.kind === "found" ? { path: match.route.path, params: match.pathParams } : match;
}

describe("RouteTable", () => {
  it("matches static routes and collects named parameters", () => {
    expect(matched("GET", "/projects")).toEqual({ path: "/projects", params: {} });
    expect(matched("GET", "/projects/7/members/3")).toEqual({
      path: "/projects/:id/members/:user_id",
      params: { id: "7", user_id: "3" },
    });
  });

  it("prefers a static segment over a parameter", () => {
    expect(matched("GET", "/projects/owned")).toEqual({ path: "/projects/owned", params: {} });
    expect(matched("GET", "/projects/12")).toEqual({ path: "/projects/:id", params: { id: "12" } });
  });

  it("backtracks to the parameter when the static branch dead-ends", () => {
    expect(matched("GET", "/projects/owned/members")).toEqual({
      path: "/projects/:id/members",
      params: { id: "owned" },
    });
    expect(matched("GET", "/projects/owned/stats")).toEqual({ path: "/projects/owned/stats", params: {} });
  });

  it("decodes %2F inside a parameter segment as one value", () => {
    expect(matched("GET", "/projects/group%2Fproj")).toEqual({
      path: "/projects/:id",
      params: { id: "group/proj" },
    });
    expect(matched("GET", "/projects/my%20group%2Fsub%2Fproj/members")).toEqual({
      path: "/projects/:id/members",
      params: { id: "my group/sub/proj" },
    });
  });

  it("lets a parameter route that takes the method win over a static one that does not", () => {
    expect(matched("DELETE", "/projects/owned")).toEqual({ path: "/projects/:id", params: { id: "owned" } });
    expect(matched("POST", "/projects/owned")).toEqual({ kind: "wrong_method", allowed: ["GET"] });
  });

  it("answers wrong_method with the methods the path allows", () => {
    const match = table.match("POST", "/projects/5");
    expect(match.kind).toBe("wrong_method");
    if (match.kind === "wrong_method") expect([...match.allowed].sort()).toEqual(["DELETE", "GET", "PUT"]);
    expect(table.match("DELETE", "/projects")).toEqual({ kind: "wrong_method", allowed: ["GET"] });
  });

  it("answers none for unknown paths", () => {
    expect(table.match("GET", "/nope")).toEqual({ kind: "none" });
    expect(table.match("GET", "/projects/5/unknown")).toEqual({ kind: "none" });
    expect(table.match("GET", "/projects/5/members/3/extra")).toEqual({ kind: "none" });
  });

  it("answers none for a path that is only a prefix of routes", () => {
    const nested = new RouteTable([def("GET", "/a/b/c")]);
    expect(nested.match("GET", "/a/b")).toEqual({ kind: "none" });
  });

  it("ignores trailing slashes", () => {
    expect(matched("GET", "/projects/")).toEqual({ path: "/projects", params: {} });
    expect(matched("GET", "/projects/9/members/")).toEqual({
      path: "/projects/:id/members",
      params: { id: "9" },
    });
  });

  it("does not match an empty segment as a parameter", () => {
    expect(table.match("GET", "/projects//members")).toEqual({ kind: "none" });
  });

  it("answers none for malformed percent-encoding instead of throwing", () => {
    expect(() => table.match("GET", "/projects/%E0%A4%A")).not.toThrow();
    expect(table.match("GET", "/projects/%E0%A4%A")).toEqual({ kind: "none" });
    expect(table.match("GET", "/projects/%zz/members")).toEqual({ kind: "none" });
  });

  it("refuses duplicate route definitions at construction", () => {
    expect(() => new RouteTable([def("GET", "/users/:id"), def("GET", "/users/:id")])).toThrow(
      "duplicate route GET /users/:id",
    );
    expect(() => new RouteTable([def("GET", "/users/:id"), def("GET", "/users/:id/")])).toThrow(/duplicate/);
  });

  it("refuses two parameter names at the same position", () => {
    expect(() => new RouteTable([def("GET", "/users/:id"), def("PUT", "/users/:user_id")])).toThrow(
      /clashes/,
    );
  });

  describe("a *name parameter (GitLab's `requirements: { branch: /.+/ }`)", () => {
    const refs = new RouteTable([
      def("GET", "/branches/*branch"),
      def("DELETE", "/branches/*branch"),
      def("PUT", "/branches/*branch/protect"),
      def("PUT", "/branches/*branch/unprotect"),
      def("GET", "/branches"),
    ]);
    const found = (method: string, path: string) => {
      const match = refs.match(method, path);
      return match.kind === "found" ? { path: match.route.path, params: match.pathParams } : match;
    };

    it("takes the rest of the path, raw slashes and encoded ones alike", () => {
      expect(found("GET", "/branches/feature/x")).toEqual({
        path: "/branches/*branch",
        params: { branch: "feature/x" },
      });
      expect(found("DELETE", "/branches/a/b%2Fc/d")).toEqual({
        path: "/branches/*branch",
        params: { branch: "a/b/c/d" },
      });
      expect(found("GET", "/branches/x")).toEqual({ path: "/branches/*branch", params: { branch: "x" } });
      expect(found("GET", "/branches")).toEqual({ path: "/branches", params: {} });
    });

    it("leaves a static suffix to the route that needs it, taking as much as it can before it", () => {
      expect(found("PUT", "/branches/feature/x/protect")).toEqual({
        path: "/branches/*branch/protect",
        params: { branch: "feature/x" },
      });
      expect(found("PUT", "/branches/fix/protect/protect")).toEqual({
        path: "/branches/*branch/protect",
        params: { branch: "fix/protect" },
      });
      expect(found("PUT", "/branches/fix/unprotect/protect")).toEqual({
        path: "/branches/*branch/protect",
        params: { branch: "fix/unprotect" },
      });
      expect(found("PUT", "/branches/a/protect/unprotect")).toEqual({
        path: "/branches/*branch/unprotect",
        params: { branch: "a/protect" },
      });
      // Methods without a suffix route read the suffix as part of the name.
      expect(found("GET", "/branches/fix/protect")).toEqual({
        path: "/branches/*branch",
        params: { branch: "fix/protect" },
      });
    });

    it("never reads an encoded slash as a separator before a suffix", () => {
      expect(refs.match("PUT", "/branches/fix%2Fprotect")).toEqual({
        kind: "wrong_method",
        allowed: ["GET", "DELETE"],
      });
      expect(found("PUT", "/branches/fix%2Fprotect/protect")).toEqual({
        path: "/branches/*branch/protect",
        params: { branch: "fix/protect" },
      });
    });

    it("needs at least one segment and never spans an empty one", () => {
      expect(refs.match("PUT", "/branches/protect")).toEqual({
        kind: "wrong_method",
        allowed: ["GET", "DELETE"],
      });
      expect(refs.match("PUT", "/branches//protect")).toEqual({ kind: "none" });
      expect(refs.match("GET", "/branches/a//b")).toEqual({ kind: "none" });
    });

    it("answers none for malformed percent-encoding anywhere in the name", () => {
      expect(refs.match("GET", "/branches/ok/%zz/x")).toEqual({ kind: "none" });
      expect(refs.match("PUT", "/branches/%E0%A4%A/protect")).toEqual({ kind: "none" });
    });

    it("refuses a *name and a :name at the same position", () => {
      expect(() => new RouteTable([def("GET", "/b/*branch"), def("PUT", "/b/:branch/protect")])).toThrow(
        "route /b/:branch/protect: parameter :branch clashes with *branch",
      );
    });
  });

  it("allows the same path with different methods", () => {
    const users = new RouteTable([def("GET", "/users/:id"), def("DELETE", "/users/:id")]);
    expect(users.match("DELETE", "/users/1").kind).toBe("found");
  });
});
