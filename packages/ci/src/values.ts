/** What the YAML loader gives a mapping: keys keep their YAML type. */
export type YamlMap = Map<unknown, unknown>;

/** Whether `value` is a mapping (8.x: a Hash). */
export function isMap(value: unknown): value is YamlMap {
  return value instanceof Map;
}

/** Whether `value` is an array of strings (8.x's `validate_array_of_strings`). */
export function isArrayOfStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** Whether `value` is a string or an array of strings (a job's `script`). */
export function isStringOrArrayOfStrings(value: unknown): value is string | string[] {
  return typeof value === "string" || isArrayOfStrings(value);
}

/** Whether `value` is a mapping of strings to strings (8.x's `validate_variables`). */
export function isVariables(value: unknown): value is Map<string, string> {
  if (!isMap(value)) return false;
  for (const [key, item] of value) {
    if (typeof key !== "string" || typeof item !== "string") return false;
  }
  return true;
}

/**
 * Rails' `blank?`: absent, false, an empty or all-whitespace string, an empty array or mapping.
 * (A mapping key is a Ruby symbol there, blank only when empty: see {@link isBlankKey}.)
 */
export function isBlank(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (isMap(value)) return value.size === 0;
  return false;
}

/** Whether a mapping key counts as blank in 8.x (a symbol is blank only when empty). */
export function isBlankKey(key: unknown): boolean {
  return key === null || key === undefined || key === "";
}

/** A mapping key as Ruby's `to_s` shows it in a message. */
export function keyText(key: unknown): string {
  if (key === null || key === undefined) return "";
  if (typeof key === "string") return key;
  if (typeof key === "number" || typeof key === "boolean" || typeof key === "bigint") return String(key);
  return (
    JSON.stringify(key, (_k, value: unknown) => (isMap(value) ? Object.fromEntries(value) : value)) ?? ""
  );
}

/** The value of a string key of a mapping (8.x's `config[:key]`, nil when `config` is no Hash). */
export function field(config: unknown, key: string): unknown {
  return isMap(config) ? config.get(key) : undefined;
}

/** Whether a mapping gives `key` a value (8.x treats a null value as not given). */
export function given(value: unknown): boolean {
  return value !== null && value !== undefined;
}
