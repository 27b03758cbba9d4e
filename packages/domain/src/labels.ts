/**
 * A label of a project. GitLab stores its name as `title` (the API calls it `name`); titles are
 * unique in a project, comparing case.
 */
export interface Label {
  id: number;
  project_id: number;
  title: string;
  /** `#` and 3 or 6 hex digits. */
  color: string;
  description: string | null;
  /** Lower first when labels are prioritized (GitLab 8.14), or null. */
  priority: number | null;
  created_at: string;
  updated_at: string;
}

/** How many open (opened or reopened) and closed issues and open merge requests carry a label. */
export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

/** The colour GitLab gives a label created without one (labels named in an issue's `labels`). */
export const DEFAULT_LABEL_COLOR = "#428BCA";

// GitLab's ColorValidator: `#` followed by 3 or 6 hex digits, no colour names.
const COLOR = /^#(?:[0-9a-f]{3}){1,2}$/i;

/** Why `color` is not a label colour, or null: GitLab's message for the `color` attribute. */
export function labelColorProblem(color: string): string | null {
  return COLOR.test(color) ? null : "must be a valid color code";
}

/**
 * Why `title` cannot name a label, or null: it may not be blank, longer than 255 characters, or
 * hold a comma (label parameters are comma-separated lists). Messages are for the `title` attribute.
 */
export function labelTitleProblem(title: string): string | null {
  if (title.trim().length === 0) return "can't be blank";
  if (title.length > 255) return "is too long (maximum is 255 characters)";
  if (title.includes(",")) return "is invalid";
  return null;
}
