import { forbidden, invalid, notFound, type OAuthApplication } from "@kiln/domain";
import { CreateOAuthApplicationInput, NoInput, OAuthApplicationIdInput } from "@kiln/schemas";
import type { Context } from "../context.js";
import { mutation, query, type SignedInContext } from "../operation.js";
import { generateToken, tokenDigest } from "../security/tokens.js";
import { redirectUriProblem, redirectUris } from "./redirect-uri.js";

/** An application as its owner (or an administrator) sees it just after minting its secret. */
export interface OAuthApplicationWithSecret {
  application: OAuthApplication;
  /** Shown this once; only its digest is kept. */
  secret: string;
}

/** Refuses redirect URIs an application may not register (see `redirectUriProblem`). */
function checkRedirectUris(redirectUri: string): string {
  const uris = redirectUris(redirectUri);
  if (uris.length === 0) throw invalid({ redirect_uri: ["can't be blank"] });
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== null) throw invalid({ redirect_uri: [problem] });
  }
  return uris.join("\n");
}

async function register(
  ctx: Context,
  ownerId: number | null,
  input: CreateOAuthApplicationInput,
): Promise<OAuthApplicationWithSecret> {
  const secret = generateToken(40);
  const application = await ctx.runtime.stores.oauthApplications.create({
    owner_id: ownerId,
    name: input.name,
    uid: generateToken(40),
    secret_digest: tokenDigest(secret),
    redirect_uri: checkRedirectUris(input.redirect_uri),
    scopes: (input.scopes ?? ["api"]).join(" "),
  });
  return { application, secret };
}

/** Revokes an application's tokens (forgetting them at once), then deletes it. */
async function unregister(ctx: Context, application: OAuthApplication): Promise<void> {
  const { runtime } = ctx;
  const users = await runtime.stores.transaction(async (tx) => {
    const revoked = await tx.oauthTokens.revokeAll({ applicationId: application.id });
    await tx.oauthApplications.delete(application.id);
    return revoked;
  });
  for (const userId of users) runtime.userChanged(userId);
}

/** The caller's own application, or 404 (another user's is not found either). */
async function ownApplication(ctx: SignedInContext, id: number): Promise<OAuthApplication> {
  const application = await ctx.runtime.stores.oauthApplications.findById(id);
  if (!application || application.owner_id !== ctx.actor.user.id) throw notFound();
  return application;
}

/**
 * OAuth 2.0 applications: a user's own (the profile page), and every one for administrators
 * (`/applications` of the API, whose applications belong to no user). A secret is shown once,
 * when minted.
 */
export const oauthApplications = {
  listOwn: query("signed_in", NoInput, (ctx) => ctx.runtime.stores.oauthApplications.list(ctx.actor.user.id)),

  /** Registers an application of the caller; refused when `user_oauth_applications` is off (admins excepted). */
  createOwn: mutation("signed_in", CreateOAuthApplicationInput, async (ctx, input) => {
    const settings = await ctx.runtime.settings();
    if (!settings.user_oauth_applications && !ctx.actor.user.is_admin) {
      throw forbidden({ reason: "oauth_applications_disabled" });
    }
    return register(ctx, ctx.actor.user.id, input);
  }),

  /** Mints a new secret for one of the caller's applications; the old one stops working. */
  resetSecretOwn: mutation("signed_in", OAuthApplicationIdInput, async (ctx, input) => {
    const application = await ownApplication(ctx, input.id);
    const secret = generateToken(40);
    await ctx.runtime.stores.oauthApplications.replaceSecret(application.id, tokenDigest(secret));
    return { application, secret } satisfies OAuthApplicationWithSecret;
  }),

  /** Deletes one of the caller's applications and revokes every token it was given. */
  deleteOwn: mutation("signed_in", OAuthApplicationIdInput, async (ctx, input) => {
    await unregister(ctx, await ownApplication(ctx, input.id));
    return true;
  }),

  /** Every application (`GET /applications`, administrators). */
  list: query("admin", NoInput, (ctx) => ctx.runtime.stores.oauthApplications.list(null)),

  /** An application of no user (`POST /applications`, administrators). */
  create: mutation("admin", CreateOAuthApplicationInput, (ctx, input) => register(ctx, null, input)),

  /** Deletes any application and revokes its tokens (`DELETE /applications/:id`, administrators). */
  remove: mutation("admin", OAuthApplicationIdInput, async (ctx, input) => {
    const application = await ctx.runtime.stores.oauthApplications.findById(input.id);
    if (!application) throw notFound();
    await unregister(ctx, application);
    return application;
  }),
};
