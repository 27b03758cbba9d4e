import { JOB_WHENS } from "@kiln/domain";
import {
  checkAllowedKeys,
  type EntryValidator,
  validateArrayOfStrings,
  validateArtifacts,
  validateCache,
  validateCommands,
  validateEnvironment,
  validateRefPolicy,
  validateString,
  validateVariables,
} from "./entries.js";
import { EntryErrors, locationOf } from "./messages.js";
import {
  field,
  given,
  isArrayOfStrings,
  isBlank,
  isBlankKey,
  isMap,
  keyText,
  type YamlMap,
} from "./values.js";

/** The keys of the file that are not jobs (8.x's `Entry::Global` nodes). */
export const GLOBAL_KEYS = [
  "before_script",
  "image",
  "services",
  "after_script",
  "variables",
  "stages",
  "types",
  "cache",
] as const;

/** The keys a job may have (8.x's `Entry::Job::ALLOWED_KEYS`). */
export const JOB_KEYS = [
  "tags",
  "script",
  "only",
  "except",
  "type",
  "image",
  "services",
  "allow_failure",
  "stage",
  "when",
  "artifacts",
  "cache",
  "dependencies",
  "before_script",
  "after_script",
  "variables",
  "environment",
] as const;

/** A top-level key that is a job rather than a global setting. */
export function isJobKey(key: unknown): boolean {
  return !(GLOBAL_KEYS as readonly unknown[]).includes(key);
}

/** A hidden job (`.name`): a template for anchors, never run. */
export function isHiddenJobKey(key: unknown): boolean {
  return keyText(key).startsWith(".");
}

/**
 * The validation errors of a whole file (a mapping), in the order 8.x's `Gitlab::Ci::Config`
 * finds them: the global entries first, then the jobs in file order. 8.x reports the first one.
 */
export function validateConfig(config: YamlMap): string[] {
  const stages = given(config.get("stages")) ? "stages" : "types";
  return [
    ...validateArrayOfStrings(config.get("before_script"), "before_script"),
    ...validateString(config.get("image"), "image"),
    ...validateArrayOfStrings(config.get("services"), "services"),
    ...validateArrayOfStrings(config.get("after_script"), "after_script"),
    ...validateVariables(config.get("variables"), "variables"),
    ...validateArrayOfStrings(config.get(stages), stages),
    ...validateCache(config.get("cache"), "cache"),
    ...validateJobs([...config].filter(([key]) => isJobKey(key))),
  ];
}

function validateJobs(jobs: [unknown, unknown][]): string[] {
  if (!jobs.some(([key]) => !isHiddenJobKey(key))) {
    return ["jobs config should contain at least one visible job"];
  }
  return jobs.flatMap(([key, value]) => {
    // 8.x reads a job without a value as an empty mapping.
    const config = value === null || value === undefined || value === false ? new Map() : value;
    return isHiddenJobKey(key) ? validateHiddenJob(key, config) : validateJob(key, config);
  });
}

function validateHiddenJob(key: unknown, config: unknown): string[] {
  const errors = new EntryErrors(locationOf("jobs", keyText(key)));
  if (isBlank(config)) errors.add("config", "can't be blank");
  return errors.messages();
}

/** A job's own keys, then (when those are valid) its entries in 8.x's order. */
function validateJob(key: unknown, config: unknown): string[] {
  const location = locationOf("jobs", isBlankKey(key) ? "job" : keyText(key));
  const own = validateJobItself(key, config, location);
  if (!own.valid || !isMap(config)) return own.messages();
  const stageKey = given(config.get("stage")) ? "stage" : "type";
  const entries: [string, EntryValidator][] = [
    ["before_script", validateArrayOfStrings],
    ["script", validateCommands],
    [stageKey, validateString],
    ["after_script", validateArrayOfStrings],
    ["cache", validateCache],
    ["image", validateString],
    ["services", validateArrayOfStrings],
    ["only", validateRefPolicy],
    ["except", validateRefPolicy],
    ["variables", validateVariables],
    ["artifacts", validateArtifacts],
    ["environment", validateEnvironment],
  ];
  return entries.flatMap(([entry, validate]) => validate(config.get(entry), locationOf(location, entry)));
}

function validateJobItself(key: unknown, config: unknown, location: string): EntryErrors {
  const errors = new EntryErrors(location);
  if (!isMap(config)) errors.add("config", "should be a hash");
  checkAllowedKeys(errors, config, JOB_KEYS);
  if (isBlank(config)) errors.add("config", "can't be blank");
  if (isBlank(field(config, "script"))) errors.add("script", "can't be blank");
  if (isBlankKey(key)) errors.add("name", "can't be blank");
  if (typeof key !== "string") errors.add("name", "should be a symbol");
  const [tags, allowFailure, when, dependencies] = ["tags", "allow_failure", "when", "dependencies"].map(
    (name) => field(config, name),
  );
  if (given(tags) && !isArrayOfStrings(tags)) errors.add("tags", "should be an array of strings");
  if (given(allowFailure) && typeof allowFailure !== "boolean") {
    errors.add("allow_failure", "should be a boolean value");
  }
  if (given(when) && !(JOB_WHENS as readonly unknown[]).includes(when)) {
    errors.add("when", "should be on_success, on_failure, always or manual");
  }
  if (given(dependencies) && !isArrayOfStrings(dependencies)) {
    errors.add("dependencies", "should be an array of strings");
  }
  return errors;
}
