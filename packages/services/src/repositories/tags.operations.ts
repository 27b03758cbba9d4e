import { badRequest, DomainError, notFound, type User, ZERO_SHA } from "@kiln/domain";
import {
  createTag,
  deleteTag,
  findTag,
  GitError,
  type GitIdentity,
  isValidTagName,
  listTags,
  type RepoTag,
} from "@kiln/git";
import { CreateTagInput, ListTagsInput, TagRefInput } from "@kiln/schemas";
import { mutation, query } from "../operation.js";
import { requireRepository } from "./access.js";
import { afterPush } from "./after-push.js";
import { checkPushRules, isUnambiguousRefName } from "./api-refs.js";

/** A tag as the API shows it: its annotation (null when lightweight) and the commit it tags. */
export type TagView = RepoTag;

/** The tag, or null when there is none of that name (a name git refuses names none). */
async function tagNamed(gitDir: string, name: string): Promise<RepoTag | null> {
  return isValidTagName(name) ? findTag(gitDir, name) : null;
}

/**
 * The caller as an annotated tag's tagger. Characters git cannot keep in an identity line are
 * dropped from the name (GitLab tags with whatever the profile says; git would refuse the tag).
 */
function taggerOf(user: User): GitIdentity {
  const name = user.name.replace(/[<>\n\r\0]/g, "").trim();
  return { name: name === "" ? user.username : name, email: user.email.replace(/[<>\n\r\0]/g, "") };
}

/** The 400 GitLab answers for each way `createTag` fails; anything else is a bug and rethrown. */
function createFailure(error: unknown, input: CreateTagInput): unknown {
  if (!(error instanceof GitError)) return error;
  if (error.kind === "invalid" && error.subject === "tag") return badRequest({ reason: "tag_name_invalid" });
  if (error.kind === "exists") return badRequest({ reason: "tag_exists", tag: input.tag_name });
  if (error.subject === "revision" && (error.kind === "invalid" || error.kind === "not_found"))
    return badRequest({ reason: "tag_target_invalid", ref: input.ref });
  return error;
}

/**
 * A project's tags through the API: reading them needs `download_code`, creating and removing
 * them `push_code` under the push rules of `git push` (so only masters remove a tag, as GitLab's
 * hooks decide). Every change of a ref is followed by {@link afterPush} (tag push events).
 * Releases are not kept: `release_description` is accepted and ignored.
 */
export const repositoryTags = {
  /** Every tag, sorted by name descending (GitLab 8.x). Not paginated in v3. */
  list: query("signed_in", ListTagsInput, async (ctx, input): Promise<TagView[]> => {
    const { gitDir } = await requireRepository(ctx, input.id);
    return listTags(gitDir, "desc");
  }),

  /** One tag: `404 Tag Not Found` when there is none of that name. */
  get: query("signed_in", TagRefInput, async (ctx, input): Promise<TagView> => {
    const { gitDir } = await requireRepository(ctx, input.id);
    const tag = await tagNamed(gitDir, input.tag_name);
    if (!tag) throw notFound("tag");
    return tag;
  }),

  /**
   * Tags a branch, tag or sha: lightweight, or annotated by the caller when `message` is given
   * (trimmed, as GitLab). Each failure is a 400 with GitLab's message, in GitLab's order.
   */
  create: mutation("signed_in", CreateTagInput, async (ctx, input): Promise<TagView> => {
    const access = await requireRepository(ctx, input.id, "push_code");
    const name = input.tag_name;
    if (!isValidTagName(name) || !isUnambiguousRefName(name))
      throw badRequest({ reason: "tag_name_invalid" });
    if (await findTag(access.gitDir, name)) throw badRequest({ reason: "tag_exists", tag: name });
    const ref = `refs/tags/${name}`;
    await checkPushRules(ctx.runtime.stores, access, ref, "create");
    const annotated =
      input.message === undefined ? {} : { message: input.message.trim(), tagger: taggerOf(ctx.actor.user) };
    const tag = await createTag(access.gitDir, { name, target: input.ref, ...annotated }).catch(
      (error: unknown) => {
        throw createFailure(error, input);
      },
    );
    await afterPush(ctx.runtime, access, ctx.actor.user, [{ ref, before: ZERO_SHA, after: tag.target }]);
    return tag;
  }),

  /** Removes a tag: 404 `No such tag`; 400 when the push rules refuse it (below master). */
  remove: mutation("signed_in", TagRefInput, async (ctx, input) => {
    const access = await requireRepository(ctx, input.id, "push_code");
    const tag = await tagNamed(access.gitDir, input.tag_name);
    if (!tag) throw new DomainError({ kind: "not_found", reason: "tag_not_found" });
    const ref = `refs/tags/${tag.name}`;
    await checkPushRules(ctx.runtime.stores, access, ref, "delete");
    let before: string;
    try {
      before = await deleteTag(access.gitDir, tag.name);
    } catch (error) {
      if (GitError.is(error, "not_found"))
        throw new DomainError({ kind: "not_found", reason: "tag_not_found" });
      if (GitError.is(error, "ref_moved")) throw badRequest({ reason: "tag_moved" });
      throw error;
    }
    await afterPush(ctx.runtime, access, ctx.actor.user, [{ ref, before, after: ZERO_SHA }]);
    return { tag_name: tag.name };
  }),
};
