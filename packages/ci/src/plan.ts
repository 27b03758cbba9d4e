import { checkJobs } from "./checks.js";
import { type ComposedJob, composeJobs, stagesOf } from "./compose.js";
import { loadYaml } from "./load.js";
import { runsFor } from "./refs.js";
import type { JobPlan, PipelineContext, PlanResult } from "./types.js";
import { validateConfig } from "./validate.js";
import { isMap } from "./values.js";

/**
 * Parses `.gitlab-ci.yml` text and keeps the jobs that run for `context`, as GitLab 8.x's
 * `Ci::GitlabCiYamlProcessor` does: a file that is not valid gives 8.x's message (the first error
 * it finds), which the pipeline shows as `yaml invalid: ` + the message. Never throws: hostile
 * input (huge, deeply nested or alias-bombed documents included) gives `{ ok: false }`.
 */
export function planPipeline(yamlText: string, context: PipelineContext): PlanResult {
  try {
    const loaded = loadYaml(yamlText);
    if (!loaded.ok) return loaded;
    const config = loaded.value;
    if (!isMap(config)) return { ok: false, error: "Invalid configuration format" };
    const [invalid] = validateConfig(config);
    if (invalid !== undefined) return { ok: false, error: invalid };
    const stages = stagesOf(config);
    const jobs = composeJobs(config);
    const failure = checkJobs(jobs, stages);
    if (failure) return { ok: false, error: failure };
    const planned = jobs
      .filter((job) => runsFor(job.only, job.except, context))
      .map((job) => jobPlan(job, stages.indexOf(job.stage)))
      .sort((a, b) => a.stageIndex - b.stageIndex);
    return { ok: true, plan: { stages, jobs: planned } };
  } catch {
    // What 8.x answers for a failure it did not foresee.
    return { ok: false, error: "Undefined error" };
  }
}

function jobPlan(job: ComposedJob, stageIndex: number): JobPlan {
  const plan: JobPlan = {
    name: job.name,
    stage: job.stage,
    stageIndex,
    commands: job.commands,
    when: job.when,
    allowFailure: job.allowFailure,
    tags: job.tags,
    variables: job.variables,
    options: job.options,
  };
  if (job.options.environment !== undefined) plan.environment = job.options.environment;
  return plan;
}
