import { randomBytes } from "node:crypto";
import {
  badRequest,
  mapPage,
  notFound,
  type Page,
  pageOfAll,
  pageRequest,
  unauthenticated,
} from "@kiln/domain";
import { CreateTriggerInput, ListTriggersInput, TriggerBuildsInput, TriggerRefInput } from "@kiln/schemas";
import type { CiTrigger } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { mutation, query } from "../operation.js";
import { findProject, requireProject } from "../projects/access.js";
import { tokenDigest } from "../security/tokens.js";
import { createPipelineForRef } from "./create.js";

/** A trigger as masters see it: its token in full (8.x shows it), opened from its seal. */
export interface TriggerView {
  trigger: CiTrigger;
  token: string;
}

/** What a trigger request answers (8.x's `TriggerRequest`): the pipeline made, and the variables given. */
export interface TriggerRequestView {
  /** The id of the pipeline the request made (8.x numbers its trigger requests apart). */
  id: number;
  variables: Record<string, string> | null;
}

const viewOf = (ctx: Context, trigger: CiTrigger): TriggerView => ({
  trigger,
  token: ctx.runtime.secrets.open(trigger.token_sealed),
});

/** The live trigger of the project with this token, or undefined. */
async function triggerOf(ctx: Context, projectId: number, token: string): Promise<CiTrigger | undefined> {
  const trigger = await ctx.runtime.stores.ciTriggers.findByDigest(tokenDigest(token));
  return trigger?.project_id === projectId ? trigger : undefined;
}

/** The trigger a master names by token: `404 Trigger Not Found` when the project has none such. */
async function requireTrigger(ctx: Context, input: TriggerRefInput): Promise<CiTrigger> {
  const { project } = await requireProject(ctx, input.id, "admin_build");
  const trigger = await triggerOf(ctx, project.id, input.token);
  if (!trigger) throw notFound("trigger");
  return trigger;
}

/** The variables of a trigger request, refused with 8.x's wording unless every value is a string. */
function variablesOf(given: Record<string, unknown> | undefined): Record<string, string> | null {
  if (given === undefined) return null;
  const entries = Object.entries(given);
  if (!entries.every((entry): entry is [string, string] => typeof entry[1] === "string")) {
    throw badRequest({ reason: "trigger_variables_invalid" });
  }
  return Object.fromEntries(entries);
}

/**
 * Build triggers (8.x's `/projects/:id/triggers`, for masters) and the trigger request
 * (`POST /projects/:id/trigger/builds`), which needs the trigger's token and no user. Tokens are
 * kept as a digest (looked up) and sealed with the server key (shown to masters again).
 */
export const triggers = {
  /** The project's live triggers, oldest first. */
  list: query("signed_in", ListTriggersInput, async (ctx, input): Promise<Page<TriggerView>> => {
    const { project } = await requireProject(ctx, input.id, "admin_build");
    const page = pageOfAll(await ctx.runtime.stores.ciTriggers.list(project.id), pageRequest(input));
    return mapPage(page, (trigger) => viewOf(ctx, trigger));
  }),

  /** One trigger by its token. */
  get: query("signed_in", TriggerRefInput, async (ctx, input) =>
    viewOf(ctx, await requireTrigger(ctx, input)),
  ),

  /** Makes a trigger with a new token of 30 hex digits, as 8.x's `SecureRandom.hex(15)`. */
  create: mutation("signed_in", CreateTriggerInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_build");
    const token = randomBytes(15).toString("hex");
    const trigger = await ctx.runtime.stores.ciTriggers.create(
      project.id,
      tokenDigest(token),
      ctx.runtime.secrets.seal(token),
    );
    return viewOf(ctx, trigger);
  }),

  /** Deletes a trigger: its token no longer triggers; it answers with `deleted_at` set. */
  remove: mutation("signed_in", TriggerRefInput, async (ctx, input) => {
    const trigger = await requireTrigger(ctx, input);
    const deleted = await ctx.runtime.stores.ciTriggers.delete(trigger.id);
    if (!deleted) throw notFound("trigger");
    return viewOf(ctx, deleted);
  }),

  /**
   * Makes a pipeline for the head of a branch or tag with the trigger's token: its builds see
   * `CI_BUILD_TRIGGERED` and the variables given, and jobs with `only: [triggers]` run. As in 8.x
   * the project is found without a user: an unknown project or token is 404, the token of another
   * project 401, and no pipeline made (no such ref, no `.gitlab-ci.yml`, no job for the ref, builds
   * disabled) `400 No builds created`. The trigger counts as used even then, as 8.x records the
   * request first.
   */
  trigger: mutation("anyone", TriggerBuildsInput, async (ctx, input): Promise<TriggerRequestView> => {
    const project = await findProject(ctx.runtime.stores, input.id);
    const trigger = await ctx.runtime.stores.ciTriggers.findByDigest(tokenDigest(input.token));
    if (!project || !trigger) throw notFound();
    if (trigger.project_id !== project.id) throw unauthenticated();
    const variables = variablesOf(input.variables);
    await ctx.runtime.stores.ciTriggers.touch(trigger.id);
    if (!project.builds_enabled) throw badRequest({ reason: "trigger_no_builds" });
    const outcome = await createPipelineForRef(ctx.runtime, {
      project,
      ref: input.ref,
      userId: null,
      source: "trigger",
      triggerVariables: Object.entries(variables ?? {}).map(([key, value]) => ({ key, value })),
    });
    if ("refused" in outcome) throw badRequest({ reason: "trigger_no_builds" });
    return { id: outcome.pipeline.id, variables };
  }),
};
