import type { CiFailure } from "@kiln/domain";
import type { Wording } from "./wording.js";

/** Grape's `forbidden!(reason)` of 8.x's CI endpoints: the reason after ` - `, joined by a space. */
const forbiddenWith = (why: string) => () => `403 Forbidden  - ${why}`;

const ARTIFACT_PROBLEMS = {
  not_zip: "the file is not a zip archive",
  unsafe_path: "an entry has an absolute path or leads out with ..",
  unsafe_link: "a link points outside the archive",
  too_large: "the archive unpacks to too much",
} as const;

/** Builds, pipelines, runners, triggers and commit statuses, as 8.x's API words them. */
export const ciWording: Wording<CiFailure> = {
  build_not_retryable: forbiddenWith("Build is not retryable"),
  build_not_erasable: forbiddenWith("Build is not erasable!"),
  build_not_playable: () => '400 (Bad request) "Unplayable Build" not given',
  scope_invalid: () => "Scope contains invalid value(s)",
  runner_shared: forbiddenWith("Runner is shared"),
  runner_locked: forbiddenWith("Runner is locked"),
  runner_no_access: forbiddenWith("No access granted"),
  runner_many_projects: forbiddenWith("Runner associated with more than one project"),
  runner_last_project: forbiddenWith(
    "Only one project associated with the runner. Please remove the runner instead",
  ),
  runner_already_enabled: () => "Runner was already enabled for this project",
  runner_missing: () => "404 Not found",
  trigger_no_builds: () => "No builds created",
  trigger_variables_invalid: () => "variables needs to be a map of key-valued strings",
  status_transition: ({ from, to }) => `Cannot transition status via :${to} from :${from}`,
  commit_refs_not_found: () => "404 References for commit Not Found",
  artifacts_invalid: ({ problem }) => `400 (Bad request) artifacts refused: ${ARTIFACT_PROBLEMS[problem]}`,
};
