/**
 * A `/regex/` of `only`/`except` as JavaScript runs it. 8.x compiled the text between the slashes
 * as a Ruby regexp, unanchored; the Ruby escapes JavaScript reads differently are translated
 * (`\A`, `\z`, `\Z`, `\h`, `\H`), and a pattern JavaScript cannot compile counts as invalid.
 */
const RUBY_ESCAPES: Readonly<Record<string, string>> = {
  A: "^",
  z: "$",
  Z: "(?=\\n?$)",
  h: "[0-9a-fA-F]",
  H: "[^0-9a-fA-F]",
};

/** The regexp of a `/…/` ref pattern, or null when it does not compile. */
export function rubyRegexp(source: string): RegExp | null {
  let translated = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "\\" && i + 1 < source.length) {
      const next = source[i + 1]!;
      translated += !inClass && RUBY_ESCAPES[next] ? RUBY_ESCAPES[next] : char + next;
      i++;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    translated += char;
  }
  try {
    return new RegExp(translated);
  } catch {
    return null;
  }
}
