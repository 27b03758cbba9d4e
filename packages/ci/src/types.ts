import type { JobWhen } from "@kiln/domain";

/** What the pipeline is for; `only`/`except` are decided against it. */
export interface PipelineContext {
  /** The short name of the ref: `main`, `v1.0`. */
  ref: string;
  /** Whether the ref is a tag. */
  tag: boolean;
  /** `trigger` matches `only: [triggers]`; `api`: created through the API. */
  source: "push" | "trigger" | "api" | "web";
  /**
   * The project's `namespace/path`, against which a pattern's `@namespace/project` suffix
   * (`master@group/project`) is matched; without it such a pattern never matches.
   */
  projectPath?: string;
}

/** The plan of a pipeline, or why the file is not valid (8.x's wording). */
export type PlanResult = { ok: true; plan: PipelinePlan } | { ok: false; error: string };

/** The stages of a pipeline and the jobs that run for its context. */
export interface PipelinePlan {
  /** In order; `["build", "test", "deploy"]` unless the file says otherwise. */
  stages: string[];
  /** The jobs that run for the context, by stage index then file order. */
  jobs: JobPlan[];
}

/** A variable handed to a build. */
export interface BuildVariable {
  key: string;
  value: string;
  /** False for secrets, which the runner must not show. */
  public: boolean;
}

/** What the runner API hands over as `options` (8.x's shape, snake_case keys as the runner expects). */
export interface JobOptions {
  image?: string;
  services?: string[];
  artifacts?: {
    name?: string;
    paths?: string[];
    untracked?: boolean;
    when?: "on_success" | "on_failure" | "always";
    expire_in?: string;
  };
  cache?: { key?: string; paths?: string[]; untracked?: boolean };
  /** Absent: every earlier stage's builds. */
  dependencies?: string[];
  after_script?: string[];
  /** The environment's name. */
  environment?: string;
}

/** One job of a pipeline, as a build is created from it. */
export interface JobPlan {
  name: string;
  stage: string;
  /** The index of `stage` in the plan's stages. */
  stageIndex: number;
  /** `before_script` (the job's, else the file's) then `script`, joined by newlines (8.x's `commands`). */
  commands: string;
  when: JobWhen;
  allowFailure: boolean;
  tags: string[];
  /** The file's variables, global ones overridden by the job's (8.x's `yaml_variables`), all public. */
  variables: BuildVariable[];
  options: JobOptions;
  /** The environment's name. */
  environment?: string;
}
