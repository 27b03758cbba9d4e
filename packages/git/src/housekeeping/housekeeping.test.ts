import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bare,
  commitAll,
  type Sample,
  type Scratch,
  sampleRepo,
  scratch,
  sh,
  write,
} from "../__tests__/fixture.js";
import { createBranch, deleteBranch } from "../branches.js";
import { GitError } from "../errors.js";
import { commitFiles } from "../files.js";
import {
  bareRepo,
  commits,
  gitOk,
  type Sandbox,
  sandbox,
  startServer,
  type TestServer,
  workTree,
} from "../http/__tests__/harness.js";
import { merge } from "../merge.js";
import { branchHead, getDefaultBranch, setDefaultBranch } from "../refs.js";
import { createTag } from "../tags.js";
import { backdate, killInPush, killInRefUpdate, stallingHooks, until } from "./__tests__/killed.js";
import { GRACE_MS } from "./abandoned.js";
import { joinRegistry, leaveRegistry, ProcessRegistry } from "./registry.js";
import { startHousekeeping } from "./start.js";

const author = { name: "Kiln", email: "kiln@example.com" };
const file = (name: string) => ({
  branch: "master",
  message: `add ${name}`,
  author,
  actions: [
    {
      action: "create" as const,
      path: `${name}-${randomBytes(4).toString("hex")}.txt`,
      content: Buffer.from(name),
    },
  ],
});

let dir: Scratch;

beforeAll(() => {
  dir = scratch("kiln-housekeeping-");
});
afterAll(() => dir.remove());

/** A repositories root holding copies of the sample repository as `<id>.git`. */
function repositories(name: string, ids: number[]): { root: string; sample: Sample; gitDirs: string[] } {
  const root = join(dir.root, name);
  const sample = sampleRepo(join(dir.root, `${name}-source`));
  mkdirSync(root, { recursive: true });
  const gitDirs = ids.map((id) => {
    const gitDir = join(root, `${id}.git`);
    sh(dir.root, ["clone", "-q", "--bare", sample.gitDir, gitDir]);
    return gitDir;
  });
  return { root, sample, gitDirs };
}

async function refusal(promise: Promise<unknown>): Promise<GitError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GitError) return error;
    throw error;
  }
  throw new Error("expected a GitError");
}

describe("a ref lock left by a git killed in the middle of an update", () => {
  let root: string;
  let gitDir: string;
  let sample: Sample;
  let registry: ProcessRegistry;

  beforeAll(async () => {
    const made = repositories("killed", [1]);
    ({ root, sample } = made);
    gitDir = made.gitDirs[0] as string;
    registry = await joinRegistry(root);
  });
  afterAll(() => leaveRegistry(registry));

  it("is removed by the next write of the branch, which then succeeds", async () => {
    const head = (await branchHead(gitDir, "master")) as string;
    await killInRefUpdate(
      gitDir,
      ["update-ref", "refs/heads/master", sample.c1, head],
      ["refs/heads/master.lock"],
    );
    const committed = await commitFiles(gitDir, file("after-crash"));
    expect(await branchHead(gitDir, "master")).toBe(committed.commit);
    expect(existsSync(join(gitDir, "refs/heads/master.lock"))).toBe(false);

    await killInRefUpdate(gitDir, ["update-ref", "refs/heads/master", sample.c1], ["refs/heads/master.lock"]);
    const merged = await merge(gitDir, { target: "master", source: sample.c5, message: "Merge", author });
    expect(await branchHead(gitDir, "master")).toBe(merged.commit);

    await killInRefUpdate(gitDir, ["update-ref", "refs/heads/topic", sample.c1], ["refs/heads/topic.lock"]);
    expect((await createBranch(gitDir, "topic", "master")).commit.id).toBe(merged.commit);

    await killInRefUpdate(gitDir, ["update-ref", "refs/tags/v3", sample.c1], ["refs/tags/v3.lock"]);
    expect((await createTag(gitDir, { name: "v3", target: "master" })).target).toBe(merged.commit);
  });

  it("is removed for a deletion (the branch's lock and packed-refs.lock) and for HEAD", async () => {
    bare(gitDir, ["pack-refs", "--all"]);
    await killInRefUpdate(
      gitDir,
      ["update-ref", "-d", "refs/heads/conflicting"],
      ["refs/heads/conflicting.lock", "packed-refs.lock", "packed-refs.new"],
    );
    expect(await deleteBranch(gitDir, "conflicting")).toBe(sample.c4);
    expect(await branchHead(gitDir, "conflicting")).toBeNull();

    writeFileSync(join(gitDir, "HEAD.lock"), "ref: refs/heads/topic\n"); // as a killed symbolic-ref leaves it
    await setDefaultBranch(gitDir, "feature/clean");
    expect(await getDefaultBranch(gitDir)).toBe("feature/clean");
  });

  it("stays in the way of a process that joined no registry, until the grace period", async () => {
    const { gitDirs } = repositories("unregistered", [1]);
    const lone = gitDirs[0] as string;
    const locks = ["refs/heads/master.lock", "HEAD.lock"]; // master is the branch HEAD names
    await killInRefUpdate(lone, ["update-ref", "refs/heads/master", sample.c1], locks);
    const error = await refusal(commitFiles(lone, file("blocked")));
    expect(error.kind).toBe("ref_moved");
    for (const lock of locks) backdate(join(lone, lock), GRACE_MS + 60_000);
    await commitFiles(lone, file("after-grace"));
    for (const lock of locks) expect(existsSync(join(lone, lock))).toBe(false);
  });
});

