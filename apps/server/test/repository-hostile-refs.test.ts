import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProjectJson } from "@kiln/schemas";
import { type ApiRequest, seedRepository } from "@kiln/testkit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";

/**
 * Refs, shas and names that name nothing, or that git refuses, reach every repository route as
 * GitLab's 404 (or its empty answer, or 400 for a write), never a 500, and never act as an option.
 */
onEachDatabase("repository routes: hostile refs", (ctx) => {
  let project: ProjectJson;
  /** Where an input read as `--output=<file>` would make git write. */
  let outside: string;

  beforeAll(async () => {
    const created = await ctx().api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: ctx().root.token,
      form: { name: "hostile-refs" },
    });
    project = created.body;
    seedRepository(ctx().server, project.id, [
      { message: "Initial commit\n", date: "2026-01-01T00:00:00Z", files: { "README.md": "hi\n" } },
    ]);
    outside = mkdtempSync(join(tmpdir(), "kiln-hostile-"));
  });
  afterAll(() => rmSync(outside, { recursive: true, force: true }));

  const inputs = () => [
    "x".repeat(300),
    "-x",
    `--output=${join(outside, "out")}`,
    "a..b",
    "@{-1}",
    "@{u}",
    "HEAD~99999",
    "HEAD^!",
    ":/Initial",
    "refs/../x",
    "ünïcödé",
  ];

  const send = (request: Omit<ApiRequest, "token">) => ctx().api({ token: ctx().root.token, ...request });
  const repo = (suffix: string) => `/projects/${project.id}/repository${suffix}`;

  it("answers GitLab's 404 or empty answer on every read, for each input", async () => {
    const seen: [string, string, number, unknown][] = [];
    const expect404 = (message: string) => ({ status: 404, body: { message: `404 ${message} Not Found` } });
    for (const input of inputs()) {
      const segment = encodeURIComponent(input);
      const reads: [string, Omit<ApiRequest, "token">, { status: number; body: unknown }][] = [
        ["commit", { path: repo(`/commits/${segment}`) }, expect404("Commit")],
        ["commit diff", { path: repo(`/commits/${segment}/diff`) }, expect404("Commit")],
        ["commits", { path: repo("/commits"), query: { ref_name: input } }, { status: 200, body: [] }],
        ["tree", { path: repo("/tree"), query: { ref_name: input } }, expect404("Tree")],
        [
          "blob at commit",
          { path: repo(`/blobs/${segment}`), query: { filepath: "README.md" } },
          expect404("Commit"),
        ],
        ["raw blob", { path: repo(`/raw_blobs/${segment}`) }, expect404("Blob")],
        ["archive", { path: repo("/archive"), query: { sha: input } }, expect404("File")],
        ["branch", { path: repo(`/branches/${segment}`) }, expect404("Branch")],
        ["tag", { path: repo(`/tags/${segment}`) }, expect404("Tag")],
        [
          "file",
          { path: repo("/files"), query: { file_path: "README.md", ref: input } },
          expect404("Commit"),
        ],
        [
          "compare",
          { path: repo("/compare"), query: { from: input, to: "master" } },
          {
            status: 200,
            body: { commit: null, commits: [], diffs: [], compare_timeout: false, compare_same_ref: false },
          },
        ],
      ];
      for (const [route, request, expected] of reads) {
        const res = await send(request);
        if (res.status !== expected.status || JSON.stringify(res.body) !== JSON.stringify(expected.body)) {
          seen.push([route, input.slice(0, 20), res.status, res.body]);
        }
      }
    }
    expect(seen).toEqual([]);
    expect(existsSync(join(outside, "out"))).toBe(false);
  });

  it("refuses each input as the start of a new branch or tag with GitLab's 400", async () => {
    for (const input of inputs()) {
      const branch = await send({
        method: "POST",
        path: repo("/branches"),
        form: { branch_name: "from-hostile", ref: input },
      });
      expect([input, branch.status, branch.body]).toEqual([
        input,
        400,
        { message: "Invalid reference name" },
      ]);
      const tag = await send({ method: "POST", path: repo("/tags"), form: { tag_name: "t", ref: input } });
      expect([input, tag.status, tag.body]).toEqual([input, 400, { message: `Target ${input} is invalid` }]);
    }
    expect(existsSync(join(outside, "out"))).toBe(false);
  });
});
