import { GitError } from "./errors.js";
import type { GitIdentity } from "./types.js";

const IDENT_BAD = /[<>\n\r\0]/;

/** Throws `invalid` (subject `identity`) for a name or e-mail git would mangle or refuse. */
export function assertIdentity(who: GitIdentity, role: string): GitIdentity {
  if (who.name.trim() === "" || IDENT_BAD.test(who.name) || IDENT_BAD.test(who.email)) {
    throw new GitError("invalid", `invalid ${role} identity`, "", "identity");
  }
  if (who.date !== undefined && Number.isNaN(who.date.getTime())) {
    throw new GitError("invalid", `invalid ${role} date`, "", "identity");
  }
  return who;
}

/** `<seconds> +0000`, git's internal date format. */
function gitDate(date: Date | undefined): string {
  return `${Math.floor((date ?? new Date()).getTime() / 1000)} +0000`;
}

/** The environment that makes `commit-tree` record `author` and `committer` (default: the author). */
export function identityEnv(author: GitIdentity, committer: GitIdentity = author): Record<string, string> {
  assertIdentity(author, "author");
  assertIdentity(committer, "committer");
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: `@${gitDate(author.date)}`,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: `@${gitDate(committer.date)}`,
  };
}

/** `Name <email> <seconds> +0000`, as a tag object's `tagger` line holds it. */
export function identityLine(who: GitIdentity): string {
  assertIdentity(who, "tagger");
  return `${who.name.trim()} <${who.email}> ${gitDate(who.date)}`;
}
