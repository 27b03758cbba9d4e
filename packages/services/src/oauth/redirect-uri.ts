/**
 * Redirect URIs of OAuth applications, as Doorkeeper (and RFC 6749 §3.1.2, RFC 8252 §7.3) checks
 * them: registered ones must be absolute, without a fragment, and not `javascript:`, `data:` or
 * `vbscript:`; a requested one must equal a registered one exactly, except for a loopback URI
 * (`http://127.0.0.1`, `http://[::1]`), which belongs to the user's own machine: there the port may
 * vary, since native apps listen on any port, and a query may be added when the registered one has
 * none, as Doorkeeper allows (a code-server's `/callback` carries the request it answers in its query).
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

/**
 * How a loopback URI over http is compared: without its port, and without its query when
 * `withQuery` is false; null when it is not a loopback URI.
 */
function loopbackForm(uri: string, withQuery: boolean): string | null {
  if (!LOOPBACK.test(uri)) return null;
  const portless = uri.replace(LOOPBACK, "$1");
  return withQuery ? portless : portless.split("?", 1)[0]!;
}

/** True when the requested loopback URI is the registered one, up to the port and an added query. */
function loopbackMatches(registered: string, requested: string): boolean {
  const registeredForm = loopbackForm(registered, true);
  if (registeredForm === null) return false;
  return loopbackForm(requested, registered.includes("?")) === registeredForm;
}

/** True when `requested` is one of the `registered` redirect URIs (see the module's rules). */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (requested.includes("#")) return false;
  return redirectUris(registered).some((uri) => uri === requested || loopbackMatches(uri, requested));
}
