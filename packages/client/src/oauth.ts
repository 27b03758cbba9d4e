import { type Fetch, instanceUrl } from "./transport.js";

/**
 * Signing in to a Kiln instance by browser: OAuth 2.0's authorization-code flow with PKCE
 * (RFC 6749, RFC 7636), as a public client such as an editor runs it, and access tokens that
 * refresh themselves before they expire.
 */

/** The secret of one sign-in and its challenge (RFC 7636, method S256). */
export interface PkcePair {
  /** Kept by the client until it redeems the code. */
  verifier: string;
  /** Sent with the authorization request. */
  challenge: string;
}

/** An access token, its refresh token and when it stops working. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt: number;
  scopes: string[];
}

/** What the token endpoint refused, with its RFC 6749 error code (`invalid_grant`, …). */
export class OAuthRefusal extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
    /** The HTTP status of the answer (0 when the server could not be reached). */
    readonly status: number,
  ) {
    super(description === "" ? code : `${code}: ${description}`);
    this.name = "OAuthRefusal";
  }
}

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** A random string of `bytes` random bytes, URL-safe (for a PKCE verifier or a `state`). */
export function randomUrlSafe(bytes = 32): string {
  return base64url(globalThis.crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A fresh PKCE pair: a 43-character verifier and its SHA-256 challenge. */
export async function createPkcePair(): Promise<PkcePair> {
  const verifier = randomUrlSafe(32);
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

/** An authorization request to open in the user's browser. */
export interface AuthorizationRequest {
  /** The instance's base URL. */
  url: string;
  clientId: string;
  redirectUri: string;
  /** Sent back with the code: the client checks it is the one it sent. */
  state: string;
  /** The challenge of {@link createPkcePair}. */
  challenge: string;
  /** Default `api`. */
  scopes?: readonly string[];
}

/** The consent page's URL (`/oauth/authorize`) for a request. */
export function authorizationUrl(request: AuthorizationRequest): string {
  const query = new URLSearchParams({
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    response_type: "code",
    scope: (request.scopes ?? ["api"]).join(" "),
    state: request.state,
    code_challenge: request.challenge,
    code_challenge_method: "S256",
  });
  return instanceUrl(request.url, `/oauth/authorize?${query}`);
}

/** What the browser brought back to the redirect URI: a code, or the reason there is none. */
export type AuthorizationResponse = { code: string } | { error: string; description: string };

/**
 * Reads the query the redirect URI was called with. A `state` other than the one sent means the
 * answer is not to this client's request: it is refused, never redeemed.
 */
export function readAuthorizationResponse(
  query: string | URLSearchParams,
  expectedState: string,
): AuthorizationResponse {
  const params = typeof query === "string" ? new URLSearchParams(query) : query;
  const error = params.get("error");
  if (error !== null) return { error, description: params.get("error_description") ?? "" };
  if (params.get("state") !== expectedState) {
    return { error: "state_mismatch", description: "The answer is not to this sign-in's request." };
  }
  const code = params.get("code");
  if (code === null || code === "") return { error: "invalid_request", description: "No code came back." };
  return { code };
}

/** How to reach an instance's token endpoint. */
export interface TokenEndpointOptions {
  /** The instance's base URL. */
  url: string;
  clientId: string;
  /** Default the global `fetch` (use `fetchTrusting` for a private CA). */
  fetch?: Fetch | undefined;
}

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
}

/** Posts a form to one of the provider's endpoints; a server out of reach is an {@link OAuthRefusal}. */
async function postForm(options: TokenEndpointOptions, path: string, form: Record<string, string>) {
  const fetch = options.fetch ?? globalThis.fetch;
  try {
    return await fetch(instanceUrl(options.url, path), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams({ ...form, client_id: options.clientId }).toString(),
    });
  } catch (error) {
    throw new OAuthRefusal("unreachable", error instanceof Error ? error.message : String(error), 0);
  }
}

/** Posts a grant to `/oauth/token`; answers the token pair, or throws an {@link OAuthRefusal}. */
async function requestTokens(
  options: TokenEndpointOptions,
  grant: Record<string, string>,
): Promise<OAuthTokens> {
  const sentAt = Date.now();
  const response = await postForm(options, "/oauth/token", grant);
  const body = (await response.json().catch(() => ({}))) as Partial<TokenAnswer> & {
    error?: string;
    error_description?: string;
  };
  if (!response.ok || typeof body.access_token !== "string") {
    throw new OAuthRefusal(body.error ?? "invalid_response", body.error_description ?? "", response.status);
  }
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? "",
    // Counted from when the request left, so the client never believes a token lives longer than it does.
    expiresAt: sentAt + (body.expires_in ?? 0) * 1000,
    scopes: (body.scope ?? "").split(" ").filter((scope) => scope !== ""),
  };
}

