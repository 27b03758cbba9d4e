import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bare, type Sample, type Scratch, sampleRepo, scratch } from "./__tests__/fixture.js";
import { archive } from "./archive.js";
import { readBlob, readFile } from "./blobs.js";
import { createBranch, deleteBranch, findBranch } from "./branches.js";
import { commitsBetween, getCommit, lastCommitFor, listCommits } from "./commits.js";
import { compare } from "./compare.js";
import { commitDiff, diffBetween } from "./diff.js";
import { GitError } from "./errors.js";
import { commitFiles } from "./files.js";
import { canMerge, merge } from "./merge.js";
import { isAncestor, mergeBase } from "./merge-base.js";
import { branchHead, resolveCommit, setDefaultBranch } from "./refs.js";
import { createTag, deleteTag, findTag } from "./tags.js";
import { listTree } from "./tree.js";
import { isValidBranchName, isValidTagName } from "./validate.js";

/**
 * Every function that hands a caller's ref, revision, sha, path or name to git, fed names that
 * name nothing or that git refuses: each must answer `not_found` or `invalid` (what the server
 * turns into 404 or 400), never `failed` (a 500), and never let the value act as an option.
 */

let dir: Scratch;
let repo: Sample;
/** Where an input read as `--output=<file>` would make git write. */
let outputFile: string;

/** A four-digit abbreviation two objects share. */
let ambiguous: string;

