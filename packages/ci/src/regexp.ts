import { RE2JS } from "re2js";

/**
 * A `/regex/` of `only`/`except`. 8.x compiled the text between the slashes as a Ruby regexp and
 * matched it unanchored. Kiln runs it on RE2 (linear time) so that a pattern written to backtrack
 * forever (`/(a+)+$/` against a long ref name) cannot stall the server on a push; the Ruby escapes
 * RE2 lacks are translated (`\Z`, `\h`, `\H`), and a pattern RE2 cannot compile (backreferences,
 * lookaround: none of them needed to name refs) counts as invalid.
 */
const RUBY_ESCAPES: Readonly<Record<string, { outside: string; inClass?: string }>> = {
  // A ref holds no newline, so "end, or before a final newline" is the end.
  Z: { outside: "\\z" },
  h: { outside: "[0-9a-fA-F]", inClass: "0-9a-fA-F" },
  H: { outside: "[^0-9a-fA-F]" },
};

/** A compiled ref pattern. */
export interface RefRegexp {
  /** Whether the pattern matches somewhere in `ref`. */
  test(ref: string): boolean;
}

/** The regexp of a `/…/` ref pattern, or null when it does not compile. */
export function rubyRegexp(source: string): RefRegexp | null {
  let translated = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "\\" && i + 1 < source.length) {
      const next = source[i + 1]!;
      const ruby = RUBY_ESCAPES[next];
      translated += (inClass ? ruby?.inClass : ruby?.outside) ?? char + next;
      i++;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    translated += char;
  }
  try {
    return RE2JS.compile(translated);
  } catch {
    return null;
  }
}
