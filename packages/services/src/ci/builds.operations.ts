import { DomainError, notFound, type Page, pageRequest } from "@kiln/domain";
import { ArtifactsByRefInput, BuildRefInput, CommitBuildsInput, ListBuildsInput } from "@kiln/schemas";
import type { CiBuild } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { mutation, query } from "../operation.js";
import { requireProject } from "../projects/access.js";
import { cancelBuild, eraseBuild, keepArtifacts, playBuild, retryBuild } from "./actions.js";
import { artifactsPath } from "./artifacts.js";
import { requireBuild } from "./build-access.js";
import { readTrace } from "./runs.js";
import { type BuildView, buildView, buildViews, commitOrNull } from "./views.js";

/** The statuses a `scope` of builds may name. */
const SCOPES = ["pending", "running", "failed", "success", "canceled"];

/** The statuses asked for, or null for all; 400 `Scope contains invalid value(s)` for another. */
function statusesOf(scope: string | string[] | undefined): string[] | null {
  if (scope === undefined) return null;
  const statuses = Array.isArray(scope) ? scope : [scope];
  if (statuses.some((status) => !SCOPES.includes(status))) {
    throw new DomainError({ kind: "bad_request", reason: "scope_invalid" });
  }
  return statuses;
}

/** A build's artifacts archive to serve: its path and file name. */
export interface ArtifactsDownload {
  path: string;
  filename: string;
  size: number;
}

const download = (ctx: Context, build: CiBuild): ArtifactsDownload => ({
  path: artifactsPath(ctx.runtime, build),
  filename: build.artifacts_file ?? "artifacts.zip",
  size: build.artifacts_size ?? 0,
});

/**
 * A project's builds (8.x's `/projects/:id/builds`): read by reporters and above, by anyone who
 * reads the project when its builds are public; cancel, retry, erase, keep and play by developers
 * and above.
 */
export const builds = {
  /** The project's builds, newest first, in the `scope` statuses when given. */
  list: query("signed_in", ListBuildsInput, async (ctx, input): Promise<Page<BuildView>> => {
    const { project } = await requireProject(ctx, input.id, "read_build");
    const page = await ctx.runtime.stores.ciBuilds.list(
      project.id,
      statusesOf(input.scope),
      pageRequest(input),
    );
    return { ...page, items: await buildViews(ctx.runtime, project, page.items) };
  }),

  /** The builds of every pipeline of a commit; `404 Commit Not Found` for a sha the repository lacks. */
  ofCommit: query("signed_in", CommitBuildsInput, async (ctx, input): Promise<Page<BuildView>> => {
    const { project } = await requireProject(ctx, input.id, "read_build");
    const commit = await commitOrNull(ctx.runtime, project, input.sha);
    if (!commit) throw notFound("commit");
    const statuses = statusesOf(input.scope);
    const all = (await ctx.runtime.stores.ciBuilds.ofSha(project.id, commit.id, "build")).filter(
      (build) => statuses === null || statuses.includes(build.status),
    );
    const page = pageRequest(input);
    const items = all.slice((page.page - 1) * page.perPage, page.page * page.perPage);
    return { items: await buildViews(ctx.runtime, project, items), ...page, total: all.length };
  }),

  /** One build. */
  get: query("signed_in", BuildRefInput, async (ctx, input) => {
    const { project, build } = await requireBuild(ctx, input);
    return buildView(ctx.runtime, project, build);
  }),

  /** A build's trace (empty when it has none). */
  trace: query("signed_in", BuildRefInput, async (ctx, input): Promise<{ id: number; trace: string }> => {
    const { build } = await requireBuild(ctx, input);
    return { id: build.id, trace: (await readTrace(ctx.runtime, build)).toString("utf8") };
  }),

  /** A build's artifacts archive; 404 when it has none. */
  artifacts: query("signed_in", BuildRefInput, async (ctx, input) =>
    download(ctx, (await requireBuild(ctx, input)).build),
  ),

  /** The artifacts of the newest successful build named `job` on `ref_name`. */
  artifactsByRef: query("signed_in", ArtifactsByRefInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "read_build");
    const build = await ctx.runtime.stores.ciBuilds.latestSuccessful(project.id, input.ref_name, input.job);
    if (!build) throw notFound("build");
    return download(ctx, build);
  }),

  /** Cancels a build that has not finished. */
  cancel: mutation("signed_in", BuildRefInput, async (ctx, input) => {
    const { project, build } = await requireBuild(ctx, input, "update_build");
    return buildView(ctx.runtime, project, await cancelBuild(ctx.runtime, build));
  }),

  /** Retries a finished build: answers the new build. */
  retry: mutation("signed_in", BuildRefInput, async (ctx, input) => {
    const { project, build } = await requireBuild(ctx, input, "update_build");
    return buildView(ctx.runtime, project, await retryBuild(ctx.runtime, build, ctx.actor.user.id));
  }),

  /** Erases a finished build's trace and artifacts. */
  erase: mutation("signed_in", BuildRefInput, async (ctx, input) => {
    const { project, build } = await requireBuild(ctx, input, "update_build");
    return buildView(ctx.runtime, project, await eraseBuild(ctx.runtime, build, ctx.actor.user.id));
  }),

  /** Keeps a build's artifacts from expiring. */
  keep: mutation("signed_in", BuildRefInput, async (ctx, input) => {
    const { project, build } = await requireBuild(ctx, input, "update_build");
    return buildView(ctx.runtime, project, await keepArtifacts(ctx.runtime, build));
  }),

  /** Starts a manual build for the caller. */
  play: mutation("signed_in", BuildRefInput, async (ctx, input) => {
    const { project, build } = await requireBuild(ctx, input, "update_build");
    return buildView(ctx.runtime, project, await playBuild(ctx.runtime, build, ctx.actor.user.id));
  }),
};