beforeAll(() => {
  dir = scratch("kiln-git-hostile-");
  repo = sampleRepo(join(dir.root, "repo"));
  outputFile = join(dir.root, "output");
  // Enough blobs that two ids share their first four digits (the same two on every run).
  const blobs = Array.from({ length: 1000 }, (_, i) => `blob\ndata ${String(i).length}\n${i}\n`);
  bare(repo.gitDir, ["fast-import", "--quiet"], blobs.join(""));
  const ids = bare(repo.gitDir, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"]);
  const prefixes = ids.split("\n").map((id) => id.slice(0, 4));
  ambiguous = prefixes.find((prefix, i) => prefixes.indexOf(prefix) !== i) ?? "";
  expect(ambiguous).toMatch(/^[0-9a-f]{4}$/);
});
afterAll(() => dir.remove());

const LONG = "x".repeat(300);
/** A ref name git accepts whose loose ref file would be a path longer than PATH_MAX. */
const DEEP = Array.from({ length: 20 }, (_, i) => `${i}${"d".repeat(230)}`).join("/");

/** Names of revisions, branches, tags and objects that name nothing here. */
function hostileNames(): string[] {
  return [
    LONG,
    `${LONG}/${LONG}`,
    DEEP,
    "-x",
    "--output=/dev/null",
    `--output=${outputFile}`,
    "a..b",
    "master..feature/clean",
    "master...feature/clean",
    "@{-1}",
    "@{u}",
    "master@{upstream}",
    "master@{push}",
    "master@{1}",
    "master@{yesterday}",
    "HEAD~99999",
    "HEAD^99",
    "HEAD~99999999999999999999",
    "HEAD^!",
    "HEAD^@",
    "HEAD^-",
    "^master",
    "HEAD^{foo}",
    ":/Initial",
    "master:README.md",
    "master^{/Initial}",
    "v2.0^{blob}",
    "ünïcödé",
    "🦊/branch",
    "refs/../x",
    "../x",
    "refs/heads/../../config",
    "x/",
    "/x",
    "x.lock",
    "*",
    "[a]",
    "a b",
    ambiguous,
    `${ambiguous}^{commit}`,
    "ffffffffffffffffffffffffffffffffffffffff",
    "f".repeat(64),
    "f".repeat(65),
  ];
}

/** File paths that name nothing in the sample repository or that it refuses. */
function hostilePaths(): string[] {
  return [
    "x".repeat(300),
    `${"x".repeat(300)}/${"y".repeat(300)}`,
    Array.from({ length: 40 }, () => "p".repeat(200)).join("/"),
    "-x",
    "--output=/dev/null",
    `--output=${outputFile}`,
    ":(glob)**",
    ":/README.md",
    "../x",
    "dir/../../x",
    "/etc/passwd",
    ".git/config",
    "ünïcödé.txt",
    "*",
    "a b",
  ];
}

type Case = [name: string, call: (input: string) => Promise<unknown>];

const identity = { name: "Ann", email: "ann@example.com" };

/** Calls whose input names something to read; all must end in `not_found` or `invalid`. */
function readCases(): Case[] {
  const gitDir = () => repo.gitDir;
  return [
    ["resolveCommit", (rev) => resolveCommit(gitDir(), rev)],
    ["branchHead", async (name) => (await branchHead(gitDir(), name)) ?? notFound()],
    ["listCommits ref", (ref) => listCommits(gitDir(), { ref }).then(nonEmpty)],
    ["commitsBetween from", (from) => commitsBetween(gitDir(), from, "master")],
    ["commitsBetween to", (to) => commitsBetween(gitDir(), "master", to)],
    ["getCommit", (rev) => getCommit(gitDir(), rev)],
    ["lastCommitFor commit", (rev) => lastCommitFor(gitDir(), rev, "README.md")],
    ["commitDiff", (rev) => commitDiff(gitDir(), rev)],
    ["diffBetween from", (from) => diffBetween(gitDir(), from, "master")],
    ["diffBetween to", (to) => diffBetween(gitDir(), "master", to)],
    ["compare from", (from) => compare(gitDir(), from, "master")],
    ["compare to", (to) => compare(gitDir(), "master", to)],
    ["mergeBase", (rev) => mergeBase(gitDir(), rev, "master")],
    ["isAncestor", (rev) => isAncestor(gitDir(), "master", rev)],
    ["archive", (rev) => archive(gitDir(), rev, { format: "tar", prefix: "p" })],
    ["readBlob", (sha) => readBlob(gitDir(), sha)],
    ["readFile rev", (rev) => readFile(gitDir(), rev, "README.md")],
    ["listTree rev", (rev) => listTree(gitDir(), rev)],
    ["findBranch", async (name) => (await findBranch(gitDir(), name)) ?? notFound()],
    ["deleteBranch", (name) => deleteBranch(gitDir(), name)],
    ["findTag", async (name) => (await findTag(gitDir(), name)) ?? notFound()],
    ["deleteTag", (name) => deleteTag(gitDir(), name)],
    ["createBranch startPoint", (rev) => createBranch(gitDir(), "hostile-start", rev)],
    ["createTag target", (rev) => createTag(gitDir(), { name: "hostile-target", target: rev })],
    ["canMerge target", (name) => canMerge(gitDir(), name, "feature/clean")],
    ["canMerge source", (rev) => canMerge(gitDir(), "master", rev)],
    [
      "merge source",
      (rev) => merge(gitDir(), { target: "master", source: rev, message: "m", author: identity }),
    ],
    [
      "commitFiles startPoint",
      (rev) =>
        commitFiles(gitDir(), {
          branch: "hostile-start",
          startPoint: rev,
          message: "m",
          author: identity,
          actions: [{ action: "create", path: "new.txt", content: Buffer.from("new\n") }],
        }),
    ],
  ];
}

/** Calls whose input is a path; all must end in `not_found` or `invalid` (or nothing listed). */
function pathCases(): Case[] {
  const gitDir = () => repo.gitDir;
  return [
    ["listCommits path", (path) => listCommits(gitDir(), { ref: "master", path }).then(nonEmpty)],
    ["lastCommitFor path", async (path) => (await lastCommitFor(gitDir(), "master", path)) ?? notFound()],
    ["readFile path", (path) => readFile(gitDir(), "master", path)],
    ["listTree path", (path) => listTree(gitDir(), "master", { path }).then(nonEmpty)],
    [
      "commitFiles update",
      (path) =>
        commitFiles(gitDir(), {
          branch: "master",
          message: "m",
          author: identity,
          actions: [{ action: "update", path, content: Buffer.from("x\n") }],
        }),
    ],
    [
      "commitFiles delete",
      (path) =>
        commitFiles(gitDir(), {
          branch: "master",
          message: "m",
          author: identity,
          actions: [{ action: "delete", path }],
        }),
    ],
  ];
}

/** A call that creates what the input names, and whether git accepts the name. */
type CreateCase = [
  name: string,
  call: (input: string) => Promise<unknown>,
  accepts: (input: string) => boolean,
];

/** Calls that create what the input names: made when git accepts the name, `invalid` otherwise. */
function createCases(): CreateCase[] {
  const gitDir = () => repo.gitDir;
  return [
    ["createBranch name", (name) => createBranch(gitDir(), name, "master"), isValidBranchName],
    ["createTag name", (name) => createTag(gitDir(), { name, target: "master" }), isValidTagName],
    ["setDefaultBranch", (name) => setDefaultBranch(gitDir(), name), isValidBranchName],
    [
      "commitFiles branch",
      (name) =>
        commitFiles(gitDir(), {
          branch: name,
          startPoint: "master",
          message: "m",
          author: identity,
          actions: [{ action: "create", path: `made-${randomUUID()}.txt`, content: Buffer.from("made\n") }],
        }),
      isValidBranchName,
    ],
  ];
}

function notFound(): never {
  throw new GitError("not_found", "nothing");
}

/** An empty list is how listings answer a name that names nothing. */
function nonEmpty<T>(list: readonly T[]): readonly T[] {
  if (list.length === 0) notFound();
  return list;
}

/** How a call ended: `ok`, a GitError's kind, or the text of anything else thrown. */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "ok";
  } catch (error) {
    if (error instanceof GitError)
      return error.kind === "failed" ? `failed: ${error.message.slice(0, 200)}` : error.kind;
    return `thrown: ${String(error)}`;
  }
}

