import type { IncomingMessage, ServerResponse } from "node:http";
import type { Served } from "@kiln/rest-adapter";
import type { ServiceRuntime } from "@kiln/services";

/** What every web route is handed besides the request: the services and where the server lives. */
export interface WebContext {
  runtime: ServiceRuntime;
  /** The server's external base URL, without a trailing slash (`https://kiln.example.com`). */
  baseUrl: string;
}

/** One row of the web surface's table. */
export interface WebRoute {
  method: "GET" | "POST";
  /** The exact path (`/oauth/token`), or a pattern whose groups are handed to the route. */
  path: string | RegExp;
  handle(context: WebContext, req: IncomingMessage, res: ServerResponse, params: string[]): Promise<Served>;
}
