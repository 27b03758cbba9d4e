import { AccessLevel } from "@kiln/domain";
import { expect, it } from "vitest";
import { ALL, createAccount, createProject } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import type { NewCiBuild } from "./stores/ci-builds.js";
import type { CiRunnerScope, CiRunnerSource } from "./stores/ci-runners.js";
import type { Stores } from "./stores.js";

async function pipelineWithBuilds(stores: Stores, projectId: number, tags: string[][]) {
  const pipeline = await stores.ciPipelines.create({
    project_id: projectId,
    ref: "main",
    tag: false,
    sha: "a".repeat(40),
    before_sha: null,
    status: "pending",
    source: "push",
    user_id: null,
  });
  const builds: NewCiBuild[] = tags.map((tag_list, i) => ({
    pipeline_id: pipeline.id,
    project_id: projectId,
    name: `job${i}`,
    stage: "test",
    stage_idx: 0,
    status: "pending",
    ref: "main",
    tag: false,
    sha: pipeline.sha,
    user_id: null,
    allow_failure: false,
    options: {},
    yaml_variables: [{ key: "A", value: "1", public: true }],
    tag_list,
  }));
  return { pipeline, builds: await stores.ciBuilds.createMany(builds) };
}

const runner = (stores: Stores, n: number, shared = true, projectId: number | null = null) =>
  stores.ciRunners.create(
    {
      token_digest: `digest-${n}`,
      token_sealed: `sealed-${n}`,
      description: `runner ${n}`,
      is_shared: shared,
      run_untagged: true,
      locked: false,
      tag_list: [],
    },
    projectId,
  );

