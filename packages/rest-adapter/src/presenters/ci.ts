import { type BuildView, type CommitStatusView, presentBuild, presentUserBasic } from "@kiln/services";
import type { PresentContext } from "../route.js";

// Shared with the tRPC procedures: the services present these shapes.
export { presentBuild, presentPipeline } from "@kiln/services";

/** The build of an erase or keep answer: `download_url` (null) in place of `artifacts_file`, as the spec shows. */
export function presentBuildWithDownload(view: BuildView, context: PresentContext) {
  const { artifacts_file: _file, ...rest } = presentBuild(view, context);
  return { ...rest, download_url: null };
}

/** 8.x's `CommitStatus`: an external status or a build, as the commit statuses API shows it. */
export function presentCommitStatus({ status, author }: CommitStatusView, context: PresentContext) {
  return {
    id: status.id,
    sha: status.sha,
    ref: status.ref,
    status: status.status,
    name: status.name,
    target_url: status.target_url,
    description: status.description,
    created_at: status.created_at,
    started_at: status.started_at,
    finished_at: status.finished_at,
    allow_failure: status.allow_failure,
    author: author ? presentUserBasic(author, context) : null,
  };
}
