import type { IncomingMessage } from "node:http";
import { type Actor, resumeWebSession, type WebSession, webSessionLifetimeMs } from "@kiln/services";
import { readCookie, setCookie } from "../http/cookies.js";
import { newCsrfToken } from "../http/csrf.js";
import type { WebContext } from "../route.js";

/** The cookie holding a web session's random id. */
export const SESSION_COOKIE = "_kiln_session";
/** The double-submit CSRF cookie of a visitor not signed in. */
export const CSRF_COOKIE = "_kiln_csrf";

/** Who sends a page request: a signed-in user through their session, or a visitor. */
export type Visitor =
  | { signedIn: true; actor: Actor; session: WebSession; csrfToken: string }
  | { signedIn: false; csrfToken: string };

/** True when cookies must be `Secure`: the server is reached over https. */
export const isSecure = (web: WebContext): boolean => web.baseUrl.startsWith("https:");

/**
 * Who sends the request, and the cookies to set for it: the session cookie again when the
 * session's use moved its expiry, a CSRF cookie for a visitor who has none yet.
 */
export async function identifyVisitor(
  web: WebContext,
  req: IncomingMessage,
): Promise<{ visitor: Visitor; cookies: string[] }> {
  const secure = isSecure(web);
  const cookieValue = readCookie(req, SESSION_COOKIE);
  const resumed = cookieValue ? await resumeWebSession(web.runtime, cookieValue) : null;
  if (resumed && cookieValue) {
    const { session, actor } = resumed;
    const cookies = resumed.touched ? [await sessionCookie(web, cookieValue)] : [];
    return { visitor: { signedIn: true, actor, session, csrfToken: session.csrf_token }, cookies };
  }
  const known = readCookie(req, CSRF_COOKIE);
  if (known) return { visitor: { signedIn: false, csrfToken: known }, cookies: [] };
  const csrfToken = newCsrfToken();
  return {
    visitor: { signedIn: false, csrfToken },
    cookies: [setCookie(CSRF_COOKIE, csrfToken, { secure })],
  };
}

/** The session cookie, living as long as an unused session does (`session_expire_delay`). */
export async function sessionCookie(web: WebContext, cookieValue: string): Promise<string> {
  const lifetime = await webSessionLifetimeMs(web.runtime);
  return setCookie(SESSION_COOKIE, cookieValue, {
    secure: isSecure(web),
    maxAgeSeconds: lifetime === null ? undefined : lifetime / 1000,
  });
}
