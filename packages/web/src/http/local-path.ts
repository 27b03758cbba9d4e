/**
 * `value` when it is a path on this server (`/profile?tab=1`), else `fallback`: a redirect after
 * sign-in goes nowhere else. Refused: anything not starting with one `/` (`//evil.example`,
 * `/\evil.example`, which browsers read as another host), absolute URLs, backslashes and control
 * characters anywhere.
 */
export function localPath(value: unknown, fallback: string): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2000) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(value) || value.startsWith("//")) return fallback;
  const base = "http://kiln.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  return `${url.pathname}${url.search}`;
}
