/**
 * Who may do what to a CI runner, as GitLab 8.x's `lib/api/runners.rb` decides it. Administrators
 * may do everything but enable a shared or locked runner on a project; others act only on the
 * specific runners of projects they master (8.x's `ci_authorized_runners`).
 */

/** What the rules need to know of a runner. */
export interface RunnerFacts {
  isShared: boolean;
  locked: boolean;
  /** How many projects the runner is enabled on. */
  projectCount: number;
}

/** Who asks about a runner. */
export interface RunnerViewer {
  isAdmin: boolean;
  /** The runner is specific and serves a project the viewer masters (8.x's `user_can_access_runner?`). */
  manages: boolean;
}

/** What may be done to a runner through the v3 API. */
export type RunnerAction = "show" | "update" | "delete" | "enable";

/** Why a runner action is refused (each a 403 with 8.x's reason). */
export type RunnerRefusal = "runner_shared" | "runner_locked" | "runner_no_access" | "runner_many_projects";

/**
 * Why `viewer` may not do `action` to the runner, or null when they may. Shared runners are shown
 * to anyone; deleting needs the runner to serve one project at most; enabling refuses shared and
 * locked runners to everyone, administrators included, as 8.x does.
 */
export function runnerRefusal(
  action: RunnerAction,
  viewer: RunnerViewer,
  runner: RunnerFacts,
): RunnerRefusal | null {
  if (action === "enable") {
    if (runner.isShared) return "runner_shared";
    if (runner.locked) return "runner_locked";
  }
  if (viewer.isAdmin) return null;
  if (action === "show") return runner.isShared || viewer.manages ? null : "runner_no_access";
  if (action !== "enable" && runner.isShared) return "runner_shared";
  if (action === "delete" && runner.projectCount > 1) return "runner_many_projects";
  return viewer.manages ? null : "runner_no_access";
}

/** True when the runner's details show its token: to administrators, and for specific runners. */
export const showsRunnerToken = (viewer: RunnerViewer, runner: RunnerFacts): boolean =>
  viewer.isAdmin || !runner.isShared;

/** Disabling a runner on its only project is refused: the runner is to be removed instead. */
export const disableRefusal = (runner: RunnerFacts): "runner_last_project" | null =>
  runner.projectCount <= 1 ? "runner_last_project" : null;
