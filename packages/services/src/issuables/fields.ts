import { DEFAULT_LABEL_COLOR, invalid, type Label, labelTitleProblem } from "@kiln/domain";
import { type Stores, UniqueViolation } from "@kiln/storage-kysely";
import type { ProjectAccess } from "../projects/access.js";

// How the fields of an issue or merge request request become stored values: who may set which,
// and what ids and names that match nothing mean (GitLab 8.x leaves the field empty rather than
// failing).

/**
 * True when the caller may set an issue's assignee, milestone, labels and due date: reporters and
 * above (`admin_issue`). GitLab 8.x silently drops these fields for everyone else.
 */
export function setsIssueMetadata(access: ProjectAccess): boolean {
  return access.allows("admin_issue");
}

/** The assignee a requested `assignee_id` stands for: null when it is null, 0 or names no user. */
export async function resolveAssignee(stores: Stores, assigneeId: number | null): Promise<number | null> {
  if (assigneeId === null || assigneeId <= 0) return null;
  const user = await stores.users.findById(assigneeId);
  return user ? user.id : null;
}

/** The milestone a requested `milestone_id` stands for: null unless it is a milestone of this project. */
export async function resolveMilestone(
  stores: Stores,
  projectId: number,
  milestoneId: number | null,
): Promise<number | null> {
  if (milestoneId === null || milestoneId <= 0) return null;
  const milestone = await stores.milestones.findById(milestoneId);
  return milestone && milestone.project_id === projectId ? milestone.id : null;
}

/** What a new issue or merge request is filed with, as requested. */
export interface RequestedFields {
  labels?: readonly string[] | undefined;
  assignee_id?: number | null | undefined;
  milestone_id?: number | null | undefined;
}

/**
 * The labels (created when missing), assignee and milestone a new issue or merge request gets:
 * what was requested when the caller may set them (`allowed`), nothing otherwise.
 */
export async function newIssuableFields(
  stores: Stores,
  projectId: number,
  allowed: boolean,
  requested: RequestedFields,
): Promise<{ labelIds: number[]; assigneeId: number | null; milestoneId: number | null }> {
  if (!allowed) return { labelIds: [], assigneeId: null, milestoneId: null };
  const labels = requested.labels ? await ensureLabels(stores, projectId, requested.labels) : [];
  return {
    labelIds: labels.map((label) => label.id),
    assigneeId: await resolveAssignee(stores, requested.assignee_id ?? null),
    milestoneId: await resolveMilestone(stores, projectId, requested.milestone_id ?? null),
  };
}

/**
 * The project's labels with these titles, creating the missing ones in GitLab's default colour.
 * Runs outside the issue's transaction: a label created meanwhile by someone else is found again.
 */
export async function ensureLabels(
  stores: Stores,
  projectId: number,
  titles: readonly string[],
): Promise<Label[]> {
  if (titles.length === 0) return [];
  for (const title of titles) {
    const problem = labelTitleProblem(title);
    if (problem) throw invalid({ labels: [problem] });
  }
  const found = await stores.labels.findByTitles(projectId, titles);
  const have = new Set(found.map((label) => label.title));
  for (const title of titles.filter((t) => !have.has(t))) {
    try {
      found.push(
        await stores.labels.create({
          project_id: projectId,
          title,
          color: DEFAULT_LABEL_COLOR,
          description: null,
          priority: null,
        }),
      );
    } catch (error) {
      if (!(error instanceof UniqueViolation)) throw error;
      const raced = await stores.labels.findByTitle(projectId, title);
      if (raced) found.push(raced);
    }
  }
  return found;
}
