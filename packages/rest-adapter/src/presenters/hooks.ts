import type { ProjectHook } from "@kiln/domain";
import type { ProjectHookJson } from "@kiln/schemas";

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
