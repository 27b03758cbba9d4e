import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bareRepo, gitOk, type Sandbox, sandbox, workTree } from "../http/__tests__/harness.js";
import { appliedUpdates } from "./applied.js";
import type { RefUpdate } from "./types.js";

let box: Sandbox;
let repo: string;
let head: string;
const ZERO = "0".repeat(40);

beforeAll(async () => {
  box = await sandbox();
  repo = await bareRepo(box, "applied");
  const work = await workTree(box, "work", 2);
  head = await gitOk(box, ["rev-parse", "HEAD"], work);
  await gitOk(box, ["push", "--quiet", repo, "main", "main:refs/heads/ab"], work);
});

afterAll(async () => {
  await box?.remove();
});

describe("appliedUpdates without a report", () => {
  it("compares each ref's current value with the pushed one", async () => {
    const updates: RefUpdate[] = [
      { ref: "refs/heads/main", oldSha: ZERO, newSha: head, kind: "create", forced: false },
      { ref: "refs/heads/a", oldSha: ZERO, newSha: head, kind: "create", forced: false },
      { ref: "refs/heads/gone", oldSha: head, newSha: ZERO, kind: "delete", forced: false },
      { ref: "refs/heads/ab", oldSha: head, newSha: ZERO, kind: "delete", forced: false },
    ];
    const applied = await appliedUpdates(repo, updates, undefined);
    expect(applied.map((update) => update.ref)).toEqual(["refs/heads/main", "refs/heads/gone"]);
  });

  it("trusts the report when there is one", async () => {
    const update: RefUpdate = {
      ref: "refs/heads/x",
      oldSha: ZERO,
      newSha: head,
      kind: "create",
      forced: false,
    };
    const report = { unpack: "ok", ok: new Set(["refs/heads/x"]), rejected: new Map<string, string>() };
    expect(await appliedUpdates(repo, [update], report)).toEqual([update]);
  });
});
