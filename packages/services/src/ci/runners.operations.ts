import {
  AccessLevel,
  conflict,
  DomainError,
  disableRefusal,
  forbidden,
  invalid,
  type Namespace,
  notFound,
  type Page,
  type Project,
  pageRequest,
  type RunnerAction,
  type RunnerFacts,
  type RunnerViewer,
  runnerRefusal,
  showsRunnerToken,
} from "@kiln/domain";
import {
  ListAllRunnersInput,
  ListOwnRunnersInput,
  ListProjectRunnersInput,
  ProjectRunnerInput,
  RunnerRefInput,
  UpdateRunnerInput,
} from "@kiln/schemas";
import type { CiRunner, CiRunnerPatch } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { mutation, query, type SignedInContext } from "../operation.js";
import { accessesTo, requireProject } from "../projects/access.js";

/** A runner with what its details show: its token (to those allowed) and its projects the caller knows. */
export interface RunnerDetailsView {
  runner: CiRunner;
  /** Null when the caller may not see it (a shared runner, to anyone but administrators). */
  token: string | null;
  projects: { project: Project; namespace: Namespace }[];
}

/** A runner and how the caller stands to it. */
interface RunnerInContext {
  runner: CiRunner;
  facts: RunnerFacts;
  viewer: RunnerViewer;
  projectIds: number[];
}

/** The runner `id`, as the caller stands to it; 8.x's `Ci::Runner.find` 404 when there is none. */
async function loadRunner(ctx: SignedInContext, id: number): Promise<RunnerInContext> {
  const { ciRunners } = ctx.runtime.stores;
  const runner = await ciRunners.find(id);
  if (!runner) throw new DomainError({ kind: "not_found", reason: "runner_missing" });
  const user = ctx.actor.user;
  const projectIds = await ciRunners.projectIds(runner.id);
  const manages = !user.is_admin && (await ciRunners.managedBy(runner.id, user.id));
  return {
    runner,
    facts: { isShared: runner.is_shared, locked: runner.locked, projectCount: projectIds.length },
    viewer: { isAdmin: user.is_admin, manages },
    projectIds,
  };
}

/** The runner `id` if the caller may do `action` to it (403 with 8.x's reason otherwise). */
async function runnerFor(ctx: SignedInContext, id: number, action: RunnerAction): Promise<RunnerInContext> {
  const loaded = await loadRunner(ctx, id);
  const refusal = runnerRefusal(action, loaded.viewer, loaded.facts);
  if (refusal) throw forbidden({ reason: refusal });
  return loaded;
}

/**
 * The details of a runner: its token when the caller may see it, and its projects, all of them
 * for administrators, for others those they are a member of (8.x's `authorized_projects`).
 */
async function detailsOf(ctx: Context, loaded: RunnerInContext): Promise<RunnerDetailsView> {
  const { stores, secrets } = ctx.runtime;
  const { runner, viewer, facts } = loaded;
  const sealed = showsRunnerToken(viewer, facts) ? await stores.ciRunners.sealedToken(runner.id) : undefined;
  const found = await stores.projects.findByIds(loaded.projectIds);
  const projects = loaded.projectIds.flatMap((id) => found.get(id) ?? []);
  const namespaces = await stores.namespaces.findByIds(projects.map((project) => project.namespace_id));
  const accesses = viewer.isAdmin ? null : await accessesTo(ctx, projects, namespaces);
  return {
    runner,
    token: sealed === undefined ? null : secrets.open(sealed),
    projects: projects.flatMap((project) => {
      const namespace = namespaces.get(project.namespace_id);
      if (!namespace) return [];
      const level = accesses?.get(project.id)?.access.subject.accessLevel ?? AccessLevel.NONE;
      return accesses === null || level > AccessLevel.NONE ? [{ project, namespace }] : [];
    }),
  };
}

/** The tags of a runner as given (`tag_list[]=a` or `tag_list=a,b`): trimmed, without blanks or repeats. */
const tagsOf = (list: readonly string[]): string[] => [
  ...new Set(
    list
      .flatMap((item) => item.split(","))
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ""),
  ),
];

