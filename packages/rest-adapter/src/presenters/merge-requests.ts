import type { MergeRequestChangesJson } from "@kiln/schemas";
import type { MergeRequestChanges } from "@kiln/services";
import type { PresentContext } from "../route.js";
import { presentDiff } from "./commits.js";
import { presentMergeRequest } from "./issuables.js";

/** `GET …/changes`: the merge request, then `changes` with each file's diff as the Compare entity shows it. */
export function presentMergeRequestChanges(
  result: MergeRequestChanges,
  context: PresentContext,
): MergeRequestChangesJson {
  return { ...presentMergeRequest(result.view, context), changes: result.changes.map(presentDiff) };
}
