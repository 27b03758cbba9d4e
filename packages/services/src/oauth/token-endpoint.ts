import { createHash } from "node:crypto";
import {
  DomainError,
  isActive,
  type OAuthAccessToken,
  type OAuthApplication,
  type OAuthGrant,
  scopeList,
  TOKEN_SCOPES,
} from "@kiln/domain";
import { signInWithPassword } from "../auth/sign-in.js";
import type { ServiceRuntime } from "../runtime.js";
import { constantTimeEqual, tokenDigest } from "../security/tokens.js";
import { type IssuedToken, issueToken } from "./grants.js";
import { accessTokenExpiry } from "./identify.js";

/** The error codes of RFC 6749 §5.2 the token endpoint answers with. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unsupported_grant_type"
  | "invalid_scope";

/**
 * A refusal of the token endpoint: RFC 6749's error code and a description for people. With
 * `retryAfterSeconds` it is the sign-in throttle's: answered `429 Too Many Requests` and `Retry-After`.
 */
export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${code}: ${description}`);
  }
}

/** The client's id and secret as the request sent them (HTTP Basic, or the body's `client_id`, `client_secret`). */
export interface ClientCredentials {
  id: string;
  secret: string | undefined;
}

/** The parameters of a token endpoint request (form or JSON), as sent. */
export type TokenParams = Record<string, unknown>;

type Client = { application: OAuthApplication; authenticated: boolean };

/** A string parameter, or undefined; any other value is a malformed request. */
function param(params: TokenParams, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || typeof value === "string") return value;
  throw new OAuthError("invalid_request", `The parameter ${name} is malformed.`);
}

function required(params: TokenParams, name: string): string {
  const value = param(params, name);
  if (value === undefined || value === "")
    throw new OAuthError("invalid_request", `Missing required parameter: ${name}.`);
  return value;
}

/** The client credentials of a request: HTTP Basic's when sent, else the body's. */
export function clientOf(params: TokenParams, basic: ClientCredentials | null): ClientCredentials | null {
  if (basic) return basic;
  const id = param(params, "client_id");
  return id === undefined ? null : { id, secret: param(params, "client_secret") };
}

const badClient = () =>
  new OAuthError("invalid_client", "Client authentication failed due to unknown client or wrong secret.");
const badGrant = (why: string) => new OAuthError("invalid_grant", why);
const INVALID_GRANT =
  "The provided authorization grant is invalid, expired, revoked, or was issued to another client.";

/** The application the credentials name; a wrong secret or unknown client is `invalid_client`. */
async function authenticateClient(
  runtime: ServiceRuntime,
  credentials: ClientCredentials | null,
): Promise<Client | null> {
  if (!credentials) return null;
  const found = await runtime.stores.oauthApplications.findClient(credentials.id);
  if (!found) throw badClient();
  const { secret_digest, ...application } = found;
  if (credentials.secret === undefined) return { application, authenticated: false };
  if (!constantTimeEqual(tokenDigest(credentials.secret), secret_digest)) throw badClient();
  return { application, authenticated: true };
}

/** The scopes asked for, which must all be among `allowed`; none asked for means `fallback`. */
function requestedScopes(
  params: TokenParams,
  allowed: readonly string[],
  fallback: readonly string[],
): string {
  const asked = scopeList(param(params, "scope") ?? "");
  const scopes = asked.length === 0 ? fallback : asked;
  if (!scopes.every((scope) => allowed.includes(scope))) {
    throw new OAuthError("invalid_scope", "The requested scope is invalid, unknown, or malformed.");
  }
  return scopes.join(" ");
}

/** Forgets the cached identities of users whose tokens were revoked. */
function forget(runtime: ServiceRuntime, users: readonly number[]): void {
  for (const userId of users) runtime.userChanged(userId);
}

/** RFC 7636 §4.6: the verifier matches the challenge by its method. */
function verifierMatches(grant: OAuthGrant, verifier: string): boolean {
  const computed =
    grant.code_challenge_method === "S256"
      ? createHash("sha256").update(verifier).digest("base64url")
      : verifier;
  return constantTimeEqual(computed, grant.code_challenge ?? "");
}

/**
 * The authorization-code grant: the code must be the client's, live, unused, sent with the
 * redirect URI it was issued for, and proved by the client's secret or the PKCE verifier. It is
 * redeemed once inside the transaction that issues the token; a code seen again revokes every
 * token issued from it (RFC 6749 §4.1.2).
 */
async function authorizationCodeGrant(runtime: ServiceRuntime, params: TokenParams, client: Client | null) {
  const code = required(params, "code");
  const redirectUri = required(params, "redirect_uri");
  if (!client) throw badClient();
  const grant = await runtime.stores.oauthGrants.findByCodeDigest(tokenDigest(code));
  if (!grant || grant.application_id !== client.application.id) throw badGrant(INVALID_GRANT);
  if (grant.revoked_at !== null) return refuseReplay(runtime, grant);
  if (Date.parse(grant.expires_at) <= Date.now() || grant.redirect_uri !== redirectUri)
    throw badGrant(INVALID_GRANT);
  const verifier = param(params, "code_verifier");
  if (grant.code_challenge !== null) {
    if (verifier === undefined || !verifierMatches(grant, verifier))
      throw badGrant("The code verifier does not match.");
  } else {
    if (verifier !== undefined)
      throw badGrant("A code verifier was sent for a code issued without a challenge.");
    if (!client.authenticated) throw badClient();
  }
  const issued = await runtime.stores.transaction(async (tx) => {
    if (!(await tx.oauthGrants.redeem(grant.id))) return null;
    return issueToken(tx, {
      application_id: grant.application_id,
      resource_owner_id: grant.resource_owner_id,
      grant_id: grant.id,
      scopes: grant.scopes,
    });
  });
  return issued ?? refuseReplay(runtime, grant);
}

async function refuseReplay(runtime: ServiceRuntime, grant: OAuthGrant): Promise<never> {
  forget(runtime, await runtime.stores.oauthTokens.revokeAll({ grantId: grant.id }));
  throw badGrant("The authorization code was already used; the tokens issued from it are revoked.");
}

/**
 * The password grant's refusal of a sign-in: a wrong login or password, a blocked user, password
 * sign-in turned off and (GitLab 9.0) a user with two-factor authentication are `invalid_grant`,
 * the throttle's refusal is answered 429 with its wait.
 */
function passwordGrantRefusal(error: unknown): OAuthError {
  if (!DomainError.is(error)) throw error;
  const failure = error.failure;
  if (failure.kind === "rate_limited") {
    const description = `Too many sign-in attempts; retry in ${failure.retryAfterSeconds} seconds.`;
    return new OAuthError("invalid_request", description, failure.retryAfterSeconds);
  }
  if (failure.kind === "forbidden" && "reason" in failure && failure.reason === "two_factor_enabled") {
    return badGrant(
      "You have two-factor authentication enabled: use a personal access token, or the authorization-code grant.",
    );
  }
  if (failure.kind === "unauthenticated" || failure.kind === "forbidden") return badGrant(INVALID_GRANT);
  throw error;
}

/**
 * The resource owner password grant (spec: username and password, for trusted clients), through
 * the one password sign-in: throttled per `address` and per account.
 */
async function passwordGrant(
  runtime: ServiceRuntime,
  params: TokenParams,
  client: Client | null,
  address: string,
) {
  const username = required(params, "username");
  const password = required(params, "password");
  const allowed = client ? scopeList(client.application.scopes) : TOKEN_SCOPES;
  const scopes = requestedScopes(params, allowed, allowed.includes("api") ? ["api"] : allowed);
  const { user } = await signInWithPassword(runtime, {
    login: username,
    password,
    address,
    surface: "oauth_password",
  }).catch((error: unknown) => {
    throw passwordGrantRefusal(error);
  });
  return issueToken(runtime.stores, {
    application_id: client?.application.id ?? null,
    resource_owner_id: user.id,
    grant_id: null,
    scopes,
  });
}

/**
 * The refresh-token grant: the refresh token rotates, so the old access and refresh tokens stop
 * working as the new pair is issued (one transaction; a refresh token redeemed twice fails the second time).
 */
async function refreshTokenGrant(runtime: ServiceRuntime, params: TokenParams, client: Client | null) {
  const refreshToken = required(params, "refresh_token");
  const found = await runtime.stores.oauthTokens.findByDigest(tokenDigest(refreshToken), true);
  const invalid = badGrant("The refresh token is invalid, revoked, or was issued to another client.");
  if (!found || found.revoked_at !== null) throw invalid;
  if (client && found.application_id !== client.application.id) throw invalid;
  const user = await runtime.stores.users.findById(found.resource_owner_id);
  if (!user || !isActive(user)) throw invalid;
  const scopes = requestedScopes(params, scopeList(found.scopes), scopeList(found.scopes));
  const issued = await runtime.stores.transaction(async (tx) => {
    if (!(await tx.oauthTokens.revoke(found.id))) return null;
    const { application_id, resource_owner_id, grant_id } = found;
    return issueToken(tx, { application_id, resource_owner_id, grant_id, scopes });
  });
  forget(runtime, [found.resource_owner_id]);
  if (!issued) throw invalid;
  return issued;
}

const GRANTS = {
  authorization_code: authorizationCodeGrant,
  password: passwordGrant,
  refresh_token: refreshTokenGrant,
} as const;

/**
 * `POST /oauth/token`: issues a token pair for the grant the request names, or throws an
 * {@link OAuthError} (RFC 6749 §5.2). `basic` is the client's HTTP Basic credentials, if any;
 * `address` the client's network address, for the password grant's throttle.
 */
export async function exchangeToken(
  runtime: ServiceRuntime,
  params: TokenParams,
  basic: ClientCredentials | null,
  address: string,
): Promise<IssuedToken> {
  const grantType = required(params, "grant_type");
  if (!Object.hasOwn(GRANTS, grantType)) {
    throw new OAuthError("unsupported_grant_type", "The authorization grant type is not supported.");
  }
  const client = await authenticateClient(runtime, clientOf(params, basic));
  return GRANTS[grantType as keyof typeof GRANTS](runtime, params, client, address);
}

/** The token pair an access or refresh token belongs to, or undefined. */
async function findEither(runtime: ServiceRuntime, token: string): Promise<OAuthAccessToken | undefined> {
  const digest = tokenDigest(token);
  const { oauthTokens } = runtime.stores;
  return (await oauthTokens.findByDigest(digest)) ?? (await oauthTokens.findByDigest(digest, true));
}

/**
 * `POST /oauth/revoke` (RFC 7009): revokes the pair of an access or refresh token. Unknown tokens
 * are not an error (the answer is the same, so nothing is learnt); a token of another client than
 * the one that authenticated is left alone. Wrong client credentials are `invalid_client`.
 */
export async function revokeToken(
  runtime: ServiceRuntime,
  params: TokenParams,
  basic: ClientCredentials | null,
): Promise<void> {
  const token = required(params, "token");
  const client = await authenticateClient(runtime, clientOf(params, basic));
  const found = await findEither(runtime, token);
  if (!found || (client && found.application_id !== client.application.id)) return;
  if (await runtime.stores.oauthTokens.revoke(found.id)) forget(runtime, [found.resource_owner_id]);
}

/** What `GET /oauth/token/info` tells about a live access token (Doorkeeper's shape). */
export interface TokenInfo {
  resource_owner_id: number;
  scopes: string[];
  expires_in_seconds: number;
  application: { uid: string } | null;
  /** Epoch seconds. */
  created_at: number;
}

/** The facts of a live access token, or null when it is unknown, revoked or expired. */
export async function tokenInfo(runtime: ServiceRuntime, token: string): Promise<TokenInfo | null> {
  const found = await runtime.stores.oauthTokens.findByDigest(tokenDigest(token));
  if (!found || found.revoked_at !== null) return null;
  const left = Math.floor((accessTokenExpiry(found) - Date.now()) / 1000);
  if (left <= 0) return null;
  const application =
    found.application_id === null
      ? undefined
      : await runtime.stores.oauthApplications.findById(found.application_id);
  return {
    resource_owner_id: found.resource_owner_id,
    scopes: scopeList(found.scopes),
    expires_in_seconds: left,
    application: application ? { uid: application.uid } : null,
    created_at: Math.floor(Date.parse(found.created_at) / 1000),
  };
}
