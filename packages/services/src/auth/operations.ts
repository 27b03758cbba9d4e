import { z } from "zod";
import { query } from "../operation.js";
import { applySudo, identifyToken } from "./identify.js";

/** Resolving credentials into an actor. */
export const auth = {
  /** The active user a private token or personal access token belongs to, or null. */
  identify: query("anyone", z.object({ token: z.string() }), (ctx, input) =>
    identifyToken(ctx.runtime, input.token),
  ),

  /** The actor an administrator becomes with `sudo` (a user id or username). */
  sudo: query("signed_in", z.object({ target: z.string() }), (ctx, input) =>
    applySudo(ctx.runtime, ctx.actor, input.target),
  ),
};
