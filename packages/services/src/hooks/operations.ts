import { DEFAULT_HOOK_FLAGS, HOOK_FLAGS, type HookFlags, notFound, pageRequest } from "@kiln/domain";
import {
  AddHookInput,
  EditHookInput,
  HookRefInput,
  ListHookDeliveriesInput,
  ListHooksInput,
} from "@kiln/schemas";
import { mutation, query } from "../operation.js";
import { requireProject } from "../projects/access.js";
import { checkedUrl, sealedToken } from "./hook-input.js";
import { queueTestPush } from "./test-delivery.js";

/** The flags a request sets (`wiki_events` is GitLab 8.x's parameter name for `wiki_page_events`). */
function requestedFlags(input: AddHookInput): Partial<HookFlags> {
  const flags: Partial<HookFlags> = {};
  for (const name of HOOK_FLAGS) {
    const value = input[name];
    if (value !== undefined) flags[name] = value;
  }
  if (flags.wiki_page_events === undefined && input.wiki_events !== undefined) {
    flags.wiki_page_events = input.wiki_events;
  }
  return flags;
}

/**
 * A project's webhooks, managed by masters and above (`admin_hooks`): others who may read the
 * project get 403, those who may not get 404. URLs are checked when a hook is added or edited;
 * deliveries check the addresses they connect to again.
 */
export const projectHooks = {
  /** The project's hooks, oldest first. */
  list: query("signed_in", ListHooksInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_hooks");
    return ctx.runtime.stores.hooks.listForProject(project.id, pageRequest(input));
  }),

  /** One hook: `404 Hook Not Found` when the project has no such hook. */
  get: query("signed_in", HookRefInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_hooks");
    const hook = await ctx.runtime.stores.hooks.find(project.id, input.hook_id);
    if (!hook) throw notFound("hook");
    return hook;
  }),

  /** Adds a hook: pushes only and certificates verified, unless the request says otherwise. */
  add: mutation("signed_in", AddHookInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_hooks");
    const url = await checkedUrl(ctx, input.url);
    return ctx.runtime.stores.hooks.create(project.id, {
      ...DEFAULT_HOOK_FLAGS,
      ...requestedFlags(input),
      url,
      tokenSealed: sealedToken(ctx, input.token) ?? null,
    });
  }),

  /** Changes a hook: a new URL (required), and the flags and token the request names. */
  edit: mutation("signed_in", EditHookInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_hooks");
    const { hooks } = ctx.runtime.stores;
    if (!(await hooks.find(project.id, input.hook_id))) throw notFound("hook");
    const url = await checkedUrl(ctx, input.url);
    const updated = await hooks.update(project.id, input.hook_id, {
      ...requestedFlags(input),
      url,
      tokenSealed: sealedToken(ctx, input.token),
    });
    if (!updated) throw notFound("hook");
    return updated;
  }),

  /** The hook's delivery log, newest first: what was sent and how its last attempt went. */
  deliveries: query("signed_in", ListHookDeliveriesInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_hooks");
    if (!(await ctx.runtime.stores.hooks.find(project.id, input.hook_id))) throw notFound("hook");
    return ctx.runtime.stores.deliveries.listForHook("project", input.hook_id, pageRequest(input));
  }),

  /**
   * Queues a push of the default branch's last commit to the hook (GitLab's "Test hook"), sent
   * like any delivery and logged; answers the delivery, pending.
   */
  test: mutation("signed_in", HookRefInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_hooks");
    const hook = await ctx.runtime.stores.hooks.find(project.id, input.hook_id);
    if (!hook) throw notFound("hook");
    const target = { scope: "project" as const, id: hook.id, projectId: project.id };
    return queueTestPush(ctx.runtime, target, project.default_branch, ctx.actor.user);
  }),

  /** Deletes a hook; idempotent: the hook if it existed, else null. */
  remove: mutation("signed_in", HookRefInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_hooks");
    return (await ctx.runtime.stores.hooks.delete(project.id, input.hook_id)) ?? null;
  }),
};
