/**
 * References written in titles, descriptions, notes and commit messages: the issues a text closes
 * ("Closes #1") and the users it mentions ("@alice"), read as GitLab 8.x reads them.
 */

/** A namespace or project path as a reference writes it (GitLab's NAMESPACE_REGEX_STR). */
const NAME = String.raw`(?:[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*[a-zA-Z0-9_\-]|[a-zA-Z0-9_])`;

/** `#12` or `namespace/project#12`, not followed by more of a word. */
const ISSUE_REFERENCE = String.raw`(?:${NAME}/${NAME})?#\d+(?![\p{L}\p{N}_])`;

/**
 * GitLab 8.x's default `issue_closing_pattern` with every letter matched in any case: a closing
 * word (close, closes, closed, closing, fix, fixes, fixed, fixing, resolve, resolves, resolved,
 * resolving), an optional colon, spaces, then one or more issue references, each optionally after
 * `issue`/`issues`, separated by a comma or `and`. Unlike GitLab's pattern, the word must start a
 * word: "Prefixes #1" closes nothing.
 */
const CLOSING_STATEMENT = new RegExp(
  String.raw`(?<![\p{L}\p{N}_])(?:clos(?:e[sd]?|ing)|fix(?:e[sd]|ing)?|resolv(?:e[sd]?|ing)):? +` +
    `(?:(?:issues? +)?${ISSUE_REFERENCE}(?:, *| +and +)?)+`,
  "giu",
);

/** One issue reference inside a closing statement, capturing the project path and the iid. */
const REFERENCE_PARTS = new RegExp(String.raw`(?:(${NAME}/${NAME}))?#(\d+)(?![\p{L}\p{N}_])`, "gu");

/** An issue named by a reference: in the same project (`project` null) or in `namespace/project`. */
export interface IssueReference {
  project: string | null;
  iid: number;
}

/**
 * Every issue `text` says it closes, in order of appearance and without repeats: "Closes #1",
 * "fixes #2, #3 and other/project#4", "Resolves: issue #5".
 */
export function closingReferences(text: string): IssueReference[] {
  const found = new Map<string, IssueReference>();
  for (const statement of text.matchAll(CLOSING_STATEMENT)) {
    for (const parts of statement[0].matchAll(REFERENCE_PARTS)) {
      const reference = { project: parts[1] ?? null, iid: Number(parts[2]) };
      const key = `${reference.project ?? ""}#${reference.iid}`;
      if (!found.has(key)) found.set(key, reference);
    }
  }
  return [...found.values()];
}

/**
 * The iids of the issues of the same project that `text` closes ("Closes #1, #2 and #3"), in order
 * of appearance and without repeats. References to other projects are left out.
 */
export function closesIssues(text: string): number[] {
  return closingReferences(text)
    .filter((reference) => reference.project === null)
    .map((reference) => reference.iid);
}

/** Fenced code blocks (``` or ~~~, to the closing fence or the end of the text). */
const FENCED_CODE = /^ {0,3}(`{3,}|~{3,})[^\n]*$[\s\S]*?(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm;

/** Inline code spans: a run of backticks up to the next run of the same length. */
const INLINE_CODE = /(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;

/**
 * `@` and a username, not inside a word or an e-mail address (`alice@example.com` mentions
 * nobody). The name may not end with a dot, so "@alice." mentions alice.
 */
const MENTION = new RegExp(String.raw`(?<![\p{L}\p{N}_.+\-])@(${NAME})`, "gu");

/**
 * The usernames `text` mentions (`@alice`), in order of first appearance, each once (compared
 * ignoring case, kept as first written). Mentions inside code (fenced blocks and inline code) do
 * not count. `@all` is returned like any name: what it stands for is the caller's to decide.
 */
export function mentionedUsernames(text: string): string[] {
  const prose = text.replace(FENCED_CODE, " ").replace(INLINE_CODE, " ");
  const found = new Map<string, string>();
  for (const match of prose.matchAll(MENTION)) {
    const username = match[1] as string;
    const key = username.toLowerCase();
    if (!found.has(key)) found.set(key, username);
  }
  return [...found.values()];
}
