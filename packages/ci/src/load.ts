import { LineCounter, parseAllDocuments, type Tags } from "yaml";
import { MAX_NESTING, nestsTooDeep } from "./depth.js";
import { resolveMergeKeys } from "./merge-keys.js";

/**
 * The largest `.gitlab-ci.yml` Kiln reads, in characters (8.x had no bound). Ten times GitLab 8.15's
 * own file (12 kB). The YAML library is slow on some shapes: the slowest measured, a flow sequence
 * of 64,000 items filling this bound, took 1.7-2.9 s on two cores shared by a load of 11.
 */
export const MAX_CONFIG_LENGTH = 128 * 1024;

/**
 * How many times the aliases of one anchor may be followed, weighted by the aliases inside it (the
 * yaml library's guard against exponential expansion, the "billion laughs"). Thousands of jobs may
 * share one template; aliases nested ten wide more than a few levels deep may not.
 */
const MAX_ALIAS_COUNT = 10_000;

/** A parsed `.gitlab-ci.yml`: mappings as `Map`s so that keys keep their YAML type (`10:` is a number). */
export type Loaded = { ok: true; value: unknown } | { ok: false; error: string };

const BOOL_TAG = "tag:yaml.org,2002:bool";
const TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp";
const MERGE_TAG = "tag:yaml.org,2002:merge";

/**
 * YAML 1.1 as Ruby's Psych reads it, which is what 8.x parsed `.gitlab-ci.yml` with: `yes`/`no`
 * and `on`/`off` are booleans but `y` and `n` are strings; dates stay strings (8.x's safe load
 * refused them outright); `<<` is an ordinary key here, merged afterwards as Psych merges it.
 */
function psychTags(tags: Tags): Tags {
  return tags
    .filter((tag) => typeof tag === "string" || (tag.tag !== TIMESTAMP_TAG && tag.tag !== MERGE_TAG))
    .map((tag) => {
      if (typeof tag === "string" || tag.tag !== BOOL_TAG || !("test" in tag) || !tag.test) return tag;
      const isTrue = tag.test.test("true");
      return { ...tag, test: isTrue ? /^(?:yes|true|on)$/i : /^(?:no|false|off)$/i };
    });
}

/**
 * Parses the text of a `.gitlab-ci.yml` (its first document, as Psych does). A syntax error is
 * worded as Psych words its position (`(<unknown>): … at line 3 column 5`); the text is bounded,
 * and so is alias expansion. Never throws.
 */
export function loadYaml(text: string): Loaded {
  if (text.length > MAX_CONFIG_LENGTH) {
    return { ok: false, error: `.gitlab-ci.yml is too large (more than ${MAX_CONFIG_LENGTH} characters)` };
  }
  try {
    if (nestsTooDeep(text)) {
      return { ok: false, error: `.gitlab-ci.yml is nested too deeply (more than ${MAX_NESTING} levels)` };
    }
    const lineCounter = new LineCounter();
    const parsed = parseAllDocuments(text, {
      version: "1.1",
      merge: false,
      uniqueKeys: false,
      strict: false,
      prettyErrors: false,
      lineCounter,
      customTags: psychTags,
      logLevel: "silent",
    });
    const document = Array.isArray(parsed) ? parsed[0] : undefined;
    if (!document) return { ok: true, value: null };
    const failure = document.errors[0];
    if (failure) {
      const { line, col } = lineCounter.linePos(failure.pos[0]);
      return {
        ok: false,
        error: `(<unknown>): ${lowerFirst(failure.message)} at line ${line} column ${col}`,
      };
    }
    return {
      ok: true,
      value: resolveMergeKeys(document.toJS({ mapAsMap: true, maxAliasCount: MAX_ALIAS_COUNT })),
    };
  } catch (error) {
    // The yaml library throws on excessive or unresolved aliases.
    return { ok: false, error: `(<unknown>): ${messageOf(error)}` };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Psych words its problems in lower case ("did not find expected key"). */
function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
