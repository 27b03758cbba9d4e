import { durationSeconds } from "./duration.js";
import { EntryErrors, locationOf } from "./messages.js";
import { rubyRegexp } from "./regexp.js";
import {
  field,
  given,
  isArrayOfStrings,
  isBlank,
  isMap,
  isStringOrArrayOfStrings,
  isVariables,
  keyText,
} from "./values.js";

/**
 * The entries of `.gitlab-ci.yml` below a job or the file (8.x's `Gitlab::Ci::Config::Entry::*`),
 * each validated as 8.x validates it. Each answers its full messages, in 8.x's order; an entry
 * whose value is null counts as not given and is valid.
 */
export type EntryValidator = (value: unknown, location: string) => string[];

/** An entry whose whole value must pass one check (`<location> config <message>`). */
function leaf(check: (value: unknown) => boolean, message: string): EntryValidator {
  return (value, location) => {
    if (!given(value) || check(value)) return [];
    const errors = new EntryErrors(location);
    errors.add("config", message);
    return errors.messages();
  };
}

const ARRAY_OF_STRINGS = "should be an array of strings";

/** A job's `script`: a string or an array of strings. */
export const validateCommands = leaf(isStringOrArrayOfStrings, "should be a string or an array of strings");
/** `image`, and a job's `stage`/`type`: a string. */
export const validateString = leaf((value) => typeof value === "string", "should be a string");
/** `before_script`, `after_script`, `services`, `stages`/`types`, cache `paths`: an array of strings. */
export const validateArrayOfStrings = leaf(isArrayOfStrings, ARRAY_OF_STRINGS);
/** `variables`: a mapping of strings to strings. */
export const validateVariables = leaf(isVariables, "should be a hash of key value pairs");
/** `only`, `except`: ref names, keywords and `/regex/`es that compile. */
export const validateRefPolicy = leaf(
  (value) => Array.isArray(value) && value.every(isRefPattern),
  "should be an array of strings or regexps",
);

function isRefPattern(value: unknown): boolean {
  if (typeof value !== "string") return false;
  if (value.length > 0 && value.startsWith("/") && value.endsWith("/")) {
    return rubyRegexp(value.slice(1, -1)) !== null;
  }
  return true;
}

const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";

/** The unknown keys of a mapping, as 8.x's `allowed_keys` validator lists them. */
export function checkAllowedKeys(errors: EntryErrors, config: unknown, allowed: readonly string[]): void {
  if (!isMap(config)) return;
  const unknown = [...config.keys()].filter((key) => typeof key !== "string" || !allowed.includes(key));
  if (unknown.length > 0) errors.add("config", `contains unknown keys: ${unknown.map(keyText).join(", ")}`);
}

const CACHE_KEYS = ["key", "untracked", "paths"] as const;

/** `cache` (a job's or the file's): `key`, `untracked`, `paths`. */
export const validateCache: EntryValidator = (value, location) => {
  if (!given(value)) return [];
  const errors = new EntryErrors(location);
  if (!isMap(value)) errors.add("config", "should be a hash");
  checkAllowedKeys(errors, value, CACHE_KEYS);
  if (!errors.valid || !isMap(value)) return errors.messages();
  return [
    ...leaf((key) => typeof key === "string", "should be a string or symbol")(
      value.get("key"),
      locationOf(location, "key"),
    ),
    ...leaf(isBoolean, "should be a boolean value")(
      value.get("untracked"),
      locationOf(location, "untracked"),
    ),
    ...validateArrayOfStrings(value.get("paths"), locationOf(location, "paths")),
  ];
};

const ARTIFACTS_KEYS = ["name", "untracked", "paths", "when", "expire_in"] as const;
const ARTIFACTS_WHENS = ["on_success", "on_failure", "always"];

/** A job's `artifacts`: `name`, `untracked`, `paths`, `when`, `expire_in`. */
export const validateArtifacts: EntryValidator = (value, location) => {
  if (!given(value)) return [];
  const errors = new EntryErrors(location);
  if (!isMap(value)) errors.add("config", "should be a hash");
  checkAllowedKeys(errors, value, ARTIFACTS_KEYS);
  const [name, untracked, paths, when, expireIn] = ARTIFACTS_KEYS.map((key) => field(value, key));
  if (given(name) && typeof name !== "string") errors.add("name", "should be a string");
  if (given(untracked) && !isBoolean(untracked)) errors.add("untracked", "should be a boolean value");
  if (given(paths) && !isArrayOfStrings(paths)) errors.add("paths", ARRAY_OF_STRINGS);
  if (given(when) && !ARTIFACTS_WHENS.includes(when as string)) {
    errors.add("when", "should be on_success, on_failure or always");
  }
  if (given(expireIn) && (typeof expireIn !== "string" || durationSeconds(expireIn) === null)) {
    errors.add("expire_in", "should be a duration");
  }
  return errors.messages();
};

const ENVIRONMENT_KEYS = ["name", "url", "action", "on_stop"] as const;
/** 8.x's `Gitlab::Regex.environment_name_regex` and its message. */
const ENVIRONMENT_NAME = /^[a-zA-Z0-9_\\/${}. -]+$/;
const ENVIRONMENT_NAME_MESSAGE =
  "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces";
/** 8.x's `addressable_url` check, roughly: an http, https, ssh or git URL with a host. */
const VALID_URL = /^(?:https?|ssh|git):\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;

/** What a job's `environment` stands for: a name alone, or the mapping. */
export function environmentValue(value: unknown): Map<unknown, unknown> {
  if (typeof value === "string")
    return new Map<unknown, unknown>([
      ["name", value],
      ["action", "start"],
    ]);
  return isMap(value) ? value : new Map();
}

/** A job's `environment`: a name, or `{name, url, action, on_stop}`. */
export const validateEnvironment: EntryValidator = (value, location) => {
  if (!given(value)) return [];
  const errors = new EntryErrors(location);
  if (!isMap(value) && typeof value !== "string") errors.add("config", "should be a hash or a string");
  const environment = environmentValue(value);
  const name = environment.get("name");
  if (isBlank(name)) errors.add("name", "can't be blank");
  if (typeof name !== "string") errors.add("name", ENVIRONMENT_NAME_MESSAGE);
  if (!ENVIRONMENT_NAME.test(typeof name === "string" ? name : ""))
    errors.add("name", ENVIRONMENT_NAME_MESSAGE);
  if (!isMap(value)) return errors.messages();
  checkAllowedKeys(errors, value, ENVIRONMENT_KEYS);
  const url = value.get("url");
  if (given(url)) {
    if (String(url).length > 255) errors.add("url", "is too long (maximum is 255 characters)");
    if (!isValidUrl(url)) errors.add("url", "must be a valid URL");
  }
  const action = value.get("action");
  if (given(action) && action !== "start" && action !== "stop")
    errors.add("action", "should be start or stop");
  const onStop = value.get("on_stop");
  if (given(onStop) && typeof onStop !== "string") errors.add("on_stop", "should be a String");
  return errors.messages();
};

function isValidUrl(value: unknown): boolean {
  return typeof value === "string" && VALID_URL.test(value);
}
