/**
 * Redirect URIs of OAuth applications, as Doorkeeper (and RFC 6749 §3.1.2, RFC 8252 §7.3) checks
 * them: registered ones must be absolute, without a fragment, and not `javascript:`, `data:` or
 * `vbscript:`; a requested one must equal a registered one exactly, except for a loopback URI
 * (`http://127.0.0.1`, `http://[::1]`), which belongs to the user's own machine: there the port may
 * vary, since native apps listen on any port (RFC 8252 §7.3); the path may have a prefix before the
 * registered one, and a query may be added when the registered one has none, as Doorkeeper allows.
 * A code-server's callback needs both: `/<version>/callback?vscode-reqid=…`. Neither opens more to
 * anyone: whoever may listen on one loopback port of the machine may listen on any.
 */

const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "vbscript:"]);

/** The registered redirect URIs of an application (one per line). */
export function redirectUris(registered: string): string[] {
  return registered
    .split(/\r?\n/)
    .map((uri) => uri.trim())
    .filter((uri) => uri !== "");
}

/** Why a URI may not be registered as a redirect URI, or null when it may. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "must be an absolute URI";
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return "is forbidden by the server";
  if (uri.includes("#")) return "cannot contain a fragment";
  return null;
}

const LOOPBACK = /^(http:\/\/(?:127\.0\.0\.1|\[::1\]))(?::\d{1,5})?(?=[/?]|$)/;

/** A loopback URI over http, cut into what is compared: without its port, its path apart. */
function loopbackParts(uri: string): { origin: string; path: string; query: string | null } | null {
  const origin = LOOPBACK.exec(uri)?.[1];
  if (origin === undefined) return null;
  const rest = uri.replace(LOOPBACK, "");
  const mark = rest.indexOf("?");
  return mark < 0
    ? { origin, path: rest, query: null }
    : { origin, path: rest.slice(0, mark), query: rest.slice(mark + 1) };
}

/** True when the requested loopback URI is the registered one, up to the port, a path prefix and an added query. */
function loopbackMatches(registered: string, requested: string): boolean {
  const want = loopbackParts(registered);
  const got = loopbackParts(requested);
  if (!want || !got || want.origin !== got.origin) return false;
  const pathMatches = got.path === want.path || (want.path.startsWith("/") && got.path.endsWith(want.path));
  return pathMatches && (want.query === null || got.query === want.query);
}

/** True when `requested` is one of the `registered` redirect URIs (see the module's rules). */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (requested.includes("#")) return false;
  return redirectUris(registered).some((uri) => uri === requested || loopbackMatches(uri, requested));
}
