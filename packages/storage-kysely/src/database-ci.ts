import type { Generated } from "kysely";

// The CI tables of `Database` (migration 0013_ci), apart from the rest for length.

/** `ci_pipelines`: one per commit and ref a push, trigger or API call built; status as 8.x computes it. */
export interface CiPipelinesTable {
  id: Generated<number>;
  project_id: number;
  /** The short ref name (`main`, `v1.0`). */
  ref: string;
  tag: number;
  sha: string;
  before_sha: string | null;
  status: string;
  /** `push`, `trigger`, `api`, `web` or `external` (made for a commit status). */
  source: string;
  /** Why `.gitlab-ci.yml` was refused (the pipeline is `failed`), or null. */
  yaml_errors: string | null;
  user_id: number | null;
  /** A trigger's variables, as a JSON array of `{key, value}`, or null. */
  trigger_variables: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** Seconds from start to finish. */
  duration: number | null;
  created_at: string;
  updated_at: string;
}

/**
 * `ci_builds`: the jobs of pipelines (`type` `build`) and external commit statuses (`generic`).
 * Ids are global. `options`, `yaml_variables` and `tag_list` are JSON. The token exists (as a
 * digest) only while a runner runs the build; the trace is a file of `trace_size` bytes.
 */
export interface CiBuildsTable {
  id: Generated<number>;
  pipeline_id: number;
  project_id: number;
  type: Generated<"build" | "generic">;
  name: string;
  stage: string;
  stage_idx: number;
  status: string;
  when: Generated<string>;
  allow_failure: Generated<number>;
  commands: Generated<string>;
  options: Generated<string>;
  yaml_variables: Generated<string>;
  tag_list: Generated<string>;
  ref: string;
  tag: Generated<number>;
  sha: string;
  user_id: number | null;
  runner_id: number | null;
  token_digest: string | null;
  trace_size: Generated<number>;
  /** The artifacts archive's file name as uploaded, or null for none. */
  artifacts_file: string | null;
  artifacts_size: number | null;
  artifacts_expire_at: string | null;
  erased_at: string | null;
  erased_by_id: number | null;
  /** 1 once a newer build of the same name in the pipeline replaced it (retry). */
  retried: Generated<number>;
  description: string | null;
  target_url: string | null;
  queued_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

/** `ci_runners`: shared runners and project (specific) runners; `tag_list` is JSON. */
export interface CiRunnersTable {
  id: Generated<number>;
  token_digest: string;
  token_sealed: string;
  description: string | null;
  active: Generated<number>;
  is_shared: Generated<number>;
  name: string | null;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  tag_list: Generated<string>;
  run_untagged: Generated<number>;
  locked: Generated<number>;
  contacted_at: string | null;
  created_at: string;
}

/** `ci_runner_projects`: which projects a specific runner serves. */
export interface CiRunnerProjectsTable {
  id: Generated<number>;
  runner_id: number;
  project_id: number;
  created_at: string;
}

/** `ci_variables`: a project's secret variables, values sealed. */
export interface CiVariablesTable {
  id: Generated<number>;
  project_id: number;
  key: string;
  value_sealed: string;
  created_at: string;
}

/** `ci_triggers`: tokens that start pipelines; deleted ones keep their row (`deleted_at`). */
export interface CiTriggersTable {
  id: Generated<number>;
  project_id: number;
  token_digest: string;
  token_sealed: string;
  deleted_at: string | null;
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
}