/** The repository's refs and HEAD, to check a refused call changed nothing. */
function refState(): string {
  return `${bare(repo.gitDir, ["symbolic-ref", "HEAD"])}\n${bare(repo.gitDir, ["for-each-ref"])}`;
}

async function outcomes(cases: Case[], inputs: string[]): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  for (const [name, call] of cases) {
    for (const input of inputs)
      seen[`${name}(${JSON.stringify(input.slice(0, 40))})`] = await outcome(() => call(input));
  }
  return seen;
}

// Each test runs git some thousand times: minutes on a loaded machine.
describe("hostile input", { timeout: 180_000 }, () => {
  it("reads of revisions, refs and objects that name nothing answer not_found or invalid", async () => {
    const before = refState();
    const seen = await outcomes(readCases(), hostileNames());
    const wrong = Object.entries(seen).filter(([, kind]) => kind !== "not_found" && kind !== "invalid");
    expect(wrong).toEqual([]);
    expect(refState()).toBe(before);
    expect(existsSync(outputFile)).toBe(false);
  });

  it("paths that name nothing answer not_found or invalid", async () => {
    const before = refState();
    const seen = await outcomes(pathCases(), hostilePaths());
    const wrong = Object.entries(seen).filter(([, kind]) => kind !== "not_found" && kind !== "invalid");
    expect(wrong).toEqual([]);
    expect(refState()).toBe(before);
    expect(existsSync(outputFile)).toBe(false);
  });

  it("names to create are made when git accepts them and refused as invalid otherwise", async () => {
    const wrong: [string, string, string][] = [];
    for (const [name, call, accepts] of createCases()) {
      for (const input of hostileNames()) {
        const expected = accepts(input) ? "ok" : "invalid";
        const seen = await outcome(() => call(input));
        if (seen !== expected) wrong.push([`${name}(${JSON.stringify(input.slice(0, 40))})`, seen, expected]);
      }
    }
    expect(wrong).toEqual([]);
    // HEAD still reads back, whatever it was pointed at last.
    await setDefaultBranch(repo.gitDir, "master");
    expect(await resolveCommit(repo.gitDir, "HEAD")).toBe(await resolveCommit(repo.gitDir, "master"));
    expect(existsSync(outputFile)).toBe(false);
    expect(readdirSync(dir.root).sort()).toEqual(["repo"]);
  });
});
