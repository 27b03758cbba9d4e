/**
 * @module @kiln/web
 * Kiln's browser surface as a `node:http` handler: the account pages and the OAuth 2.0
 * provider's endpoints, over `@kiln/services`.
 *
 * @example
 * ```ts
 * const web = createWebHandler({ runtime, baseUrl: "https://kiln.example.com" });
 * http.createServer((req, res) => {
 *   const path = (req.url ?? "/").split("?")[0];
 *   if (isWebRequest(req.method, path)) void web(req, res);
 * });
 * ```
 */
export { createWebHandler, isWebRequest, type WebHandler, type WebOptions, webRoutes } from "./handler.js";
export type { WebContext, WebRoute } from "./route.js";
