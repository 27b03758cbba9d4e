import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { GitError } from "./errors.js";
import {
  assertFilePath,
  assertRevision,
  isValidBranchName,
  isValidRefName,
  isValidTagName,
  normalizeTreePath,
} from "./validate.js";

const NAMES = [
  "master",
  "feature/x",
  "feature/x/y",
  "a.b",
  "ünïcode",
  "v1.0",
  "with-dash",
  "-leading-dash",
  "HEAD",
  "@",
  "a@b",
  "a@{b",
  ".hidden",
  "dir/.hidden",
  "a..b",
  "a.lock",
  "dir/a.lock/b",
  "trailing.",
  "trailing/",
  "/leading",
  "double//slash",
  "sp ace",
  "tab\there",
  "tilde~1",
  "caret^",
  "colon:x",
  "question?",
  "star*",
  "bracket[",
  "back\\slash",
  "del\x7f",
  "new\nline",
  "",
  "a/b.",
  "x.lockx",
  "{braces}",
  "1234567890abcdef1234567890abcdef12345678",
];

function gitAccepts(args: string[]): boolean {
  return spawnSync("git", ["check-ref-format", ...args], { cwd: "/" }).status === 0;
}

describe("ref names", () => {
  it("agree with git check-ref-format --branch on a corpus", () => {
    for (const name of NAMES) {
      // Outside a repository git reads "@" literally (inside, it means HEAD): we refuse it anyway.
      if (name === "@") continue;
      expect([name, isValidBranchName(name)]).toEqual([name, gitAccepts(["--branch", name])]);
    }
  });

  it("agree with git check-ref-format on full names", () => {
    for (const name of NAMES) {
      for (const full of [`refs/heads/${name}`, name]) {
        expect([full, isValidRefName(full)]).toEqual([full, gitAccepts([full])]);
      }
    }
  });

  it("refuse tag names git tag refuses", () => {
    expect(isValidTagName("v1.0")).toBe(true);
    expect(isValidTagName("-v1")).toBe(false);
    expect(isValidTagName("v1..0")).toBe(false);
    expect(isValidTagName("HEAD")).toBe(true);
    expect(isValidBranchName("@")).toBe(false);
  });

  it("refuse names too long for a loose ref's file, which git itself would accept", () => {
    const component = "c".repeat(240);
    expect(isValidBranchName(component)).toBe(true);
    expect(isValidBranchName(`${component}c`)).toBe(false);
    const deep = (count: number) => Array.from({ length: count }, () => component).join("/");
    expect(isValidRefName(`refs/heads/${deep(4)}`)).toBe(true);
    // Five components of 240 bytes: 1,215 bytes with refs/heads/, over the 1,024 allowed.
    expect(isValidRefName(`refs/heads/${deep(5)}`)).toBe(false);
    expect(isValidTagName(deep(20))).toBe(false);
  });
});

describe("revisions", () => {
  it("accept branch, tag, sha and suffix forms", () => {
    for (const rev of [
      "master",
      "feature/x",
      "v1.0",
      "HEAD~2",
      "abc123^{commit}",
      "HEAD^2",
      "a".repeat(40),
      "v1.0^{}",
      "master~2^2~1^{tree}",
      "@",
      "ünïcödé/🦊",
      "x".repeat(1024),
    ]) {
      expect(assertRevision(rev)).toBe(rev);
    }
  });

  it("refuse options, ranges, path lookups, searches and control characters", () => {
    for (const rev of [
      "-n",
      "--all",
      "a..b",
      "a...b",
      "HEAD:README",
      ":/fix",
      "HEAD^{/fix}",
      "a b",
      "a\nb",
      "",
      "^master",
      "HEAD^!",
      "HEAD^@",
      "HEAD^-",
      "HEAD^-1",
      "HEAD~1..master",
      "@{-1}",
      "@{u}",
      "master@{upstream}",
      "master@{1}",
      "HEAD^{foo}",
      "HEAD^{commit",
      "x".repeat(1025),
    ]) {
      expect(() => assertRevision(rev), rev).toThrow(GitError);
    }
  });
});

describe("file paths", () => {
  it("accept ordinary relative paths", () => {
    for (const path of ["README.md", "dir/sub/file.txt", "ünï/ćödé.md", ".gitignore", ".github/x", "a..b"]) {
      expect(assertFilePath(path)).toBe(path);
    }
  });

  it("refuse absolute paths, traversal, .git, empty segments and control characters", () => {
    const bad = ["/etc/passwd", "../x", "a/../b", "a/./b", ".", "..", "a//b", "a/", "", "a\0b", "a\nb"];
    bad.push(".git/config", "x/.GIT/hooks", ".git./x", ".git /x", "git~1/x", ".git::$INDEX_ALLOCATION/x");
    for (const path of bad) {
      let error: unknown;
      try {
        assertFilePath(path);
      } catch (caught) {
        error = caught;
      }
      expect(GitError.is(error, "invalid") && error.subject === "path", JSON.stringify(path)).toBe(true);
    }
  });

  it("normalize tree paths: slashes around, root as empty", () => {
    expect(normalizeTreePath(undefined)).toBe("");
    expect(normalizeTreePath("/")).toBe("");
    expect(normalizeTreePath("dir/sub/")).toBe("dir/sub");
    expect(() => normalizeTreePath("dir/../..")).toThrow(GitError);
  });
});