describe("a push to a branch that a killed process left locked", () => {
  let box: Sandbox;
  let server: TestServer;
  let registry: ProcessRegistry;

  beforeAll(async () => {
    box = await sandbox();
    server = await startServer(box);
    registry = await joinRegistry(box.repos);
  });
  afterAll(async () => {
    await leaveRegistry(registry);
    await server?.close();
    await box?.remove();
  });

  it("goes through: the gate removes the locks nobody holds before git takes them", async () => {
    const repo = await bareRepo(box, "app");
    const work = await workTree(box, "work", 2);
    await gitOk(box, ["push", "--quiet", `${server.url}/app.git`, "main"], work);
    const first = await gitOk(box, ["rev-parse", "HEAD~1"], work);
    await killInRefUpdate(
      repo,
      ["update-ref", "refs/heads/main", first],
      ["refs/heads/main.lock", "HEAD.lock"],
    );
    await commits(box, work, 1, "after-crash");
    await gitOk(box, ["push", "--quiet", `${server.url}/app.git`, "main"], work);
    expect(bare(repo, ["rev-parse", "main"])).toBe(await gitOk(box, ["rev-parse", "HEAD"], work));
    expect(existsSync(join(repo, "refs/heads/main.lock"))).toBe(false);
  });
});

describe("a lock that a running writer may hold", () => {
  it("is left to a write of this process that is still in progress", async () => {
    const { root, gitDirs } = repositories("in-progress", [1]);
    const gitDir = gitDirs[0] as string;
    const registry = await joinRegistry(root);
    const release = join(root, "release");
    try {
      // The repository's own hook holds the first commit in the middle of its ref update.
      bare(gitDir, ["config", "core.hooksPath", await stallingHooks(root, release)]);
      const first = commitFiles(gitDir, file("first"));
      await until(
        () => existsSync(join(gitDir, "refs/heads/master.lock")),
        "the first commit to lock master",
      );
      const error = await refusal(commitFiles(gitDir, file("second")));
      expect(error.kind).toBe("ref_moved");
      expect(existsSync(join(gitDir, "refs/heads/master.lock"))).toBe(true);
      writeFileSync(release, "");
      const { commit } = await first;
      expect(await branchHead(gitDir, "master")).toBe(commit);
    } finally {
      writeFileSync(release, "");
      bare(gitDir, ["config", "--unset", "core.hooksPath"]);
      await leaveRegistry(registry);
    }
  });

  it("is left to another registered process that was running when it was written", async () => {
    const { root, sample, gitDirs } = repositories("other-process", [1]);
    const gitDir = gitDirs[0] as string;
    const registry = await joinRegistry(root);
    const other = await ProcessRegistry.join(root); // another server sharing the repositories
    try {
      await killInRefUpdate(
        gitDir,
        ["update-ref", "refs/heads/master", sample.c1],
        ["refs/heads/master.lock"],
      );
      const error = await refusal(commitFiles(gitDir, file("blocked")));
      expect(error.kind).toBe("ref_moved");
      expect(existsSync(join(gitDir, "refs/heads/master.lock"))).toBe(true);
      await other.leave(); // it stopped: the lock is nobody's
      await commitFiles(gitDir, file("after"));
    } finally {
      await other.leave();
      await leaveRegistry(registry);
    }
  });
});

