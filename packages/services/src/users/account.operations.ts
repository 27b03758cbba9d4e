import { badRequest, invalid } from "@kiln/domain";
import { ChangeOwnPasswordInput, NoInput, UpdateOwnProfileInput } from "@kiln/schemas";
import { mutation, query } from "../operation.js";
import { generateToken, tokenDigest } from "../security/tokens.js";
import { patchUser } from "./accounts.js";
import { privateTokenOf } from "./private-token.js";

/** What signed-in users change of their own account: name and email, password, private token. */
export const account = {
  /** Changes the caller's name or email, validated as an administrator's `PUT /users/:id`. */
  updateProfile: mutation("signed_in", UpdateOwnProfileInput, (ctx, input) => {
    if (input.name === undefined && input.email === undefined) throw badRequest({ reason: "no_attributes" });
    return patchUser(ctx, ctx.actor.user.id, { name: input.name, email: input.email });
  }),

  /**
   * Changes the caller's password, given the current one. Every web session of the user ends (a
   * browser that changed it signs in again at once, with a new session).
   */
  changePassword: mutation("signed_in", ChangeOwnPasswordInput, async (ctx, input) => {
    const { runtime } = ctx;
    const userId = ctx.actor.user.id;
    const hash = await runtime.stores.users.passwordHash(userId);
    if (!hash || !(await runtime.passwords.verify(hash, input.current_password))) {
      throw invalid({ current_password: ["is invalid"] });
    }
    if (input.password !== input.password_confirmation) {
      throw invalid({ password_confirmation: ["doesn't match Password"] });
    }
    const passwordHash = await runtime.passwords.hash(input.password);
    await runtime.stores.transaction(async (tx) => {
      await tx.users.update(userId, { password_hash: passwordHash });
      await tx.webSessions.deleteForUser(userId);
    });
    runtime.userChanged(userId);
    return true;
  }),

  /** The caller's private token (the account page shows it). */
  privateToken: query("signed_in", NoInput, (ctx) => privateTokenOf(ctx, ctx.actor.user.id)),

  /** Gives the caller a new private token, answered once here; the old one stops working at once. */
  resetPrivateToken: mutation("signed_in", NoInput, async (ctx) => {
    const { runtime } = ctx;
    const token = generateToken();
    await runtime.stores.users.replacePrivateToken(ctx.actor.user.id, {
      digest: tokenDigest(token),
      sealed: runtime.secrets.seal(token),
    });
    runtime.userChanged(ctx.actor.user.id);
    return token;
  }),
};
