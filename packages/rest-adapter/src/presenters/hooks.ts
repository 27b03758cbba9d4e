import type { HookDelivery, ProjectHook, SystemHook } from "@kiln/domain";
import type { HookDeliveryJson, ProjectHookJson, SystemHookJson } from "@kiln/schemas";

/** A project hook as v3 answers it: its URL, flags and creation time, never its secret token. */
export function presentHook(hook: ProjectHook): ProjectHookJson {
  return {
    id: hook.id,
    url: hook.url,
    project_id: hook.project_id,
    push_events: hook.push_events,
    issues_events: hook.issues_events,
    merge_requests_events: hook.merge_requests_events,
    tag_push_events: hook.tag_push_events,
    note_events: hook.note_events,
    build_events: hook.build_events,
    pipeline_events: hook.pipeline_events,
    wiki_page_events: hook.wiki_page_events,
    enable_ssl_verification: hook.enable_ssl_verification,
    created_at: hook.created_at,
  };
}

/** A system hook as `/hooks` answers it: its URL, flags and creation time, never its secret token. */
export function presentSystemHook(hook: SystemHook): SystemHookJson {
  return {
    id: hook.id,
    url: hook.url,
    created_at: hook.created_at,
    push_events: hook.push_events,
    tag_push_events: hook.tag_push_events,
    enable_ssl_verification: hook.enable_ssl_verification,
  };
}

/** One delivery of a hook's log. */
export function presentDelivery(delivery: HookDelivery): HookDeliveryJson {
  return {
    id: delivery.id,
    delivery_id: delivery.uuid,
    event: delivery.event_name,
    state: delivery.state,
    url: delivery.url,
    request_headers: delivery.request_headers,
    request_body: delivery.payload,
    response_status: delivery.response_status,
    response_headers: delivery.response_headers,
    response_body: delivery.response_body,
    error: delivery.error,
    duration_ms: delivery.duration_ms,
    attempts: delivery.attempts,
    next_retry_at: delivery.state === "pending" && delivery.attempts > 0 ? delivery.next_attempt_at : null,
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
  };
}
