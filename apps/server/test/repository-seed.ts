import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ApiRequest,
  apiUrl,
  git,
  type KilnProcess,
  repositoryPath,
  seedRepository,
} from "@kiln/testkit";

/** Every byte value, NULs included: what a binary file must round-trip byte for byte. */
export const BINARY = Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 7) % 256));

/** The commits of {@link seedTree}. */
export interface SeededTree {
  /** master: c1 → c2 → withSubmodule. */
  c1: string;
  c2: string;
  /** master's head: c2 plus a submodule `sub` at the root. */
  withSubmodule: string;
  /** feature: c2 → c3. */
  c3: string;
  /** big: c1 → bigCommit, a file whose diff is over the size limit. */
  bigCommit: string;
}

/**
 * Seeds a project's repository with directories, a file with a space in its name, a binary file,
 * a submodule, a feature branch and a branch whose diff is too big to show.
 */
export function seedTree(server: KilnProcess, projectId: number): SeededTree {
  const [c1, c2, c3] = seedRepository(server, projectId, [
    {
      message: "Initial layout\n",
      files: {
        "README.md": "# Tree\n",
        "src/app.js": "console.log('hi');\n",
        "src/lib/util.js": "export const u = 1;\n",
        "docs/guide.md": "A guide\n",
        "a file.txt": "spaced\n",
        "bin/blob.bin": BINARY,
      },
    },
    { message: "Second\n", files: { "README.md": "# Tree\n\nv2\n", CHANGELOG: "v2\n" } },
    {
      branch: "feature",
      message: "Feature\n",
      files: { "feature.txt": "f\n", "src/app.js": "console.log('feature');\n" },
    },
  ]) as [string, string, string];
  const repo = repositoryPath(server, projectId);
  const withSubmodule = commitWithIndex(repo, "master", "Add a submodule\n", [
    "--add",
    "--cacheinfo",
    `160000,${c1},sub`,
  ]);
  const blob = writeBlob(repo, `${Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join("\n")}\n`);
  const bigCommit = commitWithIndex(repo, c1, "A big file\n", [
    "--add",
    "--cacheinfo",
    `100644,${blob},big.txt`,
  ]);
  git(["update-ref", "refs/heads/big", bigCommit], repo);
  return { c1, c2, withSubmodule, c3, bigCommit };
}

/** Writes a blob into the repository; answers its id. */
function writeBlob(repo: string, content: string): string {
  const work = mkdtempSync(join(tmpdir(), "kiln-blob-"));
  try {
    writeFileSync(join(work, "blob"), content);
    return git(["hash-object", "-w", join(work, "blob")], repo).trim();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Commits `parent`'s tree changed by one `update-index`, moving `parent` too when it is a branch. */
function commitWithIndex(repo: string, parent: string, message: string, update: string[]): string {
  const work = mkdtempSync(join(tmpdir(), "kiln-index-"));
  const env = {
    GIT_INDEX_FILE: join(work, "index"),
    GIT_AUTHOR_NAME: "Seed Author",
    GIT_AUTHOR_EMAIL: "seed@example.com",
    GIT_AUTHOR_DATE: "2026-02-01T00:00:00Z",
    GIT_COMMITTER_NAME: "Seed Author",
    GIT_COMMITTER_EMAIL: "seed@example.com",
    GIT_COMMITTER_DATE: "2026-02-01T00:00:00Z",
  };
  try {
    git(["read-tree", parent], repo, env);
    git(["update-index", ...update], repo, env);
    const tree = git(["write-tree"], repo, env).trim();
    const commit = git(["commit-tree", tree, "-p", parent, "-m", message], repo, env).trim();
    if (!/^[0-9a-f]{40}$/.test(parent)) git(["update-ref", `refs/heads/${parent}`, commit], repo);
    return commit;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A response read as bytes (the testkit's `call` reads text). */
export interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** Fetches an API path as bytes. */
export async function download(server: KilnProcess, request: ApiRequest): Promise<Download> {
  const res = await fetch(apiUrl(server.url, request.path, request.query), {
    headers: request.token ? { "PRIVATE-TOKEN": request.token } : {},
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
