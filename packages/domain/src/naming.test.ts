import { describe, expect, it } from "vitest";
import { emailProblem, parameterize, pathProblem, usernameProblem } from "./naming.js";

describe("parameterize", () => {
  it.each([
    ["My Project", "my-project"],
    ["Foo.Bar 2", "foo-bar-2"],
    ["a_b", "a_b"],
    ["  --Hello,   World!--  ", "hello-world"],
    ["Crème brûlée", "creme-brulee"],
  ])("%j becomes %j", (name, path) => {
    expect(parameterize(name)).toBe(path);
  });
});

describe("paths and usernames", () => {
  it("accepts ordinary names", () => {
    for (const ok of ["root", "jane.doe", "a_b-c", "_x", "1abc"]) expect(pathProblem(ok)).toBeNull();
  });

  it("refuses what git or the router cannot live with", () => {
    expect(pathProblem("")).toBe("can't be blank");
    expect(pathProblem("-lead")).toMatch(/Cannot start with '-'/);
    expect(pathProblem("a/b")).not.toBeNull();
    expect(pathProblem("..")).not.toBeNull();
    expect(pathProblem("repo.git")).toMatch(/\.git/);
    expect(pathProblem("x".repeat(256))).toMatch(/too long/);
  });

  it("reserves top-level route names for usernames, whatever the case", () => {
    expect(usernameProblem("API")).toBe("is reserved");
    expect(usernameProblem("alice")).toBeNull();
  });

  it("checks emails loosely", () => {
    expect(emailProblem("a@b.c")).toBeNull();
    expect(emailProblem("not an email")).toBe("is invalid");
    expect(emailProblem("")).toBe("can't be blank");
  });
});
