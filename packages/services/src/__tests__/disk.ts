import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import type { User } from "@kiln/domain";
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
    as: (user) =>
      createCaller({ runtime, actor: { user, method: "private_token", sudoBy: null }, system: false }),
  };
}