/** The change `input` asks for, refused as 8.x's validation when the runner could then run nothing. */
function patchOf(runner: CiRunner, input: UpdateRunnerInput): CiRunnerPatch {
  const { description, active, run_untagged, locked } = input;
  const patch: CiRunnerPatch = {
    ...(description === undefined ? {} : { description }),
    ...(active === undefined ? {} : { active }),
    ...(run_untagged === undefined ? {} : { run_untagged }),
    ...(locked === undefined ? {} : { locked }),
    ...(input.tag_list === undefined ? {} : { tag_list: tagsOf(input.tag_list) }),
  };
  const tags = patch.tag_list ?? runner.tag_list;
  if (tags.length === 0 && !(patch.run_untagged ?? runner.run_untagged)) {
    throw invalid({ tags_list: ["can not be empty when runner is not allowed to pick untagged jobs"] });
  }
  return patch;
}

/**
 * CI runners as the v3 API manages them (8.x's `/runners` and `/projects/:id/runners`): users
 * see and manage the specific runners of the projects they master, administrators every runner;
 * masters enable on their projects the specific runners they manage elsewhere.
 */
export const runners = {
  /** The specific runners of the projects the caller masters. */
  own: query(
    "signed_in",
    ListOwnRunnersInput,
    (ctx, input): Promise<Page<CiRunner>> =>
      ctx.runtime.stores.ciRunners.list(
        { kind: "mastered", userId: ctx.actor.user.id },
        input.scope ?? null,
        pageRequest(input),
      ),
  ),

  /** Every runner, shared and specific (administrators). */
  all: query(
    "admin",
    ListAllRunnersInput,
    (ctx, input): Promise<Page<CiRunner>> =>
      ctx.runtime.stores.ciRunners.list({ kind: "all" }, input.scope ?? null, pageRequest(input)),
  ),

  /** One runner's details: shared runners for anyone, specific ones for their masters. */
  get: query("signed_in", RunnerRefInput, async (ctx, input) =>
    detailsOf(ctx, await runnerFor(ctx, input.id, "show")),
  ),

  /** Changes a runner's description, state, tags, untagged builds or lock. */
  update: mutation("signed_in", UpdateRunnerInput, async (ctx, input) => {
    const loaded = await runnerFor(ctx, input.id, "update");
    const runner = await ctx.runtime.stores.ciRunners.update(loaded.runner.id, patchOf(loaded.runner, input));
    if (!runner) throw new DomainError({ kind: "not_found", reason: "runner_missing" });
    return detailsOf(ctx, { ...loaded, runner });
  }),

  /** Removes a runner: a specific one of one project by its master, any by an administrator. */
  remove: mutation("signed_in", RunnerRefInput, async (ctx, input) => {
    const { runner } = await runnerFor(ctx, input.id, "delete");
    await ctx.runtime.stores.ciRunners.delete(runner.id);
    return runner;
  }),

  /** The runners of a project: its specific ones and every shared one (masters). */
  ofProject: query("signed_in", ListProjectRunnersInput, async (ctx, input): Promise<Page<CiRunner>> => {
    const { project } = await requireProject(ctx, input.id, "admin_project");
    return ctx.runtime.stores.ciRunners.list(
      { kind: "project", projectId: project.id },
      input.scope ?? null,
      pageRequest(input),
    );
  }),

  /** Enables on a project a specific runner the caller manages; 409 when it already is. */
  enable: mutation("signed_in", ProjectRunnerInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_project");
    const { runner } = await runnerFor(ctx, input.runner_id, "enable");
    if (!(await ctx.runtime.stores.ciRunners.link(runner.id, project.id))) {
      throw conflict({ reason: "runner_already_enabled" });
    }
    return runner;
  }),

  /** Disables a runner on a project; refused on its last project (the runner is removed instead). */
  disable: mutation("signed_in", ProjectRunnerInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_project");
    const { ciRunners } = ctx.runtime.stores;
    const runner = await ciRunners.find(input.runner_id);
    const projectIds = runner ? await ciRunners.projectIds(runner.id) : [];
    if (!runner || !projectIds.includes(project.id)) throw notFound("runner");
    const refusal = disableRefusal({
      isShared: runner.is_shared,
      locked: runner.locked,
      projectCount: projectIds.length,
    });
    if (refusal) throw forbidden({ reason: refusal });
    await ciRunners.unlink(runner.id, project.id);
    return runner;
  }),
};
