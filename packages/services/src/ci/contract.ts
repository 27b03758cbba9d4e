/**
 * The names the server side of CI codes against, from the contract with `@kiln/ci` and
 * `@kiln/domain`'s CI tables (being written on another branch). Until they land, the two state
 * functions below stand in for domain's; on the merge this file re-exports theirs instead.
 */

export type BuildStatus =
  | "created"
  | "pending"
  | "running"
  | "success"
  | "failed"
  | "canceled"
  | "skipped"
  | "manual";
export type PipelineStatus = BuildStatus;
export type JobWhen = "on_success" | "on_failure" | "always" | "manual";

/** What the pipeline is for; `only`/`except` are decided against it. */
export interface PipelineContext {
  ref: string;
  tag: boolean;
  source: "push" | "trigger" | "api" | "web";
}

/** One job of a plan (see `@kiln/ci`). */
export interface JobPlan {
  name: string;
  stage: string;
  stageIndex: number;
  commands: string;
  when: JobWhen;
  allowFailure: boolean;
  tags: string[];
  variables: { key: string; value: string; public: boolean }[];
  options: Record<string, unknown>;
  environment?: string;
}

/** The jobs that run for a context, and the stages. */
export interface PipelinePlan {
  stages: string[];
  jobs: JobPlan[];
}

export type PlanResult = { ok: true; plan: PipelinePlan } | { ok: false; error: string };

/** `@kiln/ci`'s `planPipeline`: parses `.gitlab-ci.yml` and keeps the jobs that run for the context. */
export type PlanPipeline = (yamlText: string, context: PipelineContext) => PlanResult;

export const FINISHED_BUILD_STATUSES: readonly BuildStatus[] = ["success", "failed", "canceled", "skipped"];

/** §7.4: a pipeline's status from its latest builds; allowed failures count as success. */
export function pipelineStatusOf(
  builds: readonly { status: BuildStatus; allowFailure: boolean }[],
): PipelineStatus {
  const statuses = builds
    .filter((build) => !(build.allowFailure && (build.status === "failed" || build.status === "canceled")))
    .map((build) => (build.status === "manual" ? "skipped" : build.status));
  const all = (...allowed: BuildStatus[]) => statuses.every((status) => allowed.includes(status));
  if (all("skipped")) return "skipped";
  if (all("success")) return "success";
  if (all("created")) return "created";
  if (all("success", "skipped")) return "success";
  if (all("success", "skipped", "canceled")) return "canceled";
  if (all("created", "skipped", "pending")) return "pending";
  if (statuses.some((status) => status === "running" || status === "pending" || status === "created")) {
    return "running";
  }
  return "failed";
}

interface ProcessedBuild {
  id: number;
  stageIndex: number;
  status: BuildStatus;
  when: JobWhen;
  allowFailure: boolean;
}

/** 8.x's ProcessPipelineService: the `created` builds that move now, and where to. */
export function buildsToProcess(
  builds: readonly ProcessedBuild[],
): { id: number; status: "pending" | "skipped" | "manual" }[] {
  const moves: { id: number; status: "pending" | "skipped" | "manual" }[] = [];
  const stages = [...new Set(builds.map((build) => build.stageIndex))].sort((a, b) => a - b);
  const decided = new Map<number, BuildStatus>();
  for (const stage of stages) {
    const earlier = builds
      .filter((build) => build.stageIndex < stage)
      .map((build) => ({ ...build, status: decided.get(build.id) ?? build.status }));
    const prior = pipelineStatusOf(earlier);
    if (!(FINISHED_BUILD_STATUSES as readonly string[]).includes(prior)) break;
    for (const build of builds) {
      if (build.stageIndex !== stage || build.status !== "created") continue;
      const status = decide(build.when, prior);
      decided.set(build.id, status);
      moves.push({ id: build.id, status });
    }
    if (moves.some((move) => move.status === "pending")) break;
  }
  return moves;
}

function decide(when: JobWhen, prior: PipelineStatus): "pending" | "skipped" | "manual" {
  const succeeded = prior === "success" || prior === "skipped";
  if (when === "manual") return "manual";
  if (when === "always") return "pending";
  if (when === "on_failure") return prior === "failed" ? "pending" : "skipped";
  return succeeded ? "pending" : "skipped";
}

/** `@kiln/ci`'s `predefinedVariables`: the GitLab `CI_*` variables of a build (§7.3), in 8.x's order. */
export function predefinedVariables(build: {
  id: number;
  token?: string;
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  stage: string;
  name: string;
  projectId: number;
  projectPath: string;
  projectUrl: string;
  projectDir?: string;
  serverName: string;
  serverVersion: string;
  serverUrl: string;
  triggered: boolean;
  userId?: number;
  userEmail?: string;
}): { key: string; value: string; public: boolean }[] {
  const variable = (key: string, value: string, isPublic = true) => ({ key, value, public: isPublic });
  const slash = build.projectPath.lastIndexOf("/");
  return [
    variable("CI", "true"),
    variable("GITLAB_CI", "true"),
    variable("CI_SERVER_NAME", build.serverName),
    variable("CI_SERVER_VERSION", build.serverVersion),
    variable("CI_BUILD_ID", String(build.id)),
    ...(build.token === undefined ? [] : [variable("CI_BUILD_TOKEN", build.token, false)]),
    variable("CI_BUILD_REF", build.sha),
    variable("CI_BUILD_BEFORE_SHA", build.beforeSha),
    variable("CI_BUILD_REF_NAME", build.ref),
    variable("CI_BUILD_NAME", build.name),
    variable("CI_BUILD_STAGE", build.stage),
    ...(build.tag ? [variable("CI_BUILD_TAG", build.ref)] : []),
    ...(build.triggered ? [variable("CI_BUILD_TRIGGERED", "true")] : []),
    variable("CI_PROJECT_ID", String(build.projectId)),
    variable("CI_PROJECT_NAME", build.projectPath.slice(slash + 1)),
    variable("CI_PROJECT_PATH", build.projectPath),
    variable("CI_PROJECT_NAMESPACE", build.projectPath.slice(0, Math.max(slash, 0))),
    variable("CI_PROJECT_URL", build.projectUrl),
    ...(build.userId === undefined ? [] : [variable("GITLAB_USER_ID", String(build.userId))]),
    ...(build.userEmail === undefined ? [] : [variable("GITLAB_USER_EMAIL", build.userEmail)]),
  ];
}
