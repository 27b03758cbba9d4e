import type { Failure } from "@kiln/domain";
import type { BuildJson, IssueJson, MergeRequestJson, PipelineJson } from "@kiln/schemas";
import type { ApiResponse, TestUser } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { commitTo, type MergeFixture, mergeFixture, openMergeRequest } from "./merge-requests-support.js";
import { onEachDatabase } from "./support.js";
import { dataOf, trpcCall } from "./trpc-support.js";

/** The failure kind each v3 status stands for. */
const KIND_OF_STATUS: Record<number, Failure["kind"]> = {
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  405: "not_allowed",
  406: "not_acceptable",
  409: "conflict",
};

/** A read of both surfaces: the v3 path, and the procedure with its input. */
interface Pair {
  v3: string;
  procedure: string;
  input: unknown;
  /** The procedure answers a page whose items are v3's array. */
  paged?: boolean;
  /** What the procedure answers when v3 answers 200, if not v3's body (or items) as it is. */
  expected?: (v3: ApiResponse<unknown>) => unknown;
}

/** Two stages, so that a pipeline has builds waiting in both (no runner takes them here). */
const CI_YAML = "compile:\n  stage: build\n  script: [make]\ncheck:\n  stage: test\n  script: [make test]\n";

const ROLES = ["reporter", "guest", "outsider"] as const;

