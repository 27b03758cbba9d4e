import type { IncomingMessage, ServerResponse } from "node:http";
import { drainBeforeAnswer, type Served } from "@kiln/rest-adapter";
import type { ServiceRuntime } from "@kiln/services";
import { oauthRoutes } from "./oauth/routes.js";
import { pageRoutes } from "./pages/routes.js";
import type { WebContext, WebRoute } from "./route.js";

/** Every route of the web surface, OAuth's first. */
export const webRoutes: readonly WebRoute[] = [...oauthRoutes, ...pageRoutes];

/** How the web surface is set up. */
export interface WebOptions {
  runtime: ServiceRuntime;
  /** The server's external base URL; a trailing slash is dropped. */
  baseUrl: string;
}

/** The web surface's handler, as a front door mounts it. */
export type WebHandler = (req: IncomingMessage, res: ServerResponse) => Promise<Served>;

interface Match {
  route: WebRoute;
  params: string[];
}

function findRoute(method: string | undefined, path: string): Match | null {
  for (const route of webRoutes) {
    if (route.method !== method && !(method === "HEAD" && route.method === "GET")) continue;
    if (typeof route.path === "string") {
      if (route.path === path) return { route, params: [] };
      continue;
    }
    const found = route.path.exec(path);
    if (found) return { route, params: found.slice(1).map((part) => part ?? "") };
  }
  return null;
}

/**
 * True when the web surface serves this method and path; a front door mounts it with this, so
 * that paths it does not know fall through to the next surface.
 */
export function isWebRequest(method: string | undefined, path: string): boolean {
  return findRoute(method, path) !== null;
}

/**
 * The web surface: server-rendered pages and the OAuth 2.0 endpoints, as one `node:http`
 * handler. A request it has no route for is `404 Not Found`.
 */
export function createWebHandler(options: WebOptions): WebHandler {
  const context: WebContext = { runtime: options.runtime, baseUrl: options.baseUrl.replace(/\/+$/, "") };
  return async (req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0] ?? "/";
    const match = findRoute(req.method, path);
    if (match) return match.route.handle(context, req, res, match.params);
    await drainBeforeAnswer(req, res);
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
    res.end("404 Not Found");
    return { status: 404, userId: null };
  };
}
