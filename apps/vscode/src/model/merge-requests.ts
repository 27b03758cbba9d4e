import type { CiStatus, DiffJson, MergeRequestJson } from "@kiln/schemas";
import { type StatusIcon, statusIcon, statusWords } from "./builds.js";

/** The lists of the Merge Requests view. */
export type MergeRequestCategory = "assigned" | "created" | "repository";

/** A heading of the Merge Requests view with the merge requests under it. */
export interface CategoryNode {
  kind: "category";
  key: string;
  label: string;
  /** Shown when the list is empty. */
  empty: string;
  mergeRequests: MergeRequestLine[];
}

/** One merge request as the view shows it. */
export interface MergeRequestLine {
  kind: "mergeRequest";
  key: string;
  label: string;
  description: string;
  tooltip: string;
  icon: MergeRequestIcon | StatusIcon;
  /** Whether it can still be accepted (opened or reopened): the item offers "Accept". */
  open: boolean;
  mergeRequest: MergeRequestJson;
}

/** A codicon name and the theme colour that goes with it. */
export interface MergeRequestIcon {
  id: "git-pull-request" | "git-pull-request-draft" | "git-merge" | "git-pull-request-closed" | "warning";
  color?: "charts.green" | "charts.red" | "charts.yellow" | "charts.purple";
}

/** `merge_status` in words. */
const MERGE_STATUS_WORDS: Record<MergeRequestJson["merge_status"], string> = {
  can_be_merged: "can be merged",
  cannot_be_merged: "has conflicts",
  unchecked: "not checked yet",
};

/** The icon of a merge request: its state, and its mergeability while open. */
function iconOf(mr: MergeRequestJson): MergeRequestIcon {
  if (mr.state === "merged") return { id: "git-merge", color: "charts.purple" };
  if (mr.state === "closed") return { id: "git-pull-request-closed", color: "charts.red" };
  if (mr.merge_status === "cannot_be_merged") return { id: "warning", color: "charts.yellow" };
  if (mr.work_in_progress) return { id: "git-pull-request-draft" };
  return { id: "git-pull-request", color: "charts.green" };
}

/** Whether a merge request in this state can be accepted. */
export const isOpen = (mr: Pick<MergeRequestJson, "state">): boolean =>
  mr.state === "opened" || mr.state === "reopened";

/**
 * One merge request's line: `!iid title`, then state, WIP, branches and mergeability; while open,
 * the icon of its latest pipeline's status when it has one (`pipeline`), else of its state.
 */
export function mergeRequestLine(
  mr: MergeRequestJson,
  category: MergeRequestCategory,
  pipeline?: CiStatus,
): MergeRequestLine {
  const open = isOpen(mr);
  const shown = open ? pipeline : undefined;
  const status = `${open ? MERGE_STATUS_WORDS[mr.merge_status] : mr.state}${shown ? ` · pipeline ${statusWords(shown)}` : ""}`;
  const wip = mr.work_in_progress ? "WIP · " : "";
  const assignee = mr.assignee ? `, assigned to ${mr.assignee.name}` : "";
  return {
    kind: "mergeRequest",
    key: `${category}:${mr.id}`,
    label: `!${mr.iid} ${mr.title}`,
    description: `${wip}${mr.source_branch} → ${mr.target_branch} · ${status}`,
    tooltip: `!${mr.iid} ${mr.title}\n${mr.state}${mr.work_in_progress ? " (WIP)" : ""}, ${MERGE_STATUS_WORDS[mr.merge_status]}\n${mr.source_branch} → ${mr.target_branch}\nby ${mr.author.name}${assignee}${shown ? `\npipeline ${statusWords(shown)}` : ""}`,
    icon: shown ? statusIcon(shown) : iconOf(mr),
    open,
    mergeRequest: mr,
  };
}

/** What the view lists: the caller's merge requests, and this repository's open ones. */
export interface MergeRequestLists {
  assigned: readonly MergeRequestJson[];
  created: readonly MergeRequestJson[];
  /** Null when the workspace has no repository on a signed-in instance. */
  repository: { name: string; mergeRequests: readonly MergeRequestJson[] } | null;
  /** The status of each one's latest pipeline, by its source (see `sourceKey`). */
  pipelines?: Readonly<Record<string, CiStatus>>;
}

/** Where a merge request's pipelines run: its source project and branch. */
export const sourceKey = (mr: Pick<MergeRequestJson, "source_project_id" | "source_branch">): string =>
  `${mr.source_project_id}|${mr.source_branch}`;

/** The view's headings with their merge requests. */
export function mergeRequestTree(lists: MergeRequestLists): CategoryNode[] {
  const category = (
    id: MergeRequestCategory,
    label: string,
    empty: string,
    mrs: readonly MergeRequestJson[],
  ): CategoryNode => ({
    kind: "category",
    key: `category:${id}`,
    label,
    empty,
    mergeRequests: mrs.map((mr) => mergeRequestLine(mr, id, lists.pipelines?.[sourceKey(mr)])),
  });
  const nodes = [
    category("assigned", "Assigned to me", "No merge request is assigned to you", lists.assigned),
    category("created", "Created by me", "You have no open merge request", lists.created),
  ];
  if (lists.repository) {
    nodes.push(
      category(
        "repository",
        `${lists.repository.name}: open`,
        "This repository has no open merge request",
        lists.repository.mergeRequests,
      ),
    );
  }
  return nodes;
}

/** A file a merge request changes, and the two sides its diff compares. */
export interface ChangedFile {
  kind: "file";
  key: string;
  label: string;
  /** The directory, and how the file changed. */
  description: string;
  /** A = added, D = deleted, R = renamed, M = modified. */
  status: "A" | "D" | "R" | "M";
  /** The side before (in the target branch); null for an added file. */
  base: FileSide | null;
  /** The side after (at the source head); null for a deleted file. */
  head: FileSide | null;
}

/** One side of a diff: a file at a revision of a project. */
export interface FileSide {
  projectId: number;
  ref: string;
  path: string;
}

/** The changed files of a merge request, base at its target branch and head at its `sha`. */
export function changedFiles(mr: MergeRequestJson, changes: readonly DiffJson[]): ChangedFile[] {
  const headRef = mr.sha ?? mr.source_branch;
  return changes.map((change) => {
    const status = change.new_file ? "A" : change.deleted_file ? "D" : change.renamed_file ? "R" : "M";
    const slash = change.new_path.lastIndexOf("/");
    const directory = slash < 0 ? "" : change.new_path.slice(0, slash);
    const renamed = status === "R" ? ` ← ${change.old_path}` : "";
    return {
      kind: "file",
      key: `file:${mr.id}:${change.new_path}`,
      label: change.new_path.slice(slash + 1),
      description: `${directory}${renamed}`.trim(),
      status,
      base:
        status === "A"
          ? null
          : { projectId: mr.target_project_id, ref: mr.target_branch, path: change.old_path },
      head: status === "D" ? null : { projectId: mr.source_project_id, ref: headRef, path: change.new_path },
    };
  });
}
