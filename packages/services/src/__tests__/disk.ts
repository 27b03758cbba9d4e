import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { User } from "@kiln/domain";
import { afterEach, beforeEach } from "vitest";
import { actorOf } from "../auth/credentials.js";
import type { DomainEvent } from "../domain-events.js";
import { type Caller, createCaller } from "../router.js";
import { ServiceRuntime } from "../runtime.js";
import type { Harness } from "./harness.js";

/** Runs git in a bare repository with a fixed identity and no user config; answers its output, trimmed. */
export function git(gitDir: string, args: string[], input?: string): string {
  return execFileSync("git", args, {
    cwd: gitDir,
    input,
    encoding: "utf8",
    env: {
      PATH: process.env["PATH"],
      HOME: tmpdir(),
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "Seed",
      GIT_AUTHOR_EMAIL: "seed@example.com",
      GIT_COMMITTER_NAME: "Seed",
      GIT_COMMITTER_EMAIL: "seed@example.com",
    },
  }).trim();
}

/** A runtime on the harness's database that hosts repositories, as one server process would. */
export interface OnDisk {
  runtime: ServiceRuntime;
  /** Every domain event the runtime raised, in order. */
  events: DomainEvent[];
  as(user: User): Caller;
}

/**
 * A runtime on the harness's database that hosts repositories in `dataDir`, recording the domain
 * events it raises. Several of them on one database stand for several server processes.
 */
export function onDisk(h: Harness, dataDir: string): OnDisk {
  const runtime = new ServiceRuntime({
    stores: h.runtime.stores,
    secretKey: randomBytes(32),
    singleProcess: false,
    dataDir,
  });
  const events: DomainEvent[] = [];
  runtime.events.subscribe((event) => {
    events.push(event);
  });
  return {
    runtime,
    events,
    as: (user) => createCaller({ runtime, actor: actorOf({ user, method: "private_token" }), system: false }),
  };
}

/** How a call fares: "ok" or the tRPC error code. */
export async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (error) {
    return (error as { code: string }).code;
  }
}

/** A fresh temp data dir for each test of the suite this is called in (removed after it); answers its path. */
export function scratchDataDirs(prefix: string): () => string {
  let dataDir = "";
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });
  return () => dataDir;
}

/**
 * A project "web" of a new owner with a developer, its repository in `dataDir` holding one commit
 * (an empty tree) on master, its default branch.
 */
export async function seededProject(h: Harness, dataDir: string) {
  const disk = onDisk(h, dataDir);
  const owner = await h.user("owner");
  const developer = await h.user("dev");
  const { project } = await disk.as(owner).projects.create({ name: "web" });
  await disk.as(owner).projectMembers.add({ id: project.id, user_id: developer.id, access_level: 30 });
  const gitDir = join(dataDir, "repositories", `${project.id}.git`);
  const tree = git(gitDir, ["mktree"], "");
  const commit = git(gitDir, ["commit-tree", tree, "-m", "first"]);
  git(gitDir, ["update-ref", "refs/heads/master", commit]);
  await disk.as(owner).projects.update({ id: project.id, default_branch: "master" });
  return { ...disk, owner, developer, project, gitDir, tree, commit };
}
