import { badRequest, DomainError, notFound, type ProtectedBranch, ZERO_SHA } from "@kiln/domain";
import {
  branchHead,
  createBranch,
  deleteBranch,
  findBranch,
  GitError,
  isValidBranchName,
  listBranches,
  type RawCommit,
  type RepoBranch,
} from "@kiln/git";
import { BranchRefInput, CreateBranchInput, ListBranchesInput, ProtectBranchInput } from "@kiln/schemas";
import { mutation, query } from "../operation.js";
import { type RepositoryAccess, requireRepository } from "./access.js";
import { afterPush } from "./after-push.js";
import { checkPushRules, isUnambiguousRefName } from "./api-refs.js";

/** A branch as the API shows it: its head commit and its protection rule, if any. */
export interface BranchView {
  name: string;
  commit: RawCommit;
  /** Null for an unprotected branch. */
  protection: ProtectedBranch | null;
}

const view = (branch: RepoBranch, protection: ProtectedBranch | undefined): BranchView => ({
  name: branch.name,
  commit: branch.commit,
  protection: protection ?? null,
});

/** The branch, or null when there is none of that name (a name git refuses names none). */
async function branchNamed(gitDir: string, name: string): Promise<RepoBranch | null> {
  return isValidBranchName(name) ? findBranch(gitDir, name) : null;
}

/** The branch with its protection, or `404 Branch Not Found`. */
async function existingBranch(access: RepositoryAccess, name: string): Promise<RepoBranch> {
  const branch = await branchNamed(access.gitDir, name);
  if (!branch) throw notFound("branch");
  return branch;
}

/** The 400 GitLab answers for each way `createBranch` fails; anything else is a bug and rethrown. */
function createFailure(error: unknown): unknown {
  if (!(error instanceof GitError)) return error;
  if (error.kind === "invalid" && error.subject === "branch")
    return badRequest({ reason: "branch_name_invalid" });
  if (error.kind === "exists") return badRequest({ reason: "branch_exists" });
  if (error.subject === "revision" && (error.kind === "invalid" || error.kind === "not_found"))
    return badRequest({ reason: "branch_ref_invalid" });
  return error;
}

/**
 * A project's branches through the API: reading them needs `download_code` (reporters, and anyone
 * on a public project), creating and removing them `push_code` (developers) under the same push
 * rules as `git push`, and protecting them `admin_project` (masters). Every change of a ref is
 * followed by {@link afterPush}, so API changes leave the same events as pushes.
 */
export const repositoryBranches = {
  /** Every branch with its protection, sorted by name (byte order, as GitLab). Not paginated in v3. */
  list: query("signed_in", ListBranchesInput, async (ctx, input): Promise<BranchView[]> => {
    const { project, gitDir } = await requireRepository(ctx, input.id);
    const [branches, rules] = await Promise.all([
      listBranches(gitDir),
      ctx.runtime.stores.protectedBranches.forProject(project.id),
    ]);
    return branches.map((branch) => view(branch, rules.get(branch.name)));
  }),

  /** One branch: `404 Branch Not Found` when there is none of that name. */
  get: query("signed_in", BranchRefInput, async (ctx, input): Promise<BranchView> => {
    const access = await requireRepository(ctx, input.id);
    const branch = await existingBranch(access, input.branch);
    return view(branch, await ctx.runtime.stores.protectedBranches.find(access.project.id, branch.name));
  }),

  /**
   * Creates a branch at a branch, tag or sha. Checked in GitLab's order, each a 400: the name, a
   * branch already there, the push rules (a developer may not create a protected name), the ref.
   */
  create: mutation("signed_in", CreateBranchInput, async (ctx, input): Promise<BranchView> => {
    const access = await requireRepository(ctx, input.id, "push_code");
    const name = input.branch_name;
    if (!isValidBranchName(name) || !isUnambiguousRefName(name))
      throw badRequest({ reason: "branch_name_invalid" });
    if (await branchHead(access.gitDir, name)) throw badRequest({ reason: "branch_exists" });
    const ref = `refs/heads/${name}`;
    await checkPushRules(ctx.runtime.stores, access, ref, "create");
    const branch = await createBranch(access.gitDir, name, input.ref).catch((error: unknown) => {
      throw createFailure(error);
    });
    const project = await afterPush(ctx.runtime, access, ctx.actor.user, [
      { ref, before: ZERO_SHA, after: branch.commit.id },
    ]);
    // The first branch of a project becomes its default, and may be protected by that.
    return view(branch, await ctx.runtime.stores.protectedBranches.find(project.id, name));
  }),

  /**
   * Removes a branch: 404 `No such branch`; 400 for the default branch (`Cannot remove HEAD
   * branch`) and for a protected one, which nobody removes, masters included, until unprotected.
   */
  remove: mutation("signed_in", BranchRefInput, async (ctx, input) => {
    const access = await requireRepository(ctx, input.id, "push_code");
    const branch = await branchNamed(access.gitDir, input.branch);
    if (!branch) throw new DomainError({ kind: "not_found", reason: "branch_not_found" });
    if (branch.name === access.project.default_branch) throw badRequest({ reason: "branch_is_default" });
    if (await ctx.runtime.stores.protectedBranches.find(access.project.id, branch.name))
      throw badRequest({ reason: "branch_protected" });
    const ref = `refs/heads/${branch.name}`;
    await checkPushRules(ctx.runtime.stores, access, ref, "delete");
    try {
      // Only the commit we looked at: a branch pushed to meanwhile is not silently lost.
      await deleteBranch(access.gitDir, branch.name, branch.commit.id);
    } catch (error) {
      if (GitError.is(error, "not_found"))
        throw new DomainError({ kind: "not_found", reason: "branch_not_found" });
      if (GitError.is(error, "ref_moved")) throw badRequest({ reason: "branch_moved" });
      throw error;
    }
    await afterPush(ctx.runtime, access, ctx.actor.user, [
      { ref, before: branch.commit.id, after: ZERO_SHA },
    ]);
    return { branch_name: branch.name };
  }),

  /**
   * Protects a branch (idempotent; re-protecting replaces the flags). A flag left out means
   * masters only, as GitLab 8.x: protecting again without flags takes developers' rights away.
   */
  protect: mutation("signed_in", ProtectBranchInput, async (ctx, input): Promise<BranchView> => {
    const access = await requireRepository(ctx, input.id, "admin_project");
    const branch = await existingBranch(access, input.branch);
    const rule = await ctx.runtime.stores.protectedBranches.protect(access.project.id, branch.name, {
      developers_can_push: input.developers_can_push ?? false,
      developers_can_merge: input.developers_can_merge ?? false,
    });
    return view(branch, rule);
  }),

  /** Unprotects a branch (idempotent). */
  unprotect: mutation("signed_in", BranchRefInput, async (ctx, input): Promise<BranchView> => {
    const access = await requireRepository(ctx, input.id, "admin_project");
    const branch = await existingBranch(access, input.branch);
    await ctx.runtime.stores.protectedBranches.unprotect(access.project.id, branch.name);
    return view(branch, undefined);
  }),
};
