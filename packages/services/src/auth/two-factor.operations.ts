import { badRequest, conflict, hasTwoFactor, invalid, notFound, type User } from "@kiln/domain";
import { ConfirmTwoFactorInput, CurrentPasswordInput, NoInput, TwoFactorUserInput } from "@kiln/schemas";
import QRCode from "qrcode";
import type { Context } from "../context.js";
import { mutation, query, type SignedInContext } from "../operation.js";
import { matchingStep, newTotpSecret, otpauthUri } from "../security/totp.js";
import { passwordMatches } from "./password.js";
import { accountKey } from "./sign-in.js";
import { replaceRecoveryCodes, twoFactorRequirement } from "./two-factor.js";

/** A QR code of `text` as an SVG data URI, for an `<img>`. */
async function qrDataUri(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/** The issuer authenticator apps show beside the code: this server's host. */
const issuerOf = (ctx: Context): string => new URL(ctx.runtime.baseUrl).host;

/**
 * Asks the signed-in user for their password again before a change to their second factor. A
 * wrong one counts as a failed sign-in of the account, so a stolen session cannot guess it freely.
 */
async function confirmPassword(ctx: SignedInContext, password: string): Promise<void> {
  const { user } = ctx.actor;
  const throttle = ctx.runtime.signInThrottle;
  const account = accountKey(user, user.username);
  throttle.checkAccount(account);
  if (!(await passwordMatches(ctx.runtime, user, password))) {
    throttle.recordFailure(account);
    throw invalid({ password: ["is invalid"] });
  }
}

/** The signed-in user as stored now (the actor's copy may predate a change of their 2FA). */
async function currentUser(ctx: SignedInContext): Promise<User> {
  return (await ctx.runtime.stores.users.findById(ctx.actor.user.id)) ?? ctx.actor.user;
}

/** Turns a user's two-factor authentication off (their secrets and recovery codes are forgotten). */
async function disableFor(ctx: Context, user: User): Promise<true> {
  await ctx.runtime.stores.transaction((tx) => tx.twoFactor.disable(user.id));
  ctx.runtime.userChanged(user.id);
  return true;
}

/**
 * Two-factor authentication of the signed-in user (TOTP with an authenticator app, and recovery
 * codes): enrolment in two steps (`begin` shows a new secret, `confirm` puts it in force with a
 * code from it), turning it off and new recovery codes, both with the password. Administrators
 * may turn it off for anyone who lost their device and codes.
 */
export const twoFactor = {
  /** Whether the user has two-factor authentication, and where they stand with the requirement. */
  status: query("signed_in", NoInput, async (ctx) => {
    const user = await currentUser(ctx);
    const recoveryCodesLeft = await ctx.runtime.stores.twoFactor.recoveryCodesLeft(user.id);
    return {
      enabled: hasTwoFactor(user),
      recoveryCodesLeft,
      ...(await twoFactorRequirement(ctx.runtime, user)),
    };
  }),

  /**
   * A new secret for the user's authenticator app, as text, `otpauth://` URI and QR code. It is
   * kept sealed as pending and not in force until confirmed; beginning again replaces it.
   */
  begin: mutation("signed_in", NoInput, async (ctx) => {
    const user = await currentUser(ctx);
    if (hasTwoFactor(user)) throw conflict({ reason: "two_factor_already_enabled" });
    const secret = newTotpSecret();
    await ctx.runtime.stores.twoFactor.setPendingSecret(user.id, ctx.runtime.secrets.seal(secret));
    const uri = otpauthUri(issuerOf(ctx), user.email, secret);
    return { secret, otpauthUri: uri, qrDataUri: await qrDataUri(uri) };
  }),

  /** Puts the pending secret in force with a current code from it; answers ten recovery codes, shown once. */
  confirm: mutation("signed_in", ConfirmTwoFactorInput, async (ctx, input) => {
    const user = await currentUser(ctx);
    const { runtime } = ctx;
    if (hasTwoFactor(user)) throw conflict({ reason: "two_factor_already_enabled" });
    const sealed = (await runtime.stores.twoFactor.find(user.id))?.pendingSecretSealed;
    if (!sealed) throw badRequest({ reason: "two_factor_not_begun" });
    const step = matchingStep(runtime.secrets.open(sealed), input.code, Date.now());
    if (step === null) throw invalid({ code: ["is invalid"] });
    const recoveryCodes = await runtime.stores.transaction(async (tx) => {
      // Another `begin` may have replaced the secret meanwhile: the code is then not from it.
      if (!(await tx.twoFactor.enable(user.id, sealed, step))) throw invalid({ code: ["is invalid"] });
      return replaceRecoveryCodes(tx, user.id);
    });
    runtime.userChanged(user.id);
    return { recoveryCodes };
  }),

  /** Turns the user's two-factor authentication off, with their password. */
  disable: mutation("signed_in", CurrentPasswordInput, async (ctx, input) => {
    await confirmPassword(ctx, input.password);
    return disableFor(ctx, ctx.actor.user);
  }),

  /** Ten new recovery codes in place of the old ones, with the password; shown once. */
  regenerateRecoveryCodes: mutation("signed_in", CurrentPasswordInput, async (ctx, input) => {
    await confirmPassword(ctx, input.password);
    const user = await currentUser(ctx);
    if (!hasTwoFactor(user)) throw badRequest({ reason: "two_factor_not_enabled" });
    const recoveryCodes = await ctx.runtime.stores.transaction((tx) => replaceRecoveryCodes(tx, user.id));
    return { recoveryCodes };
  }),

  /**
   * Turns another user's two-factor authentication off, for one who lost their device and their
   * recovery codes (administrators, as in GitLab's admin area, and the `kiln` CLI). Refuses a user
   * without it (`two_factor_not_enabled`). Their web sessions and tokens are left alone, as
   * GitLab's "Disable 2FA" leaves them: the second factor guards signing in, not what was signed
   * in with it.
   */
  disableForUser: mutation("admin", TwoFactorUserInput, async (ctx, input) => {
    const { users } = ctx.runtime.stores;
    const user =
      "user_id" in input ? await users.findById(input.user_id) : await users.findByUsername(input.username);
    if (!user) throw notFound("user");
    if (!hasTwoFactor(user)) throw badRequest({ reason: "two_factor_not_enabled" });
    return disableFor(ctx, user);
  }),
};
