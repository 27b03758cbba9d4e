import type { AcceptMergeRequestInput, MergeRequestJson } from "@kiln/schemas";
import { isOpen } from "./merge-requests.js";

/**
 * The decisions of "Accept merge request", apart from the editor: what the confirmation says, what
 * it warns about, whether it is worth asking at all, what the request carries, and how a refusal
 * reads in plain words.
 */

/** The local repository as it bears on a merge: the branch checked out and how it stands. */
export interface LocalBranch {
  /** The branch checked out, null when detached. */
  name: string | null;
  /** The local head commit. */
  head: string | null;
  /** Local commits not on the upstream, when git knows (undefined without an upstream). */
  ahead?: number;
  /** Whether the working tree has changes not committed. */
  dirty: boolean;
}

/** A pipeline's status as the confirmation shows it, once the server serves CI. */
export type PipelineStatus = "pending" | "running" | "success" | "failed" | "canceled" | "skipped";

/** What the user is asked before a merge. */
export interface AcceptPlan {
  /** The modal's first line. */
  message: string;
  /** The lines under it: source → target, mergeability, head, pipeline, then warnings. */
  detail: string;
  /** Warnings about the local branch, also in `detail`. */
  warnings: string[];
  /** Whether to offer "merge when build succeeds" (a pipeline is still running). */
  offerWhenBuildSucceeds: boolean;
}

/** Why asking makes no sense: the server would refuse whatever the user chose. */
export interface AcceptBlocked {
  blocked: string;
}

const short = (sha: string): string => sha.slice(0, 8);

/**
 * What to ask before accepting `mr` as the user saw it, or why not to ask. `local` is the
 * workspace's repository when it is the project's; `pipeline` the source head's pipeline, when the
 * server serves CI.
 */
export function planAccept(
  mr: MergeRequestJson,
  local: LocalBranch | null,
  pipeline?: PipelineStatus | null,
): AcceptPlan | AcceptBlocked {
  if (!isOpen(mr)) return { blocked: `!${mr.iid} is ${mr.state}: there is nothing to merge.` };
  if (mr.work_in_progress) {
    return { blocked: `!${mr.iid} is a work in progress: remove "WIP" from its title before merging.` };
  }
  if (mr.merge_status === "cannot_be_merged") {
    return { blocked: `!${mr.iid} has conflicts with ${mr.target_branch}: resolve them and push first.` };
  }
  if (mr.sha === null) return { blocked: `!${mr.iid} has no commits to merge.` };

  const warnings = localWarnings(mr, local);
  const lines = [
    `${mr.source_branch} → ${mr.target_branch}`,
    mr.merge_status === "can_be_merged"
      ? "Merges cleanly."
      : "Mergeability not checked yet: the server checks it now.",
    `Head ${short(mr.sha)}: the merge is refused if the branch moved since.`,
  ];
  if (pipeline) lines.push(`Pipeline: ${pipeline}.`);
  return {
    message: `Merge !${mr.iid} "${mr.title}" into ${mr.target_branch}?`,
    detail: [...lines, ...warnings.map((warning) => `⚠ ${warning}`)].join("\n"),
    warnings,
    offerWhenBuildSucceeds: pipeline === "pending" || pipeline === "running",
  };
}

/** Warnings when the checked-out branch is the source and differs from what the server will merge. */
function localWarnings(mr: MergeRequestJson, local: LocalBranch | null): string[] {
  if (!local || local.name !== mr.source_branch) return [];
  const warnings: string[] = [];
  if (local.ahead !== undefined && local.ahead > 0) {
    const commits = local.ahead === 1 ? "1 local commit is" : `${local.ahead} local commits are`;
    warnings.push(`${commits} not pushed: the merge will not include ${local.ahead === 1 ? "it" : "them"}.`);
  }
  if (local.head && mr.sha && local.head !== mr.sha && !(local.ahead && local.ahead > 0)) {
    warnings.push(`Your ${local.name} is at ${short(local.head)}, the merge request at ${short(mr.sha)}.`);
  }
  if (local.dirty) warnings.push("You have changes not committed.");
  return warnings;
}

/** The choices of the confirmation. */
export interface AcceptChoices {
  removeSourceBranch: boolean;
  whenBuildSucceeds: boolean;
}

/** The request: always with the head the user saw, so that a branch that moved is refused (409). */
export function acceptRequest(mr: MergeRequestJson, choices: AcceptChoices): AcceptMergeRequestInput {
  return {
    id: mr.project_id,
    merge_request_id: mr.id,
    ...(mr.sha ? { sha: mr.sha } : {}),
    ...(choices.removeSourceBranch ? { should_remove_source_branch: true } : {}),
    ...(choices.whenBuildSucceeds ? { merge_when_build_succeeds: true } : {}),
  };
}

/** A refused merge as the client reports it: the HTTP status and the domain's failure kind. */
export interface Refusal {
  httpStatus: number;
  kind?: string | undefined;
  message?: string;
}

/** Why a merge was refused, in words a user acts on (GitLab 8.x's statuses for `PUT …/merge`). */
export function explainRefusal(
  mr: Pick<MergeRequestJson, "iid" | "source_branch">,
  refusal: Refusal,
): string {
  switch (refusal.httpStatus) {
    case 401:
      return `You may not merge !${mr.iid}: merging needs developer access to the target branch (or your token was revoked: sign in again).`;
    case 403:
      return `You may not merge !${mr.iid}: the target branch is protected.`;
    case 404:
      return `!${mr.iid} is gone, or you can no longer see its project.`;
    case 405:
      return `!${mr.iid} cannot be merged now: it is a work in progress, has conflicts, or its branch is gone.`;
    case 406:
      return `!${mr.iid} is already merged or closed.`;
    case 409:
      return `${mr.source_branch} moved since you looked: someone pushed to it. Look at the new commits, then merge again.`;
    case 0:
      return `The server could not be reached: ${refusal.message ?? "no answer"}.`;
    default:
      return `The server refused the merge (${refusal.httpStatus}${refusal.kind ? ` ${refusal.kind}` : ""}): ${refusal.message ?? ""}`.trim();
  }
}
