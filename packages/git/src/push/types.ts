/** What a pushed ref update does. */
export type RefUpdateKind = "create" | "update" | "delete";

/** One ref a push asks to change, as the pre-receive step sees it. */
export interface RefUpdate {
  /** Full ref name (`refs/heads/main`, `refs/tags/v1.0`). */
  ref: string;
  /** The ref's value before the push; all zeros when the ref is created. */
  oldSha: string;
  /** The value the push asks for; all zeros when the ref is deleted. */
  newSha: string;
  kind: RefUpdateKind;
  /**
   * True for an update whose old value is not an ancestor of the new one (a non-fast-forward,
   * what `git push --force` does), and when git cannot tell (values that are not commits).
   * Always false for a create or a delete.
   */
  forced: boolean;
}

/** A reason to refuse a push: of one ref, or (without `ref`) of the whole push. */
export interface PushRefusal {
  ref?: string;
  /** Shown to the pusher as `remote: <message>`. */
  message: string;
}

/** What the authorization callback gets besides the updates. */
export interface PushContext {
  /** The repository pushed to. */
  gitDir: string;
  /**
   * Environment under which git sees the objects of the push, which are still in quarantine
   * while the push is being authorized: pass it as `env` to `runGit` with `gitDir`.
   */
  env: Readonly<Record<string, string>>;
}

/**
 * Decides a push while it runs. Answer no refusals (or nothing) to let it through. Git's
 * pre-receive step is all-or-nothing: one refusal, of any ref, rejects every ref of the push.
 * A callback that throws or runs out of time refuses the push.
 */
export type AuthorizePush = (
  updates: readonly RefUpdate[],
  context: PushContext,
) => readonly PushRefusal[] | undefined | Promise<readonly PushRefusal[] | undefined>;

/** How a push ended, once receive-pack exited. */
export interface PushOutcome {
  /** Every update the push asked for that reached the pre-receive step. */
  requested: readonly RefUpdate[];
  /** The refusals the callback gave (empty when it let the push through). */
  refusals: readonly PushRefusal[];
  /** The updates git applied: what "pushed to" events and push hooks are made of. */
  applied: readonly RefUpdate[];
  /** Refs git did not update, with git's reason, when the client asked for a status report. */
  rejected: ReadonlyMap<string, string>;
  /**
   * Refs git reported updated although the gate never decided the push: its hook did not run.
   * This should never happen (the gate checks its hook before each push); log it loudly.
   */
  ungated: readonly string[];
}

/** True for the all-zeros object id that stands for "no object" (SHA-1 or SHA-256). */
export function isNullSha(sha: string): boolean {
  return /^0+$/.test(sha);
}
