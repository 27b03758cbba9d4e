import { AccessLevel } from "./access.js";
import { BranchProtection } from "./settings.js";

/** A branch protection rule of a project (one exact branch name). */
export interface ProtectedBranch {
  id: number;
  project_id: number;
  name: string;
  /** Developers may push to it (never force-push or delete). */
  developers_can_push: boolean;
  /** Developers may accept merge requests into it. */
  developers_can_merge: boolean;
  created_at: string;
  updated_at: string;
}

/** The protection flags a default branch gets under a setting, or null when it stays unprotected. */
export function defaultBranchProtection(
  setting: BranchProtection,
): Pick<ProtectedBranch, "developers_can_push" | "developers_can_merge"> | null {
  if (setting === BranchProtection.NONE) return null;
  const developers = setting === BranchProtection.DEVELOPERS_CAN_PUSH;
  return { developers_can_push: developers, developers_can_merge: developers };
}

/** One ref a push changes, as the authorization sees it. */
export interface RefChange {
  /** The full ref name, `refs/heads/x` or `refs/tags/x`. */
  ref: string;
  kind: "create" | "update" | "delete";
  /** True for an update that is not a fast-forward. */
  forced: boolean;
}

/** What the pusher may do on the project, from the permission table. */
export interface PushRights {
  /** The caller's access level on the project (administrators count as owners). */
  level: AccessLevel;
  /** The `push_code` ability (developer and above on a project that is not archived). */
  pushCode: boolean;
  /** The project's default branch, which nobody deletes. */
  defaultBranch: string | null;
}

/**
 * Why a push may not change a ref, as codes: the surfaces word them (GitLab 8.x's messages, which
 * the git client shows after `remote:` and the API answers for branches and tags).
 */
export const PushRefusal = {
  PUSH_CODE: "push_code",
  PROTECTED_BRANCH: "protected_branch",
  FORCE_PUSH_PROTECTED: "force_push_protected",
  DELETE_PROTECTED: "delete_protected",
  DELETE_DEFAULT: "delete_default",
  CHANGE_TAGS: "change_tags",
} as const;

/** One of the {@link PushRefusal} codes. */
export type PushRefusal = (typeof PushRefusal)[keyof typeof PushRefusal];

const BRANCH_PREFIX = "refs/heads/";
const TAG_PREFIX = "refs/tags/";

/** The branch name of `refs/heads/<name>`, or null for any other ref. */
export function branchOfRef(ref: string): string | null {
  return ref.startsWith(BRANCH_PREFIX) ? ref.slice(BRANCH_PREFIX.length) : null;
}

/**
 * Why a push may not change `change`, or null when it may. `protection` is the rule of the branch
 * the ref names, if it is protected. Nobody force-pushes to or deletes a protected branch; masters
 * push to it, developers only when it allows them; existing tags are changed by masters only.
 */
export function pushRefusal(
  change: RefChange,
  protection: ProtectedBranch | undefined,
  rights: PushRights,
): PushRefusal | null {
  if (!rights.pushCode) return PushRefusal.PUSH_CODE;
  const branch = branchOfRef(change.ref);
  if (branch !== null && change.kind === "delete" && branch === rights.defaultBranch)
    return PushRefusal.DELETE_DEFAULT;
  if (branch !== null && protection) {
    if (change.kind === "delete") return PushRefusal.DELETE_PROTECTED;
    if (change.forced) return PushRefusal.FORCE_PUSH_PROTECTED;
    if (rights.level >= AccessLevel.MASTER || protection.developers_can_push) return null;
    return PushRefusal.PROTECTED_BRANCH;
  }
  if (change.ref.startsWith(TAG_PREFIX) && change.kind !== "create" && rights.level < AccessLevel.MASTER) {
    return PushRefusal.CHANGE_TAGS;
  }
  return null;
}

/**
 * True when a user at `level` may merge into a branch with this protection (none: anyone who may
 * push code): masters always, developers when the rule lets them merge or push.
 */
export function mayMergeInto(level: AccessLevel, protection: ProtectedBranch | undefined): boolean {
  if (level >= AccessLevel.MASTER) return true;
  if (level < AccessLevel.DEVELOPER) return false;
  return !protection || protection.developers_can_merge || protection.developers_can_push;
}
