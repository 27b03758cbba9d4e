/**
 * Redirect URIs of OAuth applications, as Doorkeeper (and RFC 6749 §3.1.2, RFC 8252 §7.3) checks
 * them: registered ones must be absolute, without a fragment, and not `javascript:`, `data:` or
 * `vbscript:`; a requested one must equal a registered one exactly, except that the port of a
 * loopback URI (`http://127.0.0.1`, `http://[::1]`) may vary, since native apps listen on any port.
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

/** The URI without its port when it is a loopback URI over http, else null; the rest stays as sent. */
function loopbackWithoutPort(uri: string): string | null {
  return LOOPBACK.test(uri) ? uri.replace(LOOPBACK, "$1") : null;
}

/** True when `requested` is one of the `registered` redirect URIs (see the module's rules). */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (requested.includes("#")) return false;
  const loopback = loopbackWithoutPort(requested);
  return redirectUris(registered).some(
    (uri) => uri === requested || (loopback !== null && loopbackWithoutPort(uri) === loopback),
  );
}
