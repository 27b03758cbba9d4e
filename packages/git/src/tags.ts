import { readObjects } from "./cat-file.js";
import { parseCommitObject, parseTagObject } from "./commit-object.js";
import { GitError } from "./errors.js";
import { runGit } from "./exec.js";
import { identityLine } from "./identity.js";
import { type ListedRef, listRefs } from "./ref-listing.js";
import { deleteRef, updateRef } from "./ref-update.js";
import { readRef } from "./refs.js";
import type { GitIdentity, RawCommit } from "./types.js";
import { assertRevision, tagRef } from "./validate.js";

/** A tag: lightweight (`message` null) or annotated, with the commit it finally points to. */
export interface RepoTag {
  name: string;
  /** The annotated tag's message as stored; `null` for a lightweight tag. */
  message: string | null;
  /** The object the ref points to: the tag object of an annotated tag, else the commit. */
  target: string;
  /** The commit the tag peels to; `null` for a tag of a tree or a blob. */
  commit: RawCommit | null;
}

const TAGS = "refs/tags/";

function toTag(listed: ListedRef, nested: Map<string, RawCommit>): RepoTag {
  const { object, peeled } = listed;
  const name = listed.ref.slice(TAGS.length);
  if (object.type === "commit") {
    return { name, message: null, target: object.id, commit: parseCommitObject(object.id, object.raw) };
  }
  const message = object.type === "tag" ? parseTagObject(object.raw).message : null;
  const commit =
    peeled?.type === "commit" ? parseCommitObject(peeled.id, peeled.raw) : (nested.get(listed.ref) ?? null);
  return { name, message, target: object.id, commit };
}

/** Tags of tags: the commit at the end of the chain, for the few refs whose first peel is a tag. */
async function peelNested(gitDir: string, refs: readonly ListedRef[]): Promise<Map<string, RawCommit>> {
  const deep = refs.filter((listed) => listed.peeled?.type === "tag").map((listed) => listed.ref);
  const objects = await readObjects(
    gitDir,
    deep.map((ref) => `${ref}^{commit}`),
  );
  const commits = new Map<string, RawCommit>();
  deep.forEach((ref, i) => {
    const found = objects[i];
    if (found) commits.set(ref, parseCommitObject(found.id, found.content));
  });
  return commits;
}

/**
 * Every tag with its message and commit, in one git process (two with tags of tags). Sorted by
 * name, descending by default as GitLab 8.x's tag list.
 */
export async function listTags(gitDir: string, order: "asc" | "desc" = "desc"): Promise<RepoTag[]> {
  const refs = await listRefs(gitDir, [TAGS]);
  const nested = await peelNested(gitDir, refs);
  const tags = refs.map((listed) => toTag(listed, nested));
  return order === "desc" ? tags.reverse() : tags;
}

/** One tag, or `null` when there is none of that name. Throws `invalid` for a name git refuses. */
export async function findTag(gitDir: string, name: string): Promise<RepoTag | null> {
  const ref = tagRef(name);
  const refs = (await listRefs(gitDir, [ref])).filter((listed) => listed.ref === ref);
  const [match] = refs;
  return match ? toTag(match, await peelNested(gitDir, refs)) : null;
}

/** What {@link createTag} makes. */
export interface CreateTagOptions {
  /** The tag's name (`v1.0`). */
  name: string;
  /** What it tags: a branch, tag or sha naming a commit. */
  target: string;
  /** Makes an annotated tag with this message; without it the tag is lightweight. */
  message?: string;
  /** Who tags (required with `message`). */
  tagger?: GitIdentity;
}

/**
 * Creates a tag. Throws, in GitLab's order: `invalid` subject `tag` (a name git refuses), `exists`
 * subject `tag`, `invalid` subject `revision` (the target names no commit), `invalid` subject
 * `identity` (an annotated tag without a usable tagger).
 */
export async function createTag(gitDir: string, options: CreateTagOptions): Promise<RepoTag> {
  const ref = tagRef(options.name);
  assertRevision(options.target);
  const [existing, [target]] = await Promise.all([
    readRef(gitDir, ref),
    readObjects(gitDir, [`${options.target}^{commit}`]),
  ]);
  if (existing) throw new GitError("exists", `tag ${options.name} already exists`, "", "tag");
  if (!target)
    throw new GitError("invalid", `invalid target ${JSON.stringify(options.target)}`, "", "revision");
  let id = target.id;
  let message: string | null = null;
  if (options.message !== undefined) {
    if (!options.tagger) throw new GitError("invalid", "an annotated tag needs a tagger", "", "identity");
    message =
      options.message.endsWith("\n") || options.message === "" ? options.message : `${options.message}\n`;
    const object = `object ${target.id}\ntype commit\ntag ${options.name}\ntagger ${identityLine(options.tagger)}\n\n${message}`;
    id = (await runGit(["mktag"], { gitDir, input: object })).stdout.toString("utf8").trim();
  }
  try {
    await updateRef(gitDir, ref, id, null);
  } catch (error) {
    if (GitError.is(error, "exists") || GitError.is(error, "ref_moved")) {
      throw new GitError("exists", `tag ${options.name} already exists`, error.stderr, "tag");
    }
    throw error;
  }
  return { name: options.name, message, target: id, commit: parseCommitObject(target.id, target.content) };
}

/** Deletes a tag and answers the object it pointed to; `not_found` (subject `tag`) when absent. */
export async function deleteTag(gitDir: string, name: string): Promise<string> {
  const ref = tagRef(name);
  const id = await readRef(gitDir, ref);
  if (!id) throw new GitError("not_found", `no tag ${name}`, "", "tag");
  await deleteRef(gitDir, ref, id);
  return id;
}
