import type { BranchJson, RawCommitJson, TagJson } from "@kiln/schemas";
import type { BranchView, TagView } from "@kiln/services";

type RawCommit = BranchView["commit"];

/** A commit as branches and tags show it: GitLab's raw commit hash, message as stored. */
export function presentRawCommit(commit: RawCommit): RawCommitJson {
  return {
    id: commit.id,
    message: commit.message,
    parent_ids: commit.parent_ids,
    authored_date: commit.authored_date,
    author_name: commit.author_name,
    author_email: commit.author_email,
    committed_date: commit.committed_date,
    committer_name: commit.committer_name,
    committer_email: commit.committer_email,
  };
}

/** The spec's Branch: an unprotected branch shows both developer flags false. */
export function presentBranch(branch: BranchView): BranchJson {
  return {
    name: branch.name,
    protected: branch.protection !== null,
    developers_can_push: branch.protection?.developers_can_push ?? false,
    developers_can_merge: branch.protection?.developers_can_merge ?? false,
    commit: presentRawCommit(branch.commit),
  };
}

/**
 * GitLab's RepoTag: the annotation without its final newline (GitLab chomps it), null for a
 * lightweight tag; Kiln keeps no releases, so `release` is always null.
 */
export function presentTag(tag: TagView): TagJson {
  return {
    name: tag.name,
    message: tag.message === null ? null : tag.message.replace(/\r?\n$/, ""),
    commit: tag.commit && presentRawCommit(tag.commit),
    release: null,
  };
}
