import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IssueJson, MergeRequestJson, ProjectJson } from "@kiln/schemas";
import { type OpenDatabase, openDatabase } from "@kiln/storage-kysely";
import {
  type ApiRequest,
  type ApiResponse,
  call,
  git,
  type KilnProcess,
  repositoryPath,
  seedRepository,
  signInAsRoot,
  type TestUser,
} from "@kiln/testkit";
import { expect } from "vitest";

/** A server under test with root signed in, as one life of a server that gets killed and restarted. */
export interface Life {
  server: KilnProcess;
  root: TestUser;
  api<T = unknown>(request: ApiRequest): Promise<ApiResponse<T>>;
}

/** Signs root in on a server that just started. */
export async function lifeOf(server: KilnProcess): Promise<Life> {
  const root = await signInAsRoot(server);
  return { server, root, api: (request) => call(server.url, { token: root.token, ...request }) };
}

/** The ids of the process `pid` started, and theirs, read from /proc (Linux). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    let children = "";
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8");
    } catch {
      continue;
    }
    for (const child of children.split(" ").filter(Boolean).map(Number)) {
      found.push(child, ...descendants(child));
    }
  }
  return found;
}

/**
 * Kills the server and every process it started (git and its hooks) with SIGKILL, as the crash of
 * the machine or of its service would: nothing gets to finish. The server is stopped first so that
 * it starts nothing while its children are listed.
 */
