import type { ComposedJob } from "./compose.js";

/**
 * The checks 8.x's `GitlabCiYamlProcessor` makes once every entry is valid, job by job in file
 * order: the stage is one of the stages, dependencies name jobs of earlier stages, and an
 * `on_stop` job stops the same environment. Their messages are not downcased, as in 8.x.
 */
export function checkJobs(jobs: readonly ComposedJob[], stages: readonly string[]): string | null {
  const byName = new Map(jobs.map((job) => [job.name, job]));
  for (const job of jobs) {
    const failure =
      checkStage(job, stages) ?? checkDependencies(job, byName, stages) ?? checkOnStop(job, byName);
    if (failure) return failure;
  }
  return null;
}

function checkStage(job: ComposedJob, stages: readonly string[]): string | null {
  if (stages.includes(job.stage)) return null;
  return `${job.name} job: stage parameter should be ${stages.join(", ")}`;
}

function checkDependencies(
  job: ComposedJob,
  byName: ReadonlyMap<string, ComposedJob>,
  stages: readonly string[],
): string | null {
  const stageIndex = stages.indexOf(job.stage);
  for (const dependency of job.dependencies ?? []) {
    const other = byName.get(dependency);
    if (!other) return `${job.name} job: undefined dependency: ${dependency}`;
    const otherIndex = stages.indexOf(other.stage);
    if (otherIndex < 0 || otherIndex >= stageIndex) {
      return `${job.name} job: dependency ${dependency} is not defined in prior stages`;
    }
  }
  return null;
}

function checkOnStop(job: ComposedJob, byName: ReadonlyMap<string, ComposedJob>): string | null {
  const onStop = job.environment?.get("on_stop");
  if (typeof onStop !== "string") return null;
  const stopper = byName.get(onStop);
  const prefix = `${job.name} job: on_stop job ${onStop}`;
  if (!stopper) return `${prefix} is not defined`;
  if (!stopper.environment) return `${prefix} does not have environment defined`;
  if (stopper.environment.get("name") !== job.environment?.get("name"))
    return `${prefix} have different environment name`;
  if (stopper.environment.get("action") !== "stop") return `${prefix} needs to have action stop defined`;
  return null;
}
