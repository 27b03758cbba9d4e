import type { Generated } from "kysely";

// The webhook tables of `Database` (migration 0012_hook_deliveries), apart from the rest for length.

/** `system_hooks`: instance-wide hooks, managed by administrators. */
export interface SystemHooksTable {
  id: Generated<number>;
  url: string;
  token_sealed: string | null;
  push_events: number;
  tag_push_events: number;
  enable_ssl_verification: number;
  created_at: string;
  updated_at: string;
}

/**
 * `hook_deliveries`: one payload for one hook, pending until sent (or given up), then kept as the
 * delivery log; see the delivery store.
 */
export interface HookDeliveriesTable {
  id: Generated<number>;
  /** The delivery id receivers see (`X-Kiln-Delivery`), the same on every attempt. */
  uuid: string;
  /** The outbox event it reports; null for a test delivery. */
  event_id: number | null;
  hook_scope: "project" | "system";
  hook_id: number;
  project_id: number | null;
  /** `X-Gitlab-Event` (`Push Hook`, ...). */
  event_name: string;
  /** The JSON body. */
  payload: string;
  state: "pending" | "delivered" | "failed";
  attempts: Generated<number>;
  /** When a pending delivery is due; null once it is delivered or failed. */
  next_attempt_at: string | null;
  /** Until when a worker holds it (being sent); null when no one does. */
  claimed_until: string | null;
  url: string | null;
  /** JSON object of the last attempt's request headers (the token masked). */
  request_headers: string | null;
  response_status: number | null;
  /** JSON object of the last attempt's response headers. */
  response_headers: string | null;
  /** The first bytes of the last attempt's response body. */
  response_body: string | null;
  /** Why the last attempt failed (connection error, timeout, refused address); null otherwise. */
  error: string | null;
  duration_ms: number | null;
  created_at: string;
  updated_at: string;
}
