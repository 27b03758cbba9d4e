import type { Generated } from "kysely";

// The browser surface's tables of `Database` (migration 0017_web_sessions), apart from the rest for length.

/** `web_sessions`: signed-in browsers, found by the digest of their cookie's random id. */
export interface WebSessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the id the session cookie holds. */
  session_digest: string;
  /** The token every form of this session carries (CSRF). */
  csrf_token: string;
  /** The client address at sign-in. */
  address: string;
  user_agent: string;
  created_at: string;
  last_seen_at: string;
}
