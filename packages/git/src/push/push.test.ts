import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runGit } from "../exec.js";
import {
  bareRepo,
  commits,
  git,
  gitOk,
  type Sandbox,
  sandbox,
  startServer,
  type TestServer,
  workTree,
} from "../http/__tests__/harness.js";
import type { ServiceRpcResult } from "../http/rpc.js";
import type { PushContext, RefUpdate } from "./types.js";

let box: Sandbox;
let server: TestServer;
let repo: string;
let work: string;
let calls: { updates: readonly RefUpdate[]; context: PushContext }[];

const ZERO = "0".repeat(40);

beforeAll(async () => {
  box = await sandbox();
  server = await startServer(box);
  repo = await bareRepo(box, "app");
  work = await workTree(box, "work", 3);
  await gitOk(box, ["remote", "add", "origin", `${server.url}/app.git`], work);
});

beforeEach(() => {
  calls = [];
  server.authorize = (updates, context) => {
    calls.push({ updates, context });
    return [];
  };
});

afterAll(async () => {
  await server?.close();
  await box?.remove();
});

/** The receive-pack results of the requests made by `run`. */
async function pushResults(run: () => Promise<unknown>): Promise<ServiceRpcResult[]> {
  const before = server.requests.length;
  await run();
  await server.settled();
  return server.requests
    .slice(before)
    .filter((seen) => seen.path.endsWith("/git-receive-pack"))
    .map((seen) => seen.result as ServiceRpcResult);
}

const serverRef = async (ref: string) =>
  (await runGit(["rev-parse", "--verify", "--quiet", ref], { gitDir: repo, okCodes: [0, 1] })).stdout
    .toString()
    .trim();

