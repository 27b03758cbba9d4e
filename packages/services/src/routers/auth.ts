import { z } from "zod";
import { applySudo, identifyToken } from "../auth/identify.js";
import { authedProcedure, publicProcedure, router } from "../trpc.js";

/** Resolving credentials into an actor. */
export const authRouter = router({
  /** The active user a private token or personal access token belongs to, or null. */
  identify: publicProcedure
    .input(z.object({ token: z.string() }))
    .query(({ ctx, input }) => identifyToken(ctx.runtime, input.token)),

  /** The actor an administrator becomes with `sudo` (a user id or username). */
  sudo: authedProcedure
    .input(z.object({ target: z.string() }))
    .query(({ ctx, input }) => applySudo(ctx.runtime, ctx.actor, input.target)),
});