onEachDatabase("tRPC shows what v3 shows, to each role", (ctx) => {
  let fixture: MergeFixture;
  let mergeRequest: MergeRequestJson;
  let pairs: Pair[];
  let pipeline: PipelineJson;
  let build: BuildJson;
  const person = (role: (typeof ROLES)[number] | "owner" | "developer"): TestUser =>
    fixture.cast.people[role];

  beforeAll(async () => {
    fixture = await mergeFixture(ctx(), "tv");
    const { project } = fixture;
    const owner = person("owner");
    commitTo(fixture.repo, "feature", { "app.txt": "one\ntwo\nthree\nfour\n" }, { from: "master" });
    const opened = await openMergeRequest(ctx(), project.id, owner, {
      source_branch: "feature",
      target_branch: "master",
      title: "Add four",
      assignee_id: person("guest").id,
    });
    expect(opened.status).toBe(200);
    mergeRequest = opened.body;
    for (const json of [
      { title: "Open issue", assignee_id: person("reporter").id },
      { title: "Secret issue", confidential: true },
    ]) {
      const created = await ctx().api<IssueJson>({
        method: "POST",
        path: `/projects/${project.id}/issues`,
        token: owner.token,
        json,
      });
      expect(created.status).toBe(200);
    }
    // The first read checks merge_status; every read after it answers the same merge request.
    await ctx().api({
      path: `/projects/${project.id}/merge_requests/${mergeRequest.id}`,
      token: owner.token,
    });
    // A pipeline of the branch "ci", its builds pending.
    commitTo(fixture.repo, "ci", { ".gitlab-ci.yml": CI_YAML }, { from: "master" });
    const created = await ctx().api<PipelineJson>({
      method: "POST",
      path: `/projects/${project.id}/pipeline`,
      token: owner.token,
      json: { ref: "ci" },
    });
    expect(created.status).toBe(201);
    pipeline = created.body;
    const builds = await ctx().api<BuildJson[]>({
      path: `/projects/${project.id}/builds`,
      token: owner.token,
    });
    expect(builds.body.map((job) => job.name).sort()).toEqual(["check", "compile"]);
    build = builds.body.find((job) => job.name === "compile")!;
    const id = project.id;
    const ref = { id, merge_request_id: mergeRequest.id };
    const pipelineRef = { id, pipeline_id: pipeline.id };
    const buildRef = { id, build_id: build.id };
    pairs = [
      { v3: "/user", procedure: "users.me", input: undefined },
      { v3: "/todos", procedure: "todos.list", input: {}, paged: true },
      { v3: "/projects", procedure: "projects.list", input: {}, paged: true },
      { v3: "/projects/visible", procedure: "projects.visible", input: {}, paged: true },
      { v3: `/projects/${id}`, procedure: "projects.get", input: { id } },
      {
        v3: `/projects/${encodeURIComponent(project.path_with_namespace)}`,
        procedure: "projects.get",
        input: { id: project.path_with_namespace },
      },
      { v3: "/issues", procedure: "issues.mine", input: {}, paged: true },
      { v3: `/projects/${id}/issues`, procedure: "issues.list", input: { id }, paged: true },
      { v3: `/projects/${id}/merge_requests`, procedure: "mergeRequests.list", input: { id }, paged: true },
      { v3: `/projects/${id}/merge_requests/${mergeRequest.id}`, procedure: "mergeRequests.get", input: ref },
      {
        v3: `/projects/${id}/merge_requests/${mergeRequest.id}/changes`,
        procedure: "mergeRequests.changes",
        input: ref,
      },
      { v3: `/projects/${id}/pipelines/${pipeline.id}`, procedure: "pipelines.get", input: pipelineRef },
      {
        v3: `/projects/${id}/pipelines/${pipeline.id}`,
        procedure: "pipelines.latest",
        input: { id, ref: "ci" },
      },
      {
        // v3 lists the project's builds newest first; the pipeline's come in stage order.
        v3: `/projects/${id}/builds`,
        procedure: "pipelines.builds",
        input: pipelineRef,
        expected: (v3) => [...(v3.body as BuildJson[])].reverse(),
      },
      { v3: `/projects/${id}/builds/${build.id}`, procedure: "builds.get", input: buildRef },
      {
        v3: `/projects/${id}/builds/${build.id}/trace`,
        procedure: "builds.trace",
        input: buildRef,
        expected: (v3) => ({
          id: build.id,
          status: "pending",
          offset: 0,
          next_offset: Buffer.byteLength(v3.text),
          content: v3.text,
          complete: false,
        }),
      },
    ];
  });

  for (const role of ROLES) {
    describe(`a ${role} of a private project`, () => {
      it("reads through tRPC exactly what v3 answers, and is refused where v3 refuses", async () => {
        const { token } = person(role);
        for (const pair of pairs) {
          const v3 = await ctx().api<unknown[]>({ path: pair.v3, token });
          const trpc = await trpcCall<{ items: unknown[]; total: number | null }>(
            ctx(),
            "query",
            pair.procedure,
            pair.input,
            { token },
          );
          const what = `${pair.procedure} vs GET ${pair.v3}`;
          if (v3.status !== 200) {
            expect(trpc.body.error?.data.failure?.kind, what).toBe(KIND_OF_STATUS[v3.status]);
            expect(trpc.status, what).toBe(v3.status);
            continue;
          }
          const data = dataOf(trpc);
          const expected = pair.expected ? pair.expected(v3) : v3.body;
          expect(pair.paged ? data.items : data, what).toEqual(expected);
          if (pair.paged) expect(String(data.total), what).toBe(v3.headers.get("x-total"));
        }
      });

      it("lists among its merge requests only those it may read, as v3 shows them", async () => {
        const { token } = person(role);
        for (const scope of ["created_by_me", "assigned_to_me"]) {
          const mine = dataOf(
            await trpcCall<{ items: MergeRequestJson[] }>(
              ctx(),
              "query",
              "mergeRequests.mine",
              { scope },
              { token },
            ),
          );
          for (const item of mine.items) {
            const v3 = await ctx().api({
              path: `/projects/${item.project_id}/merge_requests/${item.id}`,
              token,
            });
            expect(v3.status).toBe(200);
            expect(item).toEqual(v3.body);
          }
          // The guest is the assignee, but guests of a private project may not read its merge requests.
          expect(mine.items.map((item) => item.id)).not.toContain(mergeRequest.id);
        }
      });

      it("is refused an accept the way v3 refuses it, and nothing is merged", async () => {
        const { token } = person(role);
        const input = { id: fixture.project.id, merge_request_id: mergeRequest.id, sha: mergeRequest.sha };
        const trpc = await trpcCall(ctx(), "mutation", "mergeRequests.accept", input, { token });
        const v3 = await ctx().api({
          method: "PUT",
          path: `/projects/${fixture.project.id}/merge_requests/${mergeRequest.id}/merge`,
          token,
          json: { sha: mergeRequest.sha },
        });
        expect(v3.status).toBeGreaterThanOrEqual(400);
        expect(trpc.body.error?.data.failure?.kind).toBe(KIND_OF_STATUS[v3.status]);
        const now = await ctx().api<MergeRequestJson>({
          path: `/projects/${fixture.project.id}/merge_requests/${mergeRequest.id}`,
          token: person("owner").token,
        });
        expect(now.body.state).toBe("opened");
      });

      it("is refused a build's retry and cancel the way v3 refuses them, and the build stays", async () => {
        const { token } = person(role);
        const input = { id: fixture.project.id, build_id: build.id };
        for (const action of ["retry", "cancel"]) {
          const trpc = await trpcCall(ctx(), "mutation", `builds.${action}`, input, { token });
          const v3 = await ctx().api({
            method: "POST",
            path: `/projects/${fixture.project.id}/builds/${build.id}/${action}`,
            token,
          });
          expect(v3.status, action).toBeGreaterThanOrEqual(400);
          expect(trpc.body.error?.data.failure?.kind, action).toBe(KIND_OF_STATUS[v3.status]);
        }
        const now = await ctx().api<BuildJson>({
          path: `/projects/${fixture.project.id}/builds/${build.id}`,
          token: person("owner").token,
        });
        expect(now.body.status).toBe("pending");
      });
    });
  }

  it("cancels and retries a build for a developer as v3 does, answering the build as v3 shows it", async () => {
    const { token } = person("developer");
    const input = { id: fixture.project.id, build_id: build.id };
    const canceled = dataOf(await trpcCall<BuildJson>(ctx(), "mutation", "builds.cancel", input, { token }));
    const shown = await ctx().api({ path: `/projects/${fixture.project.id}/builds/${build.id}`, token });
    expect(canceled).toEqual(shown.body);
    expect(canceled.status).toBe("canceled");
    const retried = dataOf(await trpcCall<BuildJson>(ctx(), "mutation", "builds.retry", input, { token }));
    expect(retried.id).not.toBe(build.id);
    expect([retried.name, retried.status]).toEqual(["compile", "pending"]);
    const jobs = dataOf(
      await trpcCall<BuildJson[]>(
        ctx(),
        "query",
        "pipelines.builds",
        {
          id: fixture.project.id,
          pipeline_id: pipeline.id,
        },
        { token },
      ),
    );
    // The retried build replaces the canceled one.
    expect(jobs.map((job) => [job.name, job.id])).toEqual([
      ["compile", retried.id],
      ["check", expect.any(Number)],
    ]);
  });

  it("lists the merge requests of their assignee who may read them (a developer)", async () => {
    const updated = await ctx().api({
      method: "PUT",
      path: `/projects/${fixture.project.id}/merge_requests/${mergeRequest.id}`,
      token: person("owner").token,
      json: { assignee_id: person("developer").id },
    });
    expect(updated.status).toBe(200);
    const { token } = person("developer");
    const mine = dataOf(
      await trpcCall<{ items: MergeRequestJson[] }>(
        ctx(),
        "query",
        "mergeRequests.mine",
        { scope: "assigned_to_me" },
        { token },
      ),
    );
    const v3 = await ctx().api({
      path: `/projects/${fixture.project.id}/merge_requests/${mergeRequest.id}`,
      token,
    });
    expect(mine.items).toEqual([v3.body]);
    const authored = dataOf(
      await trpcCall<{ items: MergeRequestJson[] }>(
        ctx(),
        "query",
        "mergeRequests.mine",
        {},
        { token: person("owner").token },
      ),
    );
    expect(authored.items.map((item) => item.id)).toContain(mergeRequest.id);
  });
});
