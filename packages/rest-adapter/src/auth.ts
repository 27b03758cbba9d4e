import type { IncomingMessage } from "node:http";
import { invalid, unauthenticated } from "@kiln/domain";
import { type Actor, applySudo, identifyActor, type ServiceRuntime } from "@kiln/services";
import { API_CREDENTIALS, type CredentialRules, headerValue, readCredentials } from "./credentials.js";
import type { Params } from "./request/params.js";

/** The `sudo` target of a request, from the parameter or the `SUDO` header. */
function sudoTarget(req: IncomingMessage, params: Params): string | null {
  const param = params["sudo"];
  if (param !== undefined) {
    if (typeof param === "number" && Number.isInteger(param)) return String(param);
    if (typeof param !== "string") throw invalid({ sudo: ["is invalid"] });
    return param;
  }
  return headerValue(req, "sudo") ?? null;
}

/**
 * The actor whose credentials a request carries under `rules`, or null when it carries none;
 * credentials that name nobody (unknown, revoked, unreadable, a blocked user) are a 401.
 * `params` are the API's merged parameters, for {@link API_CREDENTIALS}.
 */
export async function identifyCaller(
  req: IncomingMessage,
  rules: CredentialRules,
  runtime: ServiceRuntime,
  params?: Params,
): Promise<Actor | null> {
  const credentials = readCredentials(req, rules, params);
  if (!credentials) return null;
  const actor = await identifyActor(runtime, credentials);
  if (!actor) throw unauthenticated();
  return actor;
}

/**
 * Authenticates a request: the user its credentials name ({@link API_CREDENTIALS}), then `sudo`
 * on top (checked as the real user, who must be an administrator). Missing or unusable
 * credentials are a 401.
 *
 * It calls the services' identity functions directly rather than through tRPC: this runs on
 * every request, and a tRPC call costs more than a cached lookup.
 */
export async function authenticate(
  req: IncomingMessage,
  params: Params,
  runtime: ServiceRuntime,
): Promise<Actor> {
  const actor = await identifyCaller(req, API_CREDENTIALS, runtime, params);
  if (!actor) throw unauthenticated();
  const target = sudoTarget(req, params);
  return target === null ? actor : applySudo(runtime, actor, target);
}
