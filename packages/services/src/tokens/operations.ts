import { forbidden, invalid, notFound, unauthenticated } from "@kiln/domain";
import { Id, NoInput, ShortText, TokenScopes } from "@kiln/schemas";
import { z } from "zod";
import type { Context } from "../context.js";
import { mutation, query } from "../operation.js";
import { generateToken, tokenDigest } from "../security/tokens.js";

const CreateTokenInput = z.object({
  /** The user the token acts as; defaults to the caller. */
  user_id: Id.optional(),
  /** Alternatively, the user's username. */
  username: z.string().optional(),
  name: ShortText.min(1, { error: "can't be blank" }),
  /** `YYYY-MM-DD`; the token stops working at the start of that day (UTC). */
  expires_at: z.iso.date().optional(),
  /** What the token may do: `api` (default) and/or `read_user`. */
  scopes: TokenScopes.optional(),
});

/** Whose tokens the caller may manage: their own, or anyone's for administrators and the CLI. */
function ownerFor(ctx: Context, requested: number | undefined): number {
  const self = ctx.actor?.user.id;
  const admin = ctx.system || Boolean(ctx.actor?.user.is_admin);
  const target = requested ?? self;
  if (target === undefined) throw notFound("user");
  if (target !== self && !admin) throw forbidden();
  return target;
}

/** Personal access tokens: minted, listed and revoked. The token is shown once, when minted. */
export const tokens = {
  createPersonal: mutation("anyone", CreateTokenInput, async (ctx, input) => {
    if (!ctx.system && !ctx.actor) throw unauthenticated();
    const named =
      input.username === undefined
        ? undefined
        : await ctx.runtime.stores.users.findByUsername(input.username);
    if (input.username !== undefined && !named) throw notFound("user");
    const userId = ownerFor(ctx, named?.id ?? input.user_id);
    if (!(await ctx.runtime.stores.users.findById(userId))) throw notFound("user");
    if (input.expires_at && Date.parse(input.expires_at) <= Date.now()) {
      throw invalid({ expires_at: ["must be in the future"] });
    }
    const token = generateToken();
    const record = await ctx.runtime.stores.personalAccessTokens.create({
      user_id: userId,
      name: input.name,
      token_digest: tokenDigest(token),
      expires_at: input.expires_at ? new Date(input.expires_at).toISOString() : null,
      scopes: input.scopes ?? ["api"],
    });
    return { ...record, token };
  }),

  listPersonal: query("signed_in", NoInput, (ctx) =>
    ctx.runtime.stores.personalAccessTokens.listForUser(ctx.actor.user.id),
  ),

  revokePersonal: mutation("signed_in", z.object({ id: Id }), async (ctx, input) => {
    const userId = ctx.actor.user.id;
    if (!(await ctx.runtime.stores.personalAccessTokens.revoke(userId, input.id))) throw notFound("token");
    ctx.runtime.userChanged(userId);
    return true;
  }),
};
