import { isActive, type User } from "@kiln/domain";
import type { WebSession } from "@kiln/storage-kysely";
import { FULL_SCOPES } from "../auth/credentials.js";
import type { Actor } from "../context.js";
import type { ServiceRuntime } from "../runtime.js";
import { generateToken, tokenDigest } from "../security/tokens.js";

/** A session resumed from its cookie: the session, and who acts through it. */
export interface ResumedWebSession {
  session: WebSession;
  actor: Actor;
  /** True when the session was just marked as used (its cookie's expiry may then move too). */
  touched: boolean;
}

/** How often a session's use is recorded: not on every request, to keep reads read-only. */
const TOUCH_EVERY_MS = 60_000;

/**
 * How long a session lives unused, from the `session_expire_delay` setting (minutes), or null
 * when it is 0: the session then lasts as long as the browser keeps its cookie.
 */
export async function webSessionLifetimeMs(runtime: ServiceRuntime): Promise<number | null> {
  const minutes = (await runtime.settings()).session_expire_delay;
  return minutes > 0 ? minutes * 60_000 : null;
}

/**
 * Starts a web session for a user who just signed in: answers the random id for the cookie (only
 * its digest is stored) and the session, with the CSRF token of its forms.
 */
export async function startWebSession(
  runtime: ServiceRuntime,
  start: { userId: number; address: string; userAgent: string },
): Promise<{ cookieValue: string; session: WebSession }> {
  const cookieValue = generateToken(32);
  const session = await runtime.stores.webSessions.create({
    user_id: start.userId,
    session_digest: tokenDigest(cookieValue),
    csrf_token: generateToken(32),
    address: start.address,
    user_agent: start.userAgent.slice(0, 255),
  });
  return { cookieValue, session };
}

/**
 * The session a cookie names, or null when it names none that works: unknown or ended, unused for
 * longer than the session lifetime (then removed), or its user blocked or gone. Its use is
 * recorded at most once a minute.
 */
export async function resumeWebSession(
  runtime: ServiceRuntime,
  cookieValue: string,
): Promise<ResumedWebSession | null> {
  if (cookieValue === "") return null;
  const { webSessions, users } = runtime.stores;
  const session = await webSessions.findByDigest(tokenDigest(cookieValue));
  if (!session) return null;
  const nowMs = Date.now();
  const lifetime = await webSessionLifetimeMs(runtime);
  if (lifetime !== null && Date.parse(session.last_seen_at) + lifetime <= nowMs) {
    await webSessions.delete(session.user_id, session.id);
    return null;
  }
  const user = await users.findById(session.user_id);
  if (!user || !isActive(user)) return null;
  const touched = nowMs - Date.parse(session.last_seen_at) >= TOUCH_EVERY_MS;
  if (touched) {
    session.last_seen_at = new Date(nowMs).toISOString();
    await webSessions.touch(session.id, session.last_seen_at);
  }
  return { session, actor: webActor(user), touched };
}

/** Ends the session a cookie names, if any (signing out). */
export async function endWebSession(runtime: ServiceRuntime, cookieValue: string): Promise<void> {
  const session = await runtime.stores.webSessions.findByDigest(tokenDigest(cookieValue));
  if (session) await runtime.stores.webSessions.delete(session.user_id, session.id);
}

/** The actor of a web session: the user, as proved by their password at sign-in. */
function webActor(user: User): Actor {
  return { user, method: "password", sudoBy: null, scopes: FULL_SCOPES };
}