export async function killTree(server: KilnProcess): Promise<void> {
  const pid = server.process.pid as number;
  process.kill(pid, "SIGSTOP");
  const children = descendants(pid);
  await server.kill();
  for (const child of children) {
    try {
      process.kill(child, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

/** Polls `probe` until it answers true, failing after `ms`. */
export async function until(probe: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect.fail("the condition did not hold in time");
}

/** A project of root's with `master` (its default branch, holding README.md) and a repository on disk. */
export interface Seeded {
  project: ProjectJson;
  repo: string;
}

/** Creates a project as root and seeds `master`, its default branch. */
export async function seededProject(life: Life, name: string): Promise<Seeded> {
  const created = await life.api<ProjectJson>({ method: "POST", path: "/projects", json: { name } });
  expect(created.status).toBe(201);
  const project = created.body;
  seedRepository(life.server, project.id, [{ message: "Initial\n", files: { "README.md": "# Project\n" } }]);
  const updated = await life.api({
    method: "PUT",
    path: `/projects/${project.id}`,
    json: { default_branch: "master" },
  });
  expect(updated.status).toBe(200);
  return { project, repo: repositoryPath(life.server, project.id) };
}

/** Opens an issue; answers it. */
export async function openIssue(life: Life, projectId: number, title: string): Promise<IssueJson> {
  const res = await life.api<IssueJson>({
    method: "POST",
    path: `/projects/${projectId}/issues`,
    json: { title },
  });
  expect(res.status).toBe(200);
  return res.body;
}

/**
 * Makes `branch` off master with one file commit through the files API, and opens a merge request
 * of it into master that closes `closes` (an issue iid). Answers the merge request.
 */
export async function topicMergeRequest(
  life: Life,
  projectId: number,
  branch: string,
  closes?: number,
): Promise<MergeRequestJson> {
  const made = await life.api({
    method: "POST",
    path: `/projects/${projectId}/repository/branches`,
    json: { branch_name: branch, ref: "master" },
  });
  expect(made.status).toBe(200);
  const committed = await life.api({
    method: "POST",
    path: `/projects/${projectId}/repository/files`,
    json: { file_path: `${branch}.txt`, branch_name: branch, content: `${branch}\n`, commit_message: branch },
  });
  expect(committed.status).toBe(201);
  const opened = await life.api<MergeRequestJson>({
    method: "POST",
    path: `/projects/${projectId}/merge_requests`,
    json: {
      source_branch: branch,
      target_branch: "master",
      title: `Merge ${branch}`,
      ...(closes === undefined ? {} : { description: `Closes #${closes}` }),
    },
  });
  expect(opened.status).toBe(200);
  return opened.body;
}

/**
 * A `reference-transaction` hook in the repository that, when a transaction of `ref` reaches
 * `state` (`prepared`: locked, not moved yet; `committed`: moved), marks it and waits to be
 * released, then aborts the transaction (which only a prepared one still can).
 */
export function holdRefTransaction(repo: string, ref: string, state: "prepared" | "committed") {
  const hook = join(repo, "hooks", "reference-transaction");
  const reached = join(repo, "hold-reached");
  const release = join(repo, "hold-release");
  mkdirSync(join(repo, "hooks"), { recursive: true });
  writeFileSync(
    hook,
    [
      "#!/bin/sh",
      `[ "$1" = "${state}" ] || exit 0`,
      `grep -q " ${ref}$" || exit 0`,
      `: > "${reached}"`,
      `while [ ! -e "${release}" ]; do sleep 0.02; done`,
      "exit 1",
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return {
    reached: () => existsSync(reached),
    /** Removes the hook and lets the held transaction go on. */
    release: () => {
      rmSync(hook, { force: true });
      writeFileSync(release, "");
    },
  };
}

/** Where a kill can be armed to land: while the target of a merge is locked, or once it has moved. */
export type RefState = "prepared" | "committed";

/**
 * A `reference-transaction` hook on `ref` that, once armed for a state, stops the first
 * transaction of the ref to reach it there until the test has killed the server (and with it the
 * hook): a kill that lands exactly while a merge holds its target's lock, or just after the target
 * moved. Other transactions pass.
 */
export function armableRefHook(repo: string, ref: string) {
  mkdirSync(join(repo, "hooks"), { recursive: true });
  const armed = (state: RefState) => join(repo, `kill-at-${state}`);
  const fired = join(repo, "kill-now");
  writeFileSync(
    join(repo, "hooks", "reference-transaction"),
    [
      "#!/bin/sh",
      `grep -q " ${ref}$" || exit 0`,
      `mv "${repo}/kill-at-$1" "${fired}" 2>/dev/null || exit 0`,
      "while :; do sleep 1; done",
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return {
    arm: (state: RefState) => writeFileSync(armed(state), ""),
    /** True once a transaction waits to be killed. */
    fired: () => existsSync(fired),
    disarm: () => {
      for (const file of [fired, armed("prepared"), armed("committed")]) rmSync(file, { force: true });
    },
  };
}

/** The head of a branch in the bare repository. */
export const headOf = (repo: string, branch: string): string =>
  git(["rev-parse", `refs/heads/${branch}`], repo).trim();

/** The project's feed as `<action> <target type> <target id>` or `<action> <ref>` lines. */
export async function feedOf(life: Life, projectId: number): Promise<string[]> {
  const lines: string[] = [];
  for (let page = 1; ; page += 1) {
    const res = await life.api<
      {
        action_name: string;
        target_type: string | null;
        target_id: number | null;
        data: { ref?: string } | null;
      }[]
    >({ path: `/projects/${projectId}/events`, query: { per_page: 100, page } });
    expect(res.status).toBe(200);
    for (const event of res.body) {
      lines.push(
        event.target_type
          ? `${event.action_name} ${event.target_type} ${event.target_id}`
          : `${event.action_name} ${event.data?.ref}`,
      );
    }
    if (res.body.length < 100) return lines;
  }
}

/** How many of `lines` equal `line`. */
export const countOf = (lines: readonly string[], line: string): number =>
  lines.filter((item) => item === line).length;

/** Runs `read` on the server's database from beside it: no request, so nothing the server does on a read. */
export async function fromDatabase<T>(life: Life, read: (db: OpenDatabase["db"]) => Promise<T>): Promise<T> {
  const url = life.server.kilnEnv["DATABASE_URL"];
  const database = await openDatabase(
    url
      ? { kind: "postgres", url, poolSize: 1 }
      : { kind: "sqlite", filename: join(life.server.dataDir, "kiln.sqlite") },
  );
  try {
    return await read(database.db);
  } finally {
    await database.close();
  }
}
