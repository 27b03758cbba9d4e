import { AUTHORIZATION_CODE_MS, DomainError, notFound, type OAuthApplication, scopeList } from "@kiln/domain";
import { Id, NoInput, OAuthAuthorizeInput } from "@kiln/schemas";
import { z } from "zod";
import type { Context } from "../context.js";
import { mutation, query } from "../operation.js";
import { generateToken, tokenDigest } from "../security/tokens.js";
import { redirectUriMatches } from "./redirect-uri.js";

/** What the consent page shows, or where the browser goes back to with an error. */
export type PreAuthorization =
  | {
      kind: "consent";
      application: Pick<OAuthApplication, "id" | "name" | "uid">;
      scopes: string[];
      redirectUri: string;
      state: string | null;
    }
  | { kind: "redirect"; redirectTo: string };

/** `redirect_uri` with `params` added to its query (state last, when there is one). */
function redirectWith(
  redirectUri: string,
  params: Record<string, string>,
  state: string | undefined,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  if (state !== undefined) url.searchParams.append("state", state);
  return url.href;
}

/** The PKCE method of a request, "none" when it sends no challenge, or null when it is not one we know. */
function challengeMethod(input: OAuthAuthorizeInput): "S256" | "plain" | "none" | null {
  if (input.code_challenge === undefined || input.code_challenge === "") {
    return input.code_challenge_method === undefined ? "none" : null;
  }
  const method = input.code_challenge_method ?? "plain";
  return method === "S256" || method === "plain" ? method : null;
}

/**
 * Checks an authorization request (RFC 6749 §4.1.1, RFC 7636): an unknown client or a redirect URI
 * the application did not register is an error shown to the user (thrown, never redirected); any
 * other problem is told to the client through its redirect URI.
 */
async function preAuthorize(ctx: Context, input: OAuthAuthorizeInput): Promise<PreAuthorization> {
  const application = await ctx.runtime.stores.oauthApplications.findClient(input.client_id);
  if (!application) throw new DomainError({ kind: "bad_request", reason: "oauth_invalid_client" });
  if (!redirectUriMatches(application.redirect_uri, input.redirect_uri)) {
    throw new DomainError({ kind: "bad_request", reason: "oauth_invalid_redirect_uri" });
  }
  const refuse = (error: string, description: string): PreAuthorization => ({
    kind: "redirect",
    redirectTo: redirectWith(input.redirect_uri, { error, error_description: description }, input.state),
  });
  if (input.response_type !== "code")
    return refuse("unsupported_response_type", "Only response_type=code is supported.");
  if (challengeMethod(input) === null)
    return refuse("invalid_request", "code_challenge_method must be S256 or plain.");
  const allowed = scopeList(application.scopes);
  const scopes = input.scope === undefined || input.scope.trim() === "" ? allowed : scopeList(input.scope);
  if (!scopes.every((scope) => allowed.includes(scope))) {
    return refuse("invalid_scope", "The requested scope is invalid, unknown, or malformed.");
  }
  return {
    kind: "consent",
    application: { id: application.id, name: application.name, uid: application.uid },
    scopes,
    redirectUri: input.redirect_uri,
    state: input.state ?? null,
  };
}

/**
 * The authorize step of OAuth 2.0's authorization-code flow, as the consent page runs it: check the
 * request, then the signed-in user approves (a code for 10 minutes, bound to the redirect URI and
 * the PKCE challenge) or denies (`access_denied`), each answered with where to send the browser.
 */
export const oauth = {
  preAuthorize: query("anyone", OAuthAuthorizeInput, preAuthorize),

  approve: mutation("signed_in", OAuthAuthorizeInput, async (ctx, input) => {
    const checked = await preAuthorize(ctx, input);
    if (checked.kind === "redirect") return { redirectTo: checked.redirectTo };
    const code = generateToken(40);
    const method = challengeMethod(input);
    await ctx.runtime.stores.oauthGrants.create({
      application_id: checked.application.id,
      resource_owner_id: ctx.actor.user.id,
      code_digest: tokenDigest(code),
      redirect_uri: checked.redirectUri,
      scopes: checked.scopes.join(" "),
      code_challenge: method === "S256" || method === "plain" ? (input.code_challenge ?? null) : null,
      code_challenge_method: method === "S256" || method === "plain" ? method : null,
      expires_at: new Date(Date.now() + AUTHORIZATION_CODE_MS).toISOString(),
    });
    return { redirectTo: redirectWith(checked.redirectUri, { code }, input.state) };
  }),

  deny: mutation("signed_in", OAuthAuthorizeInput, async (ctx, input) => {
    const checked = await preAuthorize(ctx, input);
    if (checked.kind === "redirect") return { redirectTo: checked.redirectTo };
    const description = "The resource owner or authorization server denied the request.";
    return {
      redirectTo: redirectWith(
        checked.redirectUri,
        { error: "access_denied", error_description: description },
        input.state,
      ),
    };
  }),
};

/** An application the user authorised, with the scopes and date of its first live token. */
export interface OAuthAuthorization {
  application: Pick<OAuthApplication, "id" | "name" | "uid">;
  scopes: string[];
  created_at: string;
}

/** The applications a user authorised (with live tokens), and revoking them. */
export const oauthAuthorizations = {
  listOwn: query("signed_in", NoInput, async (ctx): Promise<OAuthAuthorization[]> => {
    const { stores } = ctx.runtime;
    const byApplication = new Map<number, OAuthAuthorization>();
    for (const token of await stores.oauthTokens.listAuthorized(ctx.actor.user.id)) {
      const id = token.application_id as number;
      const known = byApplication.get(id);
      if (known) {
        known.scopes = [...new Set([...known.scopes, ...scopeList(token.scopes)])];
        continue;
      }
      const application = await stores.oauthApplications.findById(id);
      if (!application) continue;
      const { name, uid } = application;
      byApplication.set(id, {
        application: { id, name, uid },
        scopes: scopeList(token.scopes),
        created_at: token.created_at,
      });
    }
    return [...byApplication.values()];
  }),

  /** Revokes every token the caller granted to an application. */
  revokeOwn: mutation("signed_in", z.object({ application_id: Id }), async (ctx, input) => {
    const userId = ctx.actor.user.id;
    const revoked = await ctx.runtime.stores.oauthTokens.revokeAll({
      applicationId: input.application_id,
      userId,
    });
    if (revoked.length === 0) throw notFound();
    ctx.runtime.userChanged(userId);
    return true;
  }),
};