/** Redeems an authorization code with the PKCE verifier of its request. */
export function exchangeAuthorizationCode(
  options: TokenEndpointOptions & { code: string; redirectUri: string; verifier: string },
): Promise<OAuthTokens> {
  return requestTokens(options, {
    grant_type: "authorization_code",
    code: options.code,
    redirect_uri: options.redirectUri,
    code_verifier: options.verifier,
  });
}

/** A new token pair for a refresh token; the old pair stops working (the refresh token rotates). */
export function refreshTokens(
  options: TokenEndpointOptions & { refreshToken: string },
): Promise<OAuthTokens> {
  return requestTokens(options, { grant_type: "refresh_token", refresh_token: options.refreshToken });
}

/**
 * Revokes a token pair by either token (RFC 7009), as signing out does. Resolves once the server
 * answered, whether or not it knew the token; throws an {@link OAuthRefusal} when it refused.
 */
export async function revokeTokens(options: TokenEndpointOptions & { token: string }): Promise<void> {
  const response = await postForm(options, "/oauth/revoke", { token: options.token });
  if (!response.ok) throw new OAuthRefusal("revoke_failed", await response.text(), response.status);
}

/** How long before its expiry an access token is refreshed, in ms. */
const REFRESH_MARGIN_MS = 60_000;

/** Options of {@link refreshingToken}. */
export interface RefreshingTokenOptions extends TokenEndpointOptions {
  tokens: OAuthTokens;
  /** Keeps a refreshed pair (the old refresh token no longer works). */
  save: (tokens: OAuthTokens) => void | PromiseLike<void>;
  /**
   * The pair as kept now, when other processes share it (several editor windows): a refresh they
   * made is taken instead of failing with the refresh token they rotated.
   */
  latest?: () => Promise<OAuthTokens | undefined>;
}

/** An OAuth access token that refreshes itself: the `token` option of `createKilnClient`. */
export interface RefreshingToken {
  /** The access token, refreshed first when it expires within a minute. */
  (): Promise<string>;
  /** Takes a pair refreshed elsewhere (another process sharing it), in place of the one held. */
  adopt(tokens: OAuthTokens): void;
}

/**
 * An access token that refreshes itself before it expires, once however many calls wait for it,
 * and keeps each new pair with `save`. A refused refresh is thrown as an {@link OAuthRefusal}: the
 * user must sign in again.
 */
export function refreshingToken(options: RefreshingTokenOptions): RefreshingToken {
  let tokens = options.tokens;
  let refreshing: Promise<OAuthTokens> | null = null;
  const refresh = async (): Promise<OAuthTokens> => {
    try {
      const fresh = await refreshTokens({ ...options, refreshToken: tokens.refreshToken });
      await options.save(fresh);
      return fresh;
    } catch (error) {
      const kept = error instanceof OAuthRefusal ? await options.latest?.() : undefined;
      if (kept && kept.refreshToken !== tokens.refreshToken) return kept;
      throw error;
    }
  };
  const token = async () => {
    if (tokens.expiresAt - Date.now() > REFRESH_MARGIN_MS) return tokens.accessToken;
    refreshing ??= refresh().finally(() => {
      refreshing = null;
    });
    tokens = await refreshing;
    return tokens.accessToken;
  };
  return Object.assign(token, {
    adopt: (adopted: OAuthTokens) => {
      tokens = adopted;
    },
  });
}
