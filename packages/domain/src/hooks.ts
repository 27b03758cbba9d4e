import { isLocalIpLiteral } from "./local-address.js";

/** The kinds of event a project hook subscribes to, and whether deliveries verify TLS certificates. */
export const HOOK_FLAGS = [
  "push_events",
  "issues_events",
  "merge_requests_events",
  "tag_push_events",
  "note_events",
  "build_events",
  "pipeline_events",
  "wiki_page_events",
  "enable_ssl_verification",
] as const;

/** One of {@link HOOK_FLAGS}. */
export type HookFlag = (typeof HOOK_FLAGS)[number];

/** The flags of a hook. */
export type HookFlags = Record<HookFlag, boolean>;

/**
 * A project webhook: a URL that receives the project's events of the subscribed kinds. Its secret
 * token (GitLab 8.14+, sent as `X-Gitlab-Token`) is kept sealed by storage and is not part of it.
 */
export interface ProjectHook extends HookFlags {
  id: number;
  project_id: number;
  url: string;
  created_at: string;
}

/** A new hook's flags (GitLab's `web_hook.rb`): pushes only, with certificate verification. */
export const DEFAULT_HOOK_FLAGS: Readonly<HookFlags> = Object.freeze({
  push_events: true,
  issues_events: false,
  merge_requests_events: false,
  tag_push_events: false,
  note_events: false,
  build_events: false,
  pipeline_events: false,
  wiki_page_events: false,
  enable_ssl_verification: true,
});

/** The parts of a WHATWG URL this module reads. */
interface ParsedUrl {
  protocol: string;
  hostname: string;
}

/**
 * The WHATWG URL parser, a global of every runtime Kiln supports (typed here because the domain
 * compiles without DOM or Node types). Using it means the host checked is exactly the host a
 * delivery through `fetch` or `node:http` connects to: odd IPv4 spellings (`2130706433`,
 * `0x7f.1`), percent-encoding and full-width characters are normalised before the check.
 */
const WhatwgUrl = (globalThis as unknown as { URL: new (input: string) => ParsedUrl }).URL;

/** Spaces, tabs, newlines and other control characters (the URL parser would silently drop some). */
const WHITESPACE_OR_CONTROL = /[\s\p{Cc}]/u;

/** `http://` or `https://` followed by an authority (the parser would accept `http:///x` or `http:\\x`). */
const HTTP_WITH_AUTHORITY = /^https?:\/\/[^/\\?#]/i;

/** Messages of the `url` attribute of a hook, as the v3 validation body carries them. */
export const HOOK_URL_MESSAGES = {
  blank: "can't be blank",
  invalid: "must be a valid URL",
  localhost: "is blocked: Requests to localhost are not allowed",
  localNetwork: "is blocked: Requests to the local network are not allowed",
} as const;

/** True for `localhost` and names under it (`*.localhost`, RFC 6761), with or without a final dot. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.replace(/\.+$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * Why `url` cannot be a hook URL, or null when it can: it must be `http` or `https` with a host
 * and contain no whitespace. Unless `allowLocal` (the `allow_local_requests_from_hooks` setting),
 * literal loopback, private, link-local and unspecified addresses (IPv4, IPv6 and IPv4 wrapped in
 * IPv6) and the names `localhost` and `*.localhost` are refused too.
 *
 * Only the URL as written is checked here. A public name can resolve to a local address, or
 * change its answer between this check and a delivery (DNS rebinding): the delivery client must
 * check the address it actually connects to, and refuse or re-check redirects.
 */
export function hookUrlProblem(url: string, allowLocal: boolean): string | null {
  if (url.trim() === "") return HOOK_URL_MESSAGES.blank;
  if (WHITESPACE_OR_CONTROL.test(url) || !HTTP_WITH_AUTHORITY.test(url)) return HOOK_URL_MESSAGES.invalid;
  let parsed: ParsedUrl;
  try {
    parsed = new WhatwgUrl(url);
  } catch {
    return HOOK_URL_MESSAGES.invalid;
  }
  if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.hostname === "") {
    return HOOK_URL_MESSAGES.invalid;
  }
  if (allowLocal) return null;
  if (isLocalhostName(parsed.hostname)) return HOOK_URL_MESSAGES.localhost;
  if (isLocalIpLiteral(parsed.hostname.replace(/\.$/, ""))) return HOOK_URL_MESSAGES.localNetwork;
  return null;
}

/** The flags of a system hook: pushes and tag pushes besides the system events, and TLS verification. */
export const SYSTEM_HOOK_FLAGS = ["push_events", "tag_push_events", "enable_ssl_verification"] as const;

/** An instance-wide hook, managed by administrators: every system event, and pushes when subscribed. */
export interface SystemHook extends Record<(typeof SYSTEM_HOOK_FLAGS)[number], boolean> {
  id: number;
  url: string;
  created_at: string;
}

/** A new system hook's flags (GitLab 8.x's `POST /hooks`): pushes, not tag pushes, certificates verified. */
export const DEFAULT_SYSTEM_HOOK_FLAGS = Object.freeze({
  push_events: true,
  tag_push_events: false,
  enable_ssl_verification: true,
});

/** Whose hook a delivery goes to. */
export type HookScope = "project" | "system";

/** Where a delivery stands: waiting (first attempt or a retry), delivered (2xx), or given up. */
export type DeliveryState = "pending" | "delivered" | "failed";

/** One payload for one hook, and how its last attempt went (the delivery log). */
export interface HookDelivery {
  id: number;
  /** The delivery id receivers see, the same on every attempt. */
  uuid: string;
  hook_scope: HookScope;
  hook_id: number;
  project_id: number | null;
  /** `X-Gitlab-Event`. */
  event_name: string;
  /** The JSON body sent. */
  payload: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: string | null;
  url: string | null;
  request_headers: Record<string, string> | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  created_at: string;
  updated_at: string;
}