describeStores("CI stores", (ctx) => {
  it("stores pipelines and builds with global ids and their JSON read back", async () => {
    const { namespace } = await createAccount(ctx.stores, "alice");
    const a = await createProject(ctx.stores, namespace.id, "a");
    const b = await createProject(ctx.stores, namespace.id, "b");
    const first = await pipelineWithBuilds(ctx.stores, a.id, [[], ["docker"]]);
    const second = await pipelineWithBuilds(ctx.stores, b.id, [[]]);
    expect(second.builds[0]?.id).toBeGreaterThan(first.builds[1]?.id ?? Infinity);
    const build = await ctx.stores.ciBuilds.find(first.builds[1]?.id ?? 0);
    expect(build).toMatchObject({
      tag_list: ["docker"],
      yaml_variables: [{ key: "A", value: "1", public: true }],
    });
    expect(await ctx.stores.ciBuilds.findInProject(b.id, build?.id ?? 0)).toBeUndefined();
    const page = await ctx.stores.ciBuilds.list(a.id, ["pending"], ALL);
    expect(page.items.map((item) => item.name)).toEqual(["job1", "job0"]);
    expect((await ctx.stores.ciPipelines.list(a.id, null, ALL)).items.map((p) => p.id)).toEqual([
      first.pipeline.id,
    ]);
  });

  it("gives each pending build to one runner when many claim at once", async () => {
    const { namespace } = await createAccount(ctx.stores, "alice");
    const project = await createProject(ctx.stores, namespace.id, "p");
    const { builds } = await pipelineWithBuilds(
      ctx.stores,
      project.id,
      Array.from({ length: 12 }, () => []),
    );
    const runners = await Promise.all(Array.from({ length: 6 }, (_, n) => runner(ctx.stores, n)));
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, n) => {
        const r = runners[n % runners.length];
        if (!r) throw new Error("no runner");
        return ctx.stores.transaction((tx) =>
          tx.ciBuilds.claim({ id: r.id, isShared: true, tags: [], runUntagged: true }, `token-${n}`),
        );
      }),
    );
    const claimed = claims.filter((build) => build !== undefined).map((build) => build.id);
    // No build twice; on PostgreSQL a claim may find every candidate locked by the others and
    // answer none, so the rest is claimed one by one after.
    expect(new Set(claimed).size).toBe(claimed.length);
    const last = runners[0]?.id ?? 0;
    for (let n = 0; ; n++) {
      const next = await ctx.stores.ciBuilds.claim(
        { id: last, isShared: true, tags: [], runUntagged: true },
        `again-${n}`,
      );
      if (!next) break;
      claimed.push(next.id);
    }
    expect(claimed.sort((x, y) => x - y)).toEqual(builds.map((build) => build.id));
  });

  it("matches tags, untagged builds, and shared or specific runners", async () => {
    const { namespace } = await createAccount(ctx.stores, "alice");
    const open = await createProject(ctx.stores, namespace.id, "open");
    const closed = await createProject(ctx.stores, namespace.id, "closed", { shared_runners_enabled: false });
    const { builds } = await pipelineWithBuilds(ctx.stores, open.id, [["docker"]]);
    await pipelineWithBuilds(ctx.stores, closed.id, [[]]);
    const shared = await runner(ctx.stores, 1);
    const specific = await runner(ctx.stores, 2, false, closed.id);
    const claim = (r: { id: number; is_shared: boolean }, tags: string[], runUntagged: boolean) =>
      ctx.stores.ciBuilds.claim({ id: r.id, isShared: r.is_shared, tags, runUntagged }, `t-${Math.random()}`);
    // Not the closed project's untagged build (no shared runners there), nor the tagged one.
    expect(await claim(shared, [], true)).toBeUndefined();
    expect(await claim(shared, ["docker", "linux"], false)).toMatchObject({
      id: builds[0]?.id,
      status: "running",
    });
    const taken = await claim(specific, [], true);
    expect(taken).toMatchObject({ project_id: closed.id, runner_id: specific.id });
    expect(await ctx.stores.ciRunners.projectIds(specific.id)).toEqual([closed.id]);
  });

  it("lists a project's runners with the shared ones, and a user's from the projects they master", async () => {
    const { namespace } = await createAccount(ctx.stores, "alice");
    const { user: dev } = await createAccount(ctx.stores, "dev");
    const a = await createProject(ctx.stores, namespace.id, "a");
    const b = await createProject(ctx.stores, namespace.id, "b");
    const shared = await runner(ctx.stores, 1);
    const ofA = await runner(ctx.stores, 2, false, a.id);
    const ofB = await runner(ctx.stores, 3, false, b.id);
    await ctx.stores.ciRunners.link(ofA.id, b.id);
    await ctx.stores.ciRunners.update(ofB.id, { active: false });
    const ids = async (source: CiRunnerSource, scope: CiRunnerScope = null) =>
      (await ctx.stores.ciRunners.list(source, scope, { page: 1, perPage: 20 })).items.map((r) => r.id);
    expect(await ids({ kind: "all" })).toEqual([shared.id, ofA.id, ofB.id]);
    expect(await ids({ kind: "project", projectId: a.id })).toEqual([shared.id, ofA.id]);
    expect(await ids({ kind: "project", projectId: b.id }, "specific")).toEqual([ofA.id, ofB.id]);
    expect(await ids({ kind: "all" }, "paused")).toEqual([ofB.id]);
    // alice owns the namespace: both specific runners, once each; a developer of b manages none.
    expect(await ids({ kind: "mastered", userId: namespace.owner_id ?? 0 })).toEqual([ofA.id, ofB.id]);
    await ctx.stores.projectMembers.add(b.id, dev.id, AccessLevel.DEVELOPER);
    expect(await ids({ kind: "mastered", userId: dev.id })).toEqual([]);
    expect(await ctx.stores.ciRunners.managedBy(ofB.id, dev.id)).toBe(false);
    await ctx.stores.projectMembers.add(a.id, dev.id, AccessLevel.MASTER);
    expect(await ids({ kind: "mastered", userId: dev.id })).toEqual([ofA.id]);
    expect(await ctx.stores.ciRunners.managedBy(ofA.id, dev.id)).toBe(true);
    expect(await ctx.stores.ciRunners.managedBy(shared.id, dev.id)).toBe(false);
    await ctx.stores.ciRunners.update(ofA.id, { contacted_at: new Date().toISOString() });
    expect(await ids({ kind: "all" }, "online")).toEqual([ofA.id]);
  });

  it("keeps one registration token, the first stored", async () => {
    await ctx.stores.settings.stamps();
    expect(await ctx.stores.ciRunners.registrationToken()).toBeNull();
    expect(await ctx.stores.ciRunners.keepRegistrationToken("first")).toBe("first");
    expect(await ctx.stores.ciRunners.keepRegistrationToken("second")).toBe("first");
  });
});