describe("the start-up sweep", () => {
  it("removes what killed processes left, and nothing in use", async () => {
    const { root, sample, gitDirs } = repositories("sweep", [1, 2, 3]);
    const [one, two, three] = gitDirs as [string, string, string];
    const { spawnSync } = await import("node:child_process");
    const work = join(root, "..", "sweep-big");
    mkdirSync(work, { recursive: true });
    sh(work, ["init", "-q", "."]);
    for (let i = 0; i < 148; i++) write(work, { [`f${i}.bin`]: randomBytes(2000) });
    const commit = commitAll(work, "big", "2016-02-01T10:00:00Z");
    const pack = spawnSync("git", ["pack-objects", "--stdout", "--revs"], {
      cwd: work,
      input: `${commit}\n`,
    }).stdout;

    // Left by killed git processes, before this process started.
    await killInPush(one, "refs/heads/big", commit, pack);
    await killInRefUpdate(one, ["update-ref", "refs/heads/master", sample.c1], ["refs/heads/master.lock"]);
    for (const name of ["HEAD.lock", "config.lock", "packed-refs.lock", "kiln-index-0123abcd"])
      writeFileSync(join(two, name), "");
    mkdirSync(join(two, "objects/ab"), { recursive: true });
    writeFileSync(join(two, "objects/ab/tmp_obj_Xyz123"), "");
    writeFileSync(join(two, "objects/pack/pack-1234.keep"), "receive-pack 4242 on elsewhere\n");
    writeFileSync(join(two, "objects/pack/pack-5678.keep"), "kept by hand\n");
    mkdirSync(join(root, ".tmp-7-a1b2c3.git/objects"), { recursive: true });
    mkdirSync(join(root, ".trash-8-d4e5f6/refs"), { recursive: true });
    // A gc that runs keeps its repository's locks.
    writeFileSync(join(three, "gc.pid"), `${process.pid} ${hostname()}`);
    writeFileSync(join(three, "packed-refs.lock"), "");
    const quarantine = readdirSync(join(one, "objects")).find((name) => name.startsWith("tmp_objdir-"));
    expect(quarantine).toBeDefined();
    // Whether git had also locked HEAD (the symbolic ref to the branch) when it was killed depends on timing.
    const headLock = join(one, "HEAD.lock");
    const stale = [
      join(one, "objects", quarantine as string),
      join(one, "refs/heads/master.lock"),
      ...(existsSync(headLock) ? [headLock] : []),
      ...["HEAD.lock", "config.lock", "packed-refs.lock", "kiln-index-0123abcd"].map((name) =>
        join(two, name),
      ),
      join(two, "objects/ab/tmp_obj_Xyz123"),
      join(two, "objects/pack/pack-1234.keep"),
      join(root, ".tmp-7-a1b2c3.git"),
      join(root, ".trash-8-d4e5f6"),
    ];
    for (const path of [...stale, join(three, "packed-refs.lock"), join(two, "objects/pack/pack-5678.keep")])
      backdate(path, 10_000); // the process was killed ten seconds before the restart

    const housekeeping = await startHousekeeping({ root });
    // Written once this process runs: maybe its own.
    writeFileSync(join(two, "refs/heads/fresh.lock"), "");
    const report = await housekeeping.swept;
    try {
      expect(report.failed).toEqual([]);
      expect([...report.removed].sort()).toEqual([...stale].sort());
      for (const path of stale) expect(existsSync(path), path).toBe(false);
      for (const kept of [
        join(two, "refs/heads/fresh.lock"),
        join(two, "objects/pack/pack-5678.keep"),
        join(three, "packed-refs.lock"),
      ])
        expect(existsSync(kept), kept).toBe(true);
      // The repositories work: the branch the killed update held moves again.
      await commitFiles(one, file("after-sweep"));
      expect(bare(one, ["fsck", "--no-progress"])).toBe("");
    } finally {
      await housekeeping.stop();
    }
  });

  it("leaves what another running process may be using until the grace period", async () => {
    const { root, sample, gitDirs } = repositories("shared", [1]);
    const gitDir = gitDirs[0] as string;
    const other = await ProcessRegistry.join(root);
    try {
      await killInRefUpdate(
        gitDir,
        ["update-ref", "refs/heads/master", sample.c1],
        ["refs/heads/master.lock"],
      );
      mkdirSync(join(gitDir, "objects/tmp_objdir-incoming-AbC123/pack"), { recursive: true });
      const leftovers = [
        join(gitDir, "refs/heads/master.lock"),
        join(gitDir, "objects/tmp_objdir-incoming-AbC123"),
      ];
      for (const path of leftovers) backdate(path, 3_000);
      const first = await startHousekeeping({ root });
      expect((await first.swept).removed).toEqual([]);
      await first.stop();

      backdate(leftovers[0] as string, GRACE_MS + 60_000);
      const second = await startHousekeeping({ root });
      expect((await second.swept).removed).toEqual([leftovers[0]]);
      await second.stop();
    } finally {
      await other.leave();
    }
  });
});
