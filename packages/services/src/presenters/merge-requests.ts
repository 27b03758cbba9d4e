import type { RepoDiff } from "@kiln/git";
import type { DiffJson, MergeRequestChangesJson } from "@kiln/schemas";
import type { MergeRequestChanges } from "../merge-requests/reads.js";
import { presentMergeRequest } from "./issuables.js";
import type { PresentContext } from "./present-context.js";

/** GitLab's RepoDiff, fields in the order its Compare entity exposes them. */
export function presentDiff(diff: RepoDiff): DiffJson {
  return {
    old_path: diff.old_path,
    new_path: diff.new_path,
    a_mode: diff.a_mode,
    b_mode: diff.b_mode,
    diff: diff.diff,
    new_file: diff.new_file,
    renamed_file: diff.renamed_file,
    deleted_file: diff.deleted_file,
  };
}

/** `GET …/changes`: the merge request, then `changes` with each file's diff as the Compare entity shows it. */
export function presentMergeRequestChanges(
  result: MergeRequestChanges,
  context: PresentContext,
): MergeRequestChangesJson {
  return { ...presentMergeRequest(result.view, context), changes: result.changes.map(presentDiff) };
}
