/**
 * @module @kiln/rest-adapter
 * The GitLab 8.x REST API v3 for Kiln's services, as a `node:http` request handler.
 *
 * @example
 * ```ts
 * const api = createRestHandler({ runtime, baseUrl: "https://kiln.example.com" });
 * http.createServer((req, res) => {
 *   if (req.url?.startsWith(API_PREFIX)) void api(req, res);
 * });
 * ```
 */
export { identifyCaller } from "./auth.js";
export { clientAddress } from "./client-address.js";
export {
  API_CREDENTIALS,
  type CredentialRules,
  GIT_CREDENTIALS,
  readCredentials,
  TRPC_CREDENTIALS,
  UPLOAD_CREDENTIALS,
} from "./credentials.js";
export { errorReply } from "./errors.js";
export { API_PREFIX, createRestHandler, type RestHandler, type RestOptions, type Served } from "./handler.js";
export { paginationHeaders } from "./pagination.js";
export { BodyError, DEFAULT_BODY_LIMIT, drainBeforeAnswer, readBodyParams } from "./request/body.js";
export { decodeParams } from "./request/decode.js";
export type { Params } from "./request/params.js";
export type { Method, PresentContext, RawBody, Reply, Route } from "./route.js";
export { v3Routes } from "./routes/index.js";
export { createRunnerApiHandler, RUNNER_API_PREFIX, type RunnerApiOptions } from "./runner-api/handler.js";
export { gitRefusalMessage } from "./wording/git.js";
export { v3Message } from "./wording/index.js";
