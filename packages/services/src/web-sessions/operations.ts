import { notFound } from "@kiln/domain";
import { Id, NoInput } from "@kiln/schemas";
import { z } from "zod";
import { mutation, query } from "../operation.js";
import { webSessionLifetimeMs } from "./sessions.js";

/** The signed-in user's web sessions: listed, ended one by one, or all at once. */
export const webSessions = {
  /** The caller's sessions that still work, the latest used first. */
  listMine: query("signed_in", NoInput, async (ctx) => {
    const lifetime = await webSessionLifetimeMs(ctx.runtime);
    const since = lifetime === null ? new Date(0) : new Date(Date.now() - lifetime);
    return ctx.runtime.stores.webSessions.listForUser(ctx.actor.user.id, since.toISOString());
  }),

  /** Ends one of the caller's sessions (signs that browser out). */
  endMine: mutation("signed_in", z.object({ id: Id }), async (ctx, input) => {
    if (!(await ctx.runtime.stores.webSessions.delete(ctx.actor.user.id, input.id))) throw notFound();
    return true;
  }),

  /** Ends every session of the caller ("sign out everywhere"); answers how many ended. */
  endAllMine: mutation("signed_in", NoInput, (ctx) =>
    ctx.runtime.stores.webSessions.deleteForUser(ctx.actor.user.id),
  ),
};
