import { isMap, type YamlMap } from "./values.js";

const MERGE_KEY = "<<";

/**
 * Resolves `<<` merge keys as Ruby's Psych does, which is how 8.x read them: at the place of the
 * `<<` key, the merged mapping's keys are set over what came before (so a key written above `<<`
 * is overridden, one written below wins); a list of mappings merges the first one last, so the
 * first wins; a `<<` whose value is neither stays an ordinary key. (The YAML 1.1 merge draft,
 * which the yaml library follows, never overrides a key written beside `<<`.)
 *
 * Aliases make the parsed value a graph: each mapping and list is resolved once and shared, so an
 * anchor used a thousand times costs one resolution.
 */
export function resolveMergeKeys(value: unknown): unknown {
  const resolved = new Map<object, unknown>();
  const resolve = (node: unknown): unknown => {
    if (!Array.isArray(node) && !isMap(node)) return node;
    const known = resolved.get(node);
    if (known !== undefined) return known;
    if (Array.isArray(node)) {
      const items: unknown[] = [];
      resolved.set(node, items);
      for (const item of node) items.push(resolve(item));
      return items;
    }
    const entries: YamlMap = new Map();
    resolved.set(node, entries);
    for (const [key, item] of node) {
      const itemValue = resolve(item);
      const merged = key === MERGE_KEY ? mergedEntries(itemValue) : null;
      if (merged) for (const [mergedKey, mergedValue] of merged) entries.set(mergedKey, mergedValue);
      else entries.set(key, itemValue);
    }
    return entries;
  };
  return resolve(value);
}

/** What a `<<` value merges: a mapping, or a list of mappings with the first winning; else null. */
function mergedEntries(value: unknown): YamlMap | null {
  if (isMap(value)) return value;
  if (!Array.isArray(value) || !value.every(isMap)) return null;
  const merged: YamlMap = new Map();
  for (const mapping of [...value].reverse()) {
    for (const [key, item] of mapping) merged.set(key, item);
  }
  return merged;
}
