import { notFound } from "@kiln/domain";
import type { Context } from "../context.js";

/** The private token of a user, unsealed. */
export async function privateTokenOf(ctx: Context, userId: number): Promise<string> {
  const sealed = await ctx.runtime.stores.users.sealedPrivateToken(userId);
  if (!sealed) throw notFound("user");
  return ctx.runtime.secrets.open(sealed);
}
