/** GitLab 8.x's stand-in title for a commit whose message is blank. */
const NO_MESSAGE = "--no commit message";

/**
 * A commit's title as GitLab 8.x shows it: the first line of its message, or, when that line is
 * over 100 characters, its first 80 and an ellipsis, so lists stay readable.
 */
export function commitTitle(message: string): string {
  if (message.trim() === "") return NO_MESSAGE;
  const first = message.split("\n", 1)[0] ?? "";
  const characters = Array.from(first);
  return characters.length > 100 ? `${characters.slice(0, 80).join("")}…` : first;
}