describe("push authorization per ref", () => {
  it("sees a create, then an update, and reports what was applied", async () => {
    const head = await gitOk(box, ["rev-parse", "HEAD"], work);
    const [created] = await pushResults(() => gitOk(box, ["push", "--quiet", "origin", "main"], work));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.updates).toEqual([
      { ref: "refs/heads/main", oldSha: ZERO, newSha: head, kind: "create", forced: false },
    ]);
    expect(created?.push?.applied).toEqual(calls[0]?.updates);
    expect(created?.push?.ungated).toEqual([]);
    expect(await serverRef("refs/heads/main")).toBe(head);

    await commits(box, work, 2, "second");
    const next = await gitOk(box, ["rev-parse", "HEAD"], work);
    const [updated] = await pushResults(() => gitOk(box, ["push", "--quiet", "origin", "main"], work));
    expect(updated?.push?.applied).toEqual([
      { ref: "refs/heads/main", oldSha: head, newSha: next, kind: "update", forced: false },
    ]);
  });

  it("marks a force push after --amend as forced, and a delete as a delete", async () => {
    const before = await gitOk(box, ["rev-parse", "HEAD"], work);
    await gitOk(box, ["commit", "--quiet", "--amend", "-m", "amended"], work);
    const amended = await gitOk(box, ["rev-parse", "HEAD"], work);
    await gitOk(box, ["push", "--quiet", "--force", "origin", "main", "main:refs/heads/copy"], work);
    expect(calls[0]?.updates).toEqual([
      { ref: "refs/heads/main", oldSha: before, newSha: amended, kind: "update", forced: true },
      { ref: "refs/heads/copy", oldSha: ZERO, newSha: amended, kind: "create", forced: false },
    ]);

    const [deleted] = await pushResults(() =>
      gitOk(box, ["push", "--quiet", "origin", ":refs/heads/copy"], work),
    );
    expect(calls[1]?.updates).toEqual([
      { ref: "refs/heads/copy", oldSha: amended, newSha: ZERO, kind: "delete", forced: false },
    ]);
    expect(deleted?.push?.applied.map((update) => update.kind)).toEqual(["delete"]);
    expect(await serverRef("refs/heads/copy")).toBe("");
  });

  it("refuses with the callback's message, shown as remote: …, and leaves the ref alone", async () => {
    const serverHead = await serverRef("refs/heads/main");
    server.authorize = (updates) =>
      updates.map((update) => ({
        ref: update.ref,
        message: `You are not allowed to push to ${update.ref}.`,
      }));
    await commits(box, work, 1, "refused");
    const [result] = await pushResults(async () => {
      const push = await git(box, ["push", "origin", "main"], work);
      expect(push.code).not.toBe(0);
      expect(push.stderr).toContain("remote: You are not allowed to push to refs/heads/main.");
      expect(push.stderr).toContain("! [remote rejected] main -> main (pre-receive hook declined)");
    });
    expect(result?.push?.refusals).toEqual([
      { ref: "refs/heads/main", message: "You are not allowed to push to refs/heads/main." },
    ]);
    expect(result?.push?.applied).toEqual([]);
    expect(result?.push?.rejected.get("refs/heads/main")).toBe("pre-receive hook declined");
    expect(await serverRef("refs/heads/main")).toBe(serverHead);
  });

  it("is all-or-nothing: one refused ref rejects the whole push", async () => {
    server.authorize = (updates) =>
      updates
        .filter((update) => update.ref === "refs/heads/locked")
        .map((update) => ({ ...update, message: "locked" }));
    const run = await git(
      box,
      ["push", "origin", "main", "main:refs/heads/free", "main:refs/heads/locked"],
      work,
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("remote: locked");
    expect(await serverRef("refs/heads/free")).toBe("");
    expect(await serverRef("refs/heads/locked")).toBe("");
  });

  it("reports only what git applied when git itself rejects part of an allowed push", async () => {
    await gitOk(box, ["push", "--quiet", "--force", "origin", "main"], work);
    await runGit(["config", "receive.denyNonFastForwards", "true"], { gitDir: repo });
    try {
      await gitOk(box, ["commit", "--quiet", "--amend", "-m", "amended again"], work);
      const head = await gitOk(box, ["rev-parse", "HEAD"], work);
      const [result] = await pushResults(async () => {
        const run = await git(box, ["push", "--force", "origin", "main", "main:refs/heads/side"], work);
        expect(run.code).not.toBe(0);
      });
      expect(result?.push?.requested.map((update) => [update.ref, update.forced])).toEqual([
        ["refs/heads/main", true],
        ["refs/heads/side", false],
      ]);
      expect(result?.push?.refusals).toEqual([]);
      expect(result?.push?.applied).toEqual([
        { ref: "refs/heads/side", oldSha: ZERO, newSha: head, kind: "create", forced: false },
      ]);
      expect(result?.push?.rejected.get("refs/heads/main")).toMatch(/non-fast-forward/);
    } finally {
      await runGit(["config", "--unset", "receive.denyNonFastForwards"], { gitDir: repo });
      await gitOk(box, ["push", "--quiet", "--force", "origin", "main"], work);
    }
  });

  it("lets the callback read the pushed objects while they are in quarantine", async () => {
    await commits(box, work, 1, "quarantined");
    const head = await gitOk(box, ["rev-parse", "HEAD"], work);
    let inQuarantine = "";
    let outside = "";
    server.authorize = async (updates, context) => {
      const sha = updates[0]!.newSha;
      inQuarantine = (
        await runGit(["log", "-1", "--format=%s", sha], { gitDir: context.gitDir, env: context.env })
      ).stdout
        .toString()
        .trim();
      outside = await runGit(["cat-file", "-e", sha], { gitDir: context.gitDir, okCodes: [0, 1, 128] }).then(
        (r) => String(r.code),
      );
      return [];
    };
    await gitOk(box, ["push", "--quiet", "origin", "main"], work);
    expect(inQuarantine).toBe("quarantined commit 0");
    expect(outside).not.toBe("0");
    expect(await serverRef("refs/heads/main")).toBe(head);
  });

  it("refuses when the callback throws", async () => {
    server.authorize = () => {
      throw new Error("database down");
    };
    await commits(box, work, 1, "throws");
    const run = await git(box, ["push", "origin", "main"], work);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("remote: kiln: push authorization failed");
  });

  it("streams a chunked push body (larger than http.postBuffer)", async () => {
    await writeFile(join(work, "random.bin"), randomBytes(400 * 1024));
    await gitOk(box, ["add", "."], work);
    await gitOk(box, ["commit", "--quiet", "-m", "large"], work);
    const head = await gitOk(box, ["rev-parse", "HEAD"], work);
    const before = server.requests.length;
    await gitOk(box, ["-c", "http.postBuffer=65536", "push", "--quiet", "origin", "main"], work);
    const posts = server.requests.slice(before).filter((seen) => seen.path.endsWith("/git-receive-pack"));
    expect(posts.some((seen) => seen.headers["transfer-encoding"] === "chunked")).toBe(true);
    expect(await serverRef("refs/heads/main")).toBe(head);
  });

  it("serves a push with protocol v2 asked for (git falls back to v0 for push)", async () => {
    await commits(box, work, 1, "v2");
    const head = await gitOk(box, ["rev-parse", "HEAD"], work);
    await gitOk(box, ["-c", "protocol.version=2", "push", "--quiet", "origin", "main"], work);
    expect(await serverRef("refs/heads/main")).toBe(head);
  });
});

describe("the other server repo", () => {
  it("keeps a push into one repository from being authorized as another", async () => {
    const other = await bareRepo(box, "other");
    expect(other).not.toBe(repo);
    await gitOk(box, ["push", "--quiet", `${server.url}/other.git`, "main"], work);
    expect(calls[0]?.context.gitDir.endsWith("/other.git")).toBe(true);
  });
});
