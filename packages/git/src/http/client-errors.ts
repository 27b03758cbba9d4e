// What git says when the request itself is at fault (after `fatal: `): a malformed or truncated
// request, a command or capability it does not know, an object the client may not ask for.
const CLIENT_ERRORS = [
  /^protocol error\b/,
  /^git upload-pack: (protocol error|expected SHA1|not our ref)\b/,
  /^the remote end hung up unexpectedly$/,
  /^(unknown capability|invalid command|unexpected line|unknown object format|invalid shallow line|invalid filter-spec)\b/,
  /^expected flush after /,
  /^no command requested$/,
];

/** Longest part of git's message repeated to the client. */
const MESSAGE_LIMIT = 200;

/**
 * When git's standard error says that it failed on the client's request (its first `fatal:` line
 * is one of git's protocol errors), that line without `fatal: `, cleaned of control characters
 * and cut short, to answer 400 with; undefined when git failed for any other reason (a missing
 * or broken repository, a crash), which is the server's fault.
 */
export function clientProtocolError(stderr: string): string | undefined {
  const fatal = /^fatal: (.*)$/m.exec(stderr)?.[1]?.trim();
  if (fatal === undefined || !CLIENT_ERRORS.some((pattern) => pattern.test(fatal))) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  return fatal.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, MESSAGE_LIMIT);
}
