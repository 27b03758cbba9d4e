/** The two services of git's smart HTTP protocol, as named in URLs and `?service=`. */
export type GitService = "git-upload-pack" | "git-receive-pack";

/** The git subcommand behind a service (`upload-pack` or `receive-pack`). */
export function serviceCommand(service: GitService): "upload-pack" | "receive-pack" {
  return service === "git-upload-pack" ? "upload-pack" : "receive-pack";
}

/**
 * The service a request names (the `service` query parameter of `info/refs`, or the last path
 * segment of a POST), or undefined when it names anything else: callers answer 403 or 404.
 */
export function parseGitService(value: string | null | undefined): GitService | undefined {
  return value === "git-upload-pack" || value === "git-receive-pack" ? value : undefined;
}

/** Content type of the `info/refs` answer for a service. */
export function advertisementContentType(service: GitService): string {
  return `application/x-${service}-advertisement`;
}

/** Content type a client must send with a POST to a service. */
export function requestContentType(service: GitService): string {
  return `application/x-${service}-request`;
}

/** Content type of the answer to a POST to a service. */
export function resultContentType(service: GitService): string {
  return `application/x-${service}-result`;
}

/** Headers that keep proxies and clients from caching an answer, as `git http-backend` sends them. */
export const NO_CACHE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  Expires: "Fri, 01 Jan 1980 00:00:00 GMT",
  Pragma: "no-cache",
  "Cache-Control": "no-cache, max-age=0, must-revalidate",
});

// `version=2`, optionally with more `key=value` or `key` items separated by colons.
const GIT_PROTOCOL = /^[A-Za-z0-9._-]+(=[A-Za-z0-9._-]+)?(:[A-Za-z0-9._-]+(=[A-Za-z0-9._-]+)?)*$/;

/**
 * The value of the client's `Git-Protocol` header to hand to git as `GIT_PROTOCOL`, or undefined
 * when absent or malformed (git then speaks protocol v0). Only short `key=value:key=value`
 * lists of plain characters pass.
 */
export function sanitizeGitProtocol(header: string | readonly string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(":") : header;
  if (typeof value !== "string" || value.length === 0 || value.length > 256) return undefined;
  return GIT_PROTOCOL.test(value) ? value : undefined;
}

/** True when a sanitized `Git-Protocol` value asks for protocol version 2. */
export function wantsProtocolV2(gitProtocol: string | undefined): boolean {
  return gitProtocol?.split(":").includes("version=2") === true;
}
