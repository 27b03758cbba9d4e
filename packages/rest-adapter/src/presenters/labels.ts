import type { LabelJson } from "@kiln/schemas";
import type { LabelView } from "@kiln/services";

/** A label as v3 answers it (GitLab 8.15): the API calls the title `name`. */
export function presentLabel(view: LabelView): LabelJson {
  const { label, counts } = view;
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    open_issues_count: counts.open_issues_count,
    closed_issues_count: counts.closed_issues_count,
    open_merge_requests_count: counts.open_merge_requests_count,
    priority: label.priority,
    subscribed: view.subscribed,
  };
}
