import type { CommitDetailJson, CompareJson, DiffJson, TreeObjectJson } from "@kiln/schemas";
import {
  commitTitle,
  presentCommit,
  presentDiff,
  type RepositoryCommitDetail,
  type RepositoryComparison,
  type RepositoryDiff,
  type RepositoryTreeEntry,
} from "@kiln/services";

export { commitTitle, presentCommit };

/** GitLab's RepoCommitDetail. `status` is the status of the commit's pipelines, null without any. */
export function presentCommitDetail(commit: RepositoryCommitDetail): CommitDetailJson {
  return {
    ...presentCommit(commit),
    parent_ids: commit.parent_ids,
    committed_date: commit.committed_date,
    authored_date: commit.authored_date,
    stats: commit.stats,
    status: commit.status ?? null,
  };
}

/** One file of a commit's diff, in the order GitLab 8.x's commit diff answers the fields. */
export function presentCommitDiff(diff: RepositoryDiff): DiffJson {
  return {
    diff: diff.diff,
    new_path: diff.new_path,
    old_path: diff.old_path,
    a_mode: diff.a_mode,
    b_mode: diff.b_mode,
    new_file: diff.new_file,
    renamed_file: diff.renamed_file,
    deleted_file: diff.deleted_file,
  };
}

/** GitLab's Compare; `compare_timeout` says a diff limit cut `diffs`. */
export function presentCompare(comparison: RepositoryComparison): CompareJson {
  return {
    commit: comparison.commit ? presentCommit(comparison.commit) : null,
    commits: comparison.commits.map(presentCommit),
    diffs: comparison.diffs.map(presentDiff),
    compare_timeout: comparison.overflow,
    compare_same_ref: comparison.same,
  };
}

/** GitLab's RepoTreeObject. */
export function presentTreeObject(entry: RepositoryTreeEntry): TreeObjectJson {
  return { id: entry.id, name: entry.name, type: entry.type, path: entry.path, mode: entry.mode };
}
