import type { JobWhen } from "@kiln/domain";
import { environmentValue } from "./entries.js";
import type { BuildVariable, JobOptions } from "./types.js";
import { isHiddenJobKey, isJobKey } from "./validate.js";
import { given, isMap, type YamlMap } from "./values.js";

/** The stages when the file names none. */
export const DEFAULT_STAGES = ["build", "test", "deploy"];

/** A visible job of a valid file, with what it inherits from the file (8.x's `Entry::Job#inherit!`). */
export interface ComposedJob {
  name: string;
  stage: string;
  commands: string;
  when: JobWhen;
  allowFailure: boolean;
  tags: string[];
  only: string[] | undefined;
  except: string[] | undefined;
  dependencies: string[] | undefined;
  variables: BuildVariable[];
  /** The environment as a mapping (`{name, action: "start"}` for a name alone). */
  environment: Map<unknown, unknown> | undefined;
  options: JobOptions;
}

/** The stages of a valid file: `stages`, else the old `types`, else the defaults. */
export function stagesOf(config: YamlMap): string[] {
  const stages = config.get("stages") ?? config.get("types");
  return given(stages) ? (stages as string[]) : DEFAULT_STAGES;
}

/**
 * The visible jobs of a file that passed validation, in file order: a job's `before_script`,
 * `after_script`, `image`, `services`, `cache` and `variables` replace the file's, which it
 * inherits otherwise; its variables are the file's overridden by its own.
 */
export function composeJobs(config: YamlMap): ComposedJob[] {
  const jobs: ComposedJob[] = [];
  for (const [key, value] of config) {
    if (!isJobKey(key) || isHiddenJobKey(key)) continue;
    jobs.push(composeJob(key as string, value as YamlMap, config));
  }
  return jobs;
}

function composeJob(name: string, job: YamlMap, config: YamlMap): ComposedJob {
  const own = (key: string): unknown => (given(job.get(key)) ? job.get(key) : undefined);
  const inherited = (key: string): unknown =>
    own(key) ?? (given(config.get(key)) ? config.get(key) : undefined);
  const script = own("script") as string | string[];
  const commands = [...((inherited("before_script") as string[] | undefined) ?? []), ...[script].flat()];
  const environment = own("environment") === undefined ? undefined : environmentValue(job.get("environment"));
  const options = withoutUndefined<JobOptions>({
    image: inherited("image") as string | undefined,
    services: inherited("services") as string[] | undefined,
    artifacts: definedFields(own("artifacts")) as JobOptions["artifacts"],
    cache: definedFields(inherited("cache")) as JobOptions["cache"],
    dependencies: own("dependencies") as string[] | undefined,
    after_script: inherited("after_script") as string[] | undefined,
    environment: environment?.get("name") as string | undefined,
  });
  return {
    name,
    stage: (own("stage") ?? own("type") ?? "test") as string,
    commands: commands.join("\n"),
    when: (own("when") ?? "on_success") as JobWhen,
    allowFailure: (own("allow_failure") ?? false) as boolean,
    tags: (own("tags") ?? []) as string[],
    only: own("only") as string[] | undefined,
    except: own("except") as string[] | undefined,
    dependencies: options.dependencies,
    variables: variablesOf(config.get("variables"), job.get("variables")),
    environment,
    options,
  };
}

/** 8.x's `yaml_variables`: the file's variables merged with the job's, the job's winning. */
function variablesOf(global: unknown, own: unknown): BuildVariable[] {
  const merged = new Map<string, string>();
  for (const variables of [global, own]) {
    if (!isMap(variables)) continue;
    for (const [key, value] of variables) merged.set(key as string, value as string);
  }
  return [...merged].map(([key, value]) => ({ key, value, public: true }));
}

/** A validated mapping as an object of its keys that have a value. */
function definedFields(value: unknown): Record<string, unknown> | undefined {
  if (!isMap(value)) return undefined;
  const fields: Record<string, unknown> = {};
  for (const [key, item] of value) if (given(item)) fields[key as string] = item;
  return fields;
}

/** An object of optional fields without the ones that are undefined. */
function withoutUndefined<T extends object>(value: { [K in keyof Required<T>]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}
