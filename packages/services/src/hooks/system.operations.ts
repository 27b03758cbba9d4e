import { DEFAULT_SYSTEM_HOOK_FLAGS, notFound } from "@kiln/domain";
import { AddSystemHookInput, ListSystemHooksInput, SystemHookRefInput } from "@kiln/schemas";
import { mutation, query } from "../operation.js";
import { checkedUrl, sealedToken } from "./hook-input.js";
import { queueDeliveries } from "./subscriber.js";

/** The sample payload GitLab 8.x's `GET /hooks/:id` sends and answers. */
const SAMPLE_SYSTEM_PAYLOAD = {
  event_name: "project_create",
  name: "Ruby",
  path: "ruby",
  project_id: 1,
  owner_name: "Someone",
  owner_email: "example@gitlabhq.com",
} as const;

/**
 * System hooks, administrators only: instance-wide hooks that hear of every system event (project,
 * user, key, group and membership changes) and of pushes and tag pushes when subscribed, through
 * the same deliveries, address guard and log as project hooks.
 */
export const systemHooks = {
  /** Every system hook, oldest first. */
  list: query("admin", ListSystemHooksInput, (ctx) => ctx.runtime.stores.systemHooks.list()),

  /** Adds a system hook: pushes (not tag pushes) and certificates verified unless said otherwise. */
  add: mutation("admin", AddSystemHookInput, async (ctx, input) => {
    const url = await checkedUrl(ctx, input.url);
    return ctx.runtime.stores.systemHooks.create({
      url,
      tokenSealed: sealedToken(ctx, input.token) ?? null,
      push_events: input.push_events ?? DEFAULT_SYSTEM_HOOK_FLAGS.push_events,
      tag_push_events: input.tag_push_events ?? DEFAULT_SYSTEM_HOOK_FLAGS.tag_push_events,
      enable_ssl_verification:
        input.enable_ssl_verification ?? DEFAULT_SYSTEM_HOOK_FLAGS.enable_ssl_verification,
    });
  }),

  /** Queues GitLab's sample `project_create` event to the hook (`GET /hooks/:id`), and answers the sample. */
  test: mutation("admin", SystemHookRefInput, async (ctx, input) => {
    const hook = await ctx.runtime.stores.systemHooks.find(input.id);
    if (!hook) throw notFound("system_hook");
    const message = { eventName: "System Hook", flag: null, payload: SAMPLE_SYSTEM_PAYLOAD };
    await queueDeliveries(ctx.runtime, null, [{ scope: "system", id: hook.id, projectId: null }], message);
    return SAMPLE_SYSTEM_PAYLOAD;
  }),

  /** Deletes a system hook and answers it; `404 System hook Not Found` when there is none. */
  remove: mutation("admin", SystemHookRefInput, async (ctx, input) => {
    const hook = await ctx.runtime.stores.systemHooks.delete(input.id);
    if (!hook) throw notFound("system_hook");
    return hook;
  }),
};
