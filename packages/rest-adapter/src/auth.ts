import type { IncomingMessage } from "node:http";
import { invalid, unauthenticated } from "@kiln/domain";
import { type Actor, applySudo, identifyToken, type ServiceRuntime } from "@kiln/services";
import type { Params } from "./request/params.js";

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The token a request presents: the `private_token` parameter, else the `PRIVATE-TOKEN` header.
 * A parameter that is not a string (a JSON number, `private_token[]=…`, an object) is invalid,
 * never looked up as something else.
 */
function presentedToken(req: IncomingMessage, params: Params): string | null {
  const param = params["private_token"];
  if (param !== undefined) {
    if (typeof param !== "string") throw unauthenticated();
    return param;
  }
  return header(req, "private-token") ?? null;
}

/** The `sudo` target of a request, from the parameter or the `SUDO` header. */
function sudoTarget(req: IncomingMessage, params: Params): string | null {
  const param = params["sudo"];
  if (param !== undefined) {
    if (typeof param === "number" && Number.isInteger(param)) return String(param);
    if (typeof param !== "string") throw invalid({ sudo: ["is invalid"] });
    return param;
  }
  return header(req, "sudo") ?? null;
}

/**
 * Authenticates a request: the token's user, then `sudo` on top (checked as the real user, who
 * must be an administrator). Missing or unusable credentials are a 401. OAuth bearer tokens are
 * not issued yet, so a request carrying only one is refused like any unknown token.
 *
 * It calls the services' identity functions directly rather than through tRPC: this runs on
 * every request, and a tRPC call costs more than a cached lookup.
 */
export async function authenticate(
  req: IncomingMessage,
  params: Params,
  runtime: ServiceRuntime,
): Promise<Actor> {
  const token = presentedToken(req, params);
  if (!token) throw unauthenticated();
  const identity = await identifyToken(runtime, token);
  if (!identity) throw unauthenticated();
  const actor: Actor = { user: identity.user, method: identity.method, sudoBy: null };
  const target = sudoTarget(req, params);
  return target === null ? actor : applySudo(runtime, actor, target);
}
