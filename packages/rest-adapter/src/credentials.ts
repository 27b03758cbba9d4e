import type { IncomingMessage } from "node:http";
import { BUILD_TOKEN_USER, type Credentials } from "@kiln/services";

/** The user name git sends with an OAuth access token as the password (GitLab's). */
export const OAUTH_TOKEN_USER = "oauth2";

import type { Params } from "./request/params.js";

/**
 * Which credentials a surface reads from a request, and where. Each surface keeps the rules it
 * has always had; the differences are these options, named, not accidents of three readers.
 */
export interface CredentialRules {
  /**
   * Where a private token or personal access token is read, before the `PRIVATE-TOKEN` header:
   * - `params`: the `private_token` parameter as the API merges its parameters (query string,
   *   form or JSON body, a repeated name keeping its last value); a value that is not a string
   *   (a JSON number, `private_token[]=…`) is unreadable, never looked up as something else;
   * - `query`: the first `private_token` of the query string, taken as it is (a page or file
   *   outside the API, whose body is never read);
   * - `header`: the header alone (tRPC, whose parameters are its own);
   * - null: no token at all, neither parameter nor header.
   */
  privateToken: "params" | "query" | "header" | null;
  /**
   * Whether `Authorization: Basic` is read, where the password may also be a token. Git clients
   * send nothing else; the API never read it (GitLab 8.x's neither).
   */
  basic: boolean;
  /**
   * Whether an OAuth access token is read from `Authorization: Bearer <token>` (and, where
   * `privateToken` is `params`, the `access_token` parameter), after the private token. A private
   * token or personal access token sent there works too: `identifyActor` tells them apart.
   */
  bearer: boolean;
}

/**
 * `/api/v3`: the `private_token` parameter or the `PRIVATE-TOKEN` header, else an OAuth token (the
 * `access_token` parameter or `Authorization: Bearer`); `sudo` on top is the API's.
 */
export const API_CREDENTIALS: CredentialRules = { privateToken: "params", basic: false, bearer: true };
/** Uploads served outside the API: `?private_token=` or the `PRIVATE-TOKEN` header; no sudo. */
export const UPLOAD_CREDENTIALS: CredentialRules = { privateToken: "query", basic: false, bearer: false };
/** Git over smart HTTP: HTTP Basic only (an OAuth token as the password of `oauth2`). */
export const GIT_CREDENTIALS: CredentialRules = { privateToken: null, basic: true, bearer: false };
/** `/api/trpc`: the `PRIVATE-TOKEN` header, else `Authorization: Bearer`; no parameter, no sudo. */
export const TRPC_CREDENTIALS: CredentialRules = { privateToken: "header", basic: false, bearer: true };

/**
 * The credentials a request carries under `rules`, or null when it carries none (the caller is
 * anonymous, which each surface accepts or refuses). `params` are the API's merged parameters,
 * needed for `privateToken: "params"`. Where `bearer` is off (uploads, git), a request carrying
 * only `Authorization: Bearer` or `access_token` is anonymous.
 */
export function readCredentials(
  req: IncomingMessage,
  rules: CredentialRules,
  params?: Params,
): Credentials | null {
  if (rules.privateToken !== null) {
    const param = tokenParam(req, rules.privateToken, params);
    if (param !== undefined) {
      if (typeof param !== "string") return { kind: "unreadable" };
      return { kind: "token", token: param, via: "private_token_param" };
    }
    const header = headerValue(req, "private-token");
    if (header !== undefined) return { kind: "token", token: header, via: "private_token_header" };
  }
  const authorization = headerValue(req, "authorization");
  if (rules.bearer) {
    const param = rules.privateToken === "params" ? params?.["access_token"] : undefined;
    if (param !== undefined)
      return typeof param === "string" ? { kind: "oauth_bearer", token: param } : { kind: "unreadable" };
    const bearer = bearerCredentials(authorization);
    if (bearer !== null) return bearer;
  }
  return rules.basic ? basicCredentials(authorization) : null;
}

/** The `private_token` parameter where `rule` reads one, or undefined. */
function tokenParam(
  req: IncomingMessage,
  rule: "params" | "query" | "header",
  params: Params | undefined,
): unknown {
  if (rule === "params") return params?.["private_token"];
  return rule === "query" ? queryParam(req.url, "private_token") : undefined;
}

/**
 * The token of an `Authorization: Bearer …` header (RFC 6750's token68): null when there is none
 * or another scheme is used, unreadable when the scheme is Bearer but its token is not one.
 */
function bearerCredentials(header: string | undefined): Credentials | null {
  if (header === undefined || !/^Bearer(\s|$)/i.test(header)) return null;
  const match = /^Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/i.exec(header);
  if (!match) return { kind: "unreadable" };
  return { kind: "oauth_bearer", token: match[1] as string };
}

/** A header's value; Node joins a repeated one with `, ` (only `set-cookie` comes as an array). */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The first value of `name` in the query string of `url` (cut where the handlers cut it), or undefined. */
function queryParam(url: string | undefined, name: string): string | undefined {
  const search = (url ?? "/").split("?", 2)[1];
  return search === undefined ? undefined : (new URLSearchParams(search).get(name) ?? undefined);
}

/**
 * The credentials of an `Authorization: Basic …` header: null when there is none (or another
 * scheme, which git never sends), unreadable when it does not decode to `user:password`, which is
 * answered like wrong credentials. The user `gitlab-ci-token` sends a build's token. The password keeps any colon after the first one (RFC 7617).
 */
function basicCredentials(header: string | undefined): Credentials | null {
  if (header === undefined) return null;
  const match = /^Basic[ \t]+([A-Za-z0-9+/=_-]*)[ \t]*$/i.exec(header);
  if (!match) return /^Basic(\s|$)/i.test(header) ? { kind: "unreadable" } : null;
  const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return { kind: "unreadable" };
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (username === BUILD_TOKEN_USER) return { kind: "build_token", token: password };
  if (username === OAUTH_TOKEN_USER) return { kind: "oauth_bearer", token: password };
  return { kind: "basic", username, password };
}
