import { rubyRegexp } from "./regexp.js";
import type { PipelineContext } from "./types.js";

/**
 * Whether a job with these `only` and `except` lists runs for `context` (8.x's `process?`): some
 * `only` pattern matches (or there is none) and no `except` pattern does.
 */
export function runsFor(
  only: string[] | undefined,
  except: string[] | undefined,
  context: PipelineContext,
): boolean {
  if (only && only.length > 0 && !only.some((pattern) => matches(pattern, context))) return false;
  if (except && except.length > 0 && except.some((pattern) => matches(pattern, context))) return false;
  return true;
}

/**
 * One pattern: `branches`, `tags`, `triggers`, a `/regex/` (unanchored) or a ref name, optionally
 * followed by `@namespace/project` (the pattern then only holds in that project).
 */
function matches(pattern: string, context: PipelineContext): boolean {
  const at = pattern.indexOf("@");
  const name = at < 0 ? pattern : pattern.slice(0, at);
  if (at >= 0 && pattern.slice(at + 1) !== context.projectPath) return false;
  if (context.tag && name === "tags") return true;
  if (!context.tag && name === "branches") return true;
  if (context.source === "trigger" && name === "triggers") return true;
  if (name.length > 0 && name.startsWith("/") && name.endsWith("/")) {
    return rubyRegexp(name.slice(1, -1))?.test(context.ref) ?? false;
  }
  return name === context.ref;
}
