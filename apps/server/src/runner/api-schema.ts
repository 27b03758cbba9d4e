import { z } from "zod";

/**
 * What the runner API of GitLab 8.x (`/ci/api/v1`, lib/ci/api/entities.rb) hands a runner, as far
 * as a shell executor uses it. Unknown keys are dropped; absent optional ones take 8.x's meaning.
 */

const variable = z.object({ key: z.string(), value: z.string().nullish(), public: z.boolean().optional() });

/** `artifacts:` of a job: what to upload after the script, and when. */
const artifactsOptions = z.object({
  name: z.string().nullish(),
  paths: z.array(z.string()).nullish(),
  untracked: z.boolean().nullish(),
  when: z.enum(["on_success", "on_failure", "always"]).nullish(),
  expire_in: z.string().nullish(),
});

/** `cache:` of a job: what to keep between builds on this runner, under which key. */
const cacheOptions = z.object({
  key: z.string().nullish(),
  paths: z.array(z.string()).nullish(),
  untracked: z.boolean().nullish(),
});

const buildOptions = z.object({
  image: z.string().nullish(),
  services: z.array(z.string()).nullish(),
  artifacts: artifactsOptions.nullish(),
  cache: cacheOptions.nullish(),
  after_script: z.array(z.string()).nullish(),
});

/** A build of an earlier stage whose artifacts this one downloads. */
const dependency = z.object({
  id: z.number().int(),
  name: z.string(),
  token: z.string().nullish(),
  artifacts_file: z.object({ filename: z.string().nullish() }).nullish(),
});

/** 8.x's BuildDetails, the answer of `POST /ci/api/v1/builds/register`. */
export const buildDetailsSchema = z.object({
  id: z.number().int(),
  token: z.string(),
  ref: z.string(),
  tag: z.boolean().nullish(),
  sha: z.string().regex(/^[0-9a-f]{40}$/),
  name: z.string(),
  stage: z.string().nullish(),
  project_id: z.number().int(),
  project_name: z.string().nullish(),
  commands: z.string().nullish(),
  repo_url: z.string(),
  allow_git_fetch: z.boolean().nullish(),
  timeout: z.number().nullish(),
  variables: z.array(variable).nullish(),
  options: buildOptions.nullish(),
  depends_on_builds: z.array(dependency).nullish(),
});

export type BuildDetails = z.infer<typeof buildDetailsSchema>;
export type BuildVariable = z.infer<typeof variable>;
export type ArtifactsOptions = z.infer<typeof artifactsOptions>;
export type CacheOptions = z.infer<typeof cacheOptions>;
export type BuildDependency = z.infer<typeof dependency>;

/** The answer of `POST /ci/api/v1/runners/register`. */
export const registeredRunnerSchema = z.object({ id: z.number().int(), token: z.string().min(1) });
