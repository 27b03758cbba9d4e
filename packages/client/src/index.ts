/**
 * @module @kiln/client
 * A typed client of a Kiln server's tRPC API (`/api/trpc`): the procedures of `@kiln/services`'
 * public router with their input and output types, list pages as async iterators, failures as
 * typed values, a per-instance certificate authority, and signing in by browser (OAuth 2.0 with
 * PKCE, tokens that refresh themselves). It imports the router's type only: no
 * server code is bundled with it.
 */

export { EDITOR_CLIENT_ID, OOB_REDIRECT_URI } from "@kiln/domain";
export { createKilnClient, type KilnClient, type KilnClientOptions, TRPC_PATH } from "./client.js";
export { attempt, failureOf, type KilnFailure, type Result } from "./errors.js";
export {
  type AuthorizationRequest,
  type AuthorizationResponse,
  authorizationUrl,
  createPkcePair,
  exchangeAuthorizationCode,
  OAuthRefusal,
  type OAuthTokens,
  type PkcePair,
  type RefreshingToken,
  type RefreshingTokenOptions,
  randomUrlSafe,
  readAuthorizationResponse,
  refreshingToken,
  refreshTokens,
  revokeTokens,
  type TokenEndpointOptions,
} from "./oauth.js";
export { items, type PagedProcedure, pages } from "./pages.js";
export { type CertificateAuthority, type Fetch, fetchTrusting } from "./transport.js";
