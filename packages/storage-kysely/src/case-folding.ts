import type BetterSqlite3 from "better-sqlite3";

/** Strings whose full lowercase (`toLowerCase`) differs from the per-character simple mapping. */
const CONTEXTUAL = /[\u0130\u03a3]/;

/**
 * Lowercases as PostgreSQL's `lower()` does on a UTF-8 database: character by character, each to
 * its simple Unicode lowercase ("ÄRGER" → "ärger", "ΣΟΦΙΑ" → "σοφια", "İ" → "i"). JavaScript's
 * `toLowerCase` gives the same except for the two full mappings it applies: "İ" → "i̇" (two
 * characters) and a final "Σ" → "ς"; strings holding either go character by character.
 */
export function foldCase(text: string): string {
  if (!CONTEXTUAL.test(text)) return text.toLowerCase();
  let folded = "";
  for (const char of text) {
    const lower = char.toLowerCase();
    // A single character's lowercase is one character, but for "İ", whose simple mapping is "i".
    folded += lower.length === char.length ? lower : char === "\u0130" ? "i" : char;
  }
  return folded;
}

/**
 * Replaces SQLite's `lower()`, which folds ASCII only, with {@link foldCase} on this connection, as
 * SQLite's ICU extension does: the same SQL (`lower(name) = lower(?)`, `lower(name) like ...`) then
 * ignores case as on PostgreSQL, also beyond ASCII. Declared deterministic, so the indexes on
 * `lower(...)` keep serving lookups and are computed with it. Every connection that writes to those
 * tables must register it (migration 0005 rebuilt the indexes with it): `KilnSqliteDialect` does; a
 * plain `sqlite3` shell would index non-ASCII names with the built-in ASCII folding.
 */
export function registerCaseFolding(raw: BetterSqlite3.Database): void {
  raw.function("lower", { deterministic: true }, (value: unknown) => {
    if (value === null || value === undefined) return null;
    return foldCase(typeof value === "string" ? value : String(value));
  });
}
