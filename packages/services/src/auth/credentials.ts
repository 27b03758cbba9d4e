import type { Actor } from "../context.js";
import { identifyOAuthToken } from "../oauth/identify.js";
import type { ServiceRuntime } from "../runtime.js";
import { tokenDigest } from "../security/tokens.js";
import { type BasicCredentials, identifyCredentials } from "./basic-credentials.js";
import { FULL_SCOPES, type Identity, identifyToken } from "./identify.js";

export { FULL_SCOPES } from "./identify.js";

/** Where a request carried a private token or personal access token. */
export type TokenCarrier = "private_token_param" | "private_token_header" | "authorization_bearer";

/**
 * What a request carried to say who sends it, as its transport read it (the transport knows
 * headers and parameters; this is all the services need of them).
 *
 * - `token`: a private token or a personal access token, from the `private_token` parameter, the
 *   `PRIVATE-TOKEN` header or (tRPC) `Authorization: Bearer`.
 * - `basic`: HTTP Basic credentials (git over HTTP), a password or a token as the password.
 * - `unreadable`: credentials were sent but cannot be read (a Basic header that does not decode,
 *   a `private_token` that is not a string); they name nobody, as wrong ones do.
 *
 * - `build_token`: a running build's token, sent by git as the password of `gitlab-ci-token`:
 *   it names no user, only the right to fetch that build's project while the build runs (see
 *   `decideGitAccess`); the runner API reads build and runner tokens itself.
 *
 * - `oauth_bearer`: an OAuth 2.0 access token, from `Authorization: Bearer`, the `access_token`
 *   parameter, or the password of git's user `oauth2`; its actor carries the scopes the token was
 *   granted. A private token or personal access token sent the same way is accepted too (GitLab
 *   takes both in a Bearer header, and tRPC clients send theirs there).
 *
 * The kinds still to come plug in here, each as one more member and one more case of
 * {@link identifyActor}: a web session as `session_cookie`. Until a kind is here, no transport
 * reads it, and a request carrying only that is anonymous.
 */
export type Credentials =
  | { kind: "token"; token: string; via: TokenCarrier }
  | ({ kind: "basic" } & BasicCredentials)
  | { kind: "build_token"; token: string }
  | { kind: "oauth_bearer"; token: string }
  | { kind: "unreadable" };

/** The user name git sends with a build's token (GitLab's). */
export const BUILD_TOKEN_USER = "gitlab-ci-token";

/**
 * The actor of an identity, acting as themselves, with its credentials' scopes (the user's own
 * secrets', `api`, when none are named: the server's own work done for a user).
 */
export function actorOf(identity: Omit<Identity, "scopes"> & { scopes?: readonly string[] }): Actor {
  const scopes = identity.scopes ?? FULL_SCOPES;
  return { user: identity.user, method: identity.method, sudoBy: null, scopes };
}

const actorOrNull = (identity: Identity | null): Actor | null => identity && actorOf(identity);

/**
 * Who the credentials a request carried name, as an actor with its scopes, or null when they
 * name nobody who may act: an unknown, revoked or expired token, a wrong password, a blocked
 * user, unreadable credentials, an empty token. Each surface answers null its own way (401, a
 * git prompt); `sudo` is the REST API's, applied on top by its caller. A token the identity
 * cache knows is answered synchronously, as {@link identifyToken} does.
 *
 * A password sent over Basic is throttled ({@link identifyCredentials}): it rejects with
 * `rate_limited` while its account is locked or while `address` (the client's, which the
 * transport passes) is banned from git's password authentication.
 */
export function identifyActor(
  runtime: ServiceRuntime,
  credentials: Credentials,
  address?: string,
): Actor | null | Promise<Actor | null> {
  switch (credentials.kind) {
    case "token": {
      if (credentials.token === "") return null;
      const identity = identifyToken(runtime, credentials.token);
      return identity instanceof Promise ? identity.then(actorOrNull) : actorOrNull(identity);
    }
    case "oauth_bearer": {
      if (credentials.token === "") return null;
      const identity = identifyBearer(runtime, credentials.token);
      return identity instanceof Promise ? identity.then(actorOrNull) : actorOrNull(identity);
    }
    case "basic":
      return identifyCredentials(runtime, credentials, address).then(actorOrNull);
    // A build's token acts as no user (its access is the build's project, decided per surface).
    case "build_token":
    case "unreadable":
      return null;
  }
}

/**
 * An OAuth access token, else a private token or personal access token. One the identity cache
 * knows is answered at once, a private token or PAT first: clients that send theirs as Bearer
 * (tRPC, the editor) cost no lookup of OAuth tokens on every request.
 */
function identifyBearer(runtime: ServiceRuntime, token: string): Identity | null | Promise<Identity | null> {
  const known = runtime.identities?.lookup(tokenDigest(token), Date.now());
  if (known) return known;
  const oauth = identifyOAuthToken(runtime, token);
  if (oauth !== null && !(oauth instanceof Promise)) return oauth;
  return Promise.resolve(oauth).then((found) => found ?? identifyToken(runtime, token));
}
