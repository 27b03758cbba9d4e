import {
  branchOfRef,
  defaultBranchProtection,
  EventAction,
  isZeroSha,
  type Namespace,
  type Project,
  type PushCommit,
  pushData,
  type User,
} from "@kiln/domain";
import { pushCommits, runGit, setDefaultBranch } from "@kiln/git";
import type { Stores } from "@kiln/storage-kysely";
import { type PushEvent, recordDomainEvent } from "../domain-events.js";
import { recordEvent } from "../events.js";
import type { ServiceRuntime } from "../runtime.js";
import { repositoryStore } from "./access.js";

/** One ref a push (or an API commit, branch or tag) changed, as git applied it. */
export interface RefMove {
  /** The full ref name. */
  ref: string;
  /** All zeros for a created ref. */
  before: string;
  /** All zeros for a deleted ref. */
  after: string;
}

/** Where the project lives, for the links of the push data. */
interface Location {
  project: Project;
  namespace: Namespace;
}

function kindOf(move: RefMove): "create" | "update" | "delete" {
  if (isZeroSha(move.before)) return "create";
  if (isZeroSha(move.after)) return "delete";
  return "update";
}

/** The branch an empty project's first push makes its default: `master` when pushed, else the first. */
function firstDefaultBranch(moves: readonly RefMove[]): string | null {
  const created = moves
    .filter((move) => kindOf(move) === "create")
    .map((move) => branchOfRef(move.ref))
    .filter((branch): branch is string => branch !== null);
  return created.includes("master") ? "master" : (created[0] ?? null);
}

/**
 * For each created ref of a push, the revisions whose history it does not bring: what the
 * repository held before the push (the branches the push left alone, the old values of the refs
 * it moved), and, for the other refs of an empty project's first push, the branch that push makes
 * the default (GitLab 8.x lists the default branch's whole history, and for another new branch
 * what the default branch lacks). Taken after the refs moved, a plain "every other branch" would
 * also exclude the refs created by the same push, and list nothing for them. Undefined (every
 * other branch, git's own listing) when the push moved that one ref only: no process to start.
 */
async function historyBefore(
  gitDir: string,
  project: Project,
  moves: readonly RefMove[],
): Promise<(move: RefMove) => string[] | undefined> {
  // Only a created ref's listing reads these (an update lists old..new, a delete nothing).
  if (moves.length === 1 || !moves.some((move) => kindOf(move) === "create")) return () => undefined;
  const moved = new Set(moves.map((move) => move.ref));
  const { stdout } = await runGit(["for-each-ref", "--format=%(refname)", "refs/heads/"], { gitDir });
  const untouched = stdout
    .toString("utf8")
    .split("\n")
    .filter((ref) => ref !== "" && !moved.has(ref));
  const before = [
    ...untouched,
    ...moves.filter((move) => !isZeroSha(move.before)).map((move) => move.before),
  ];
  const adopted = project.default_branch === null ? firstDefaultBranch(moves) : null;
  const first = moves.find((move) => adopted !== null && move.ref === `refs/heads/${adopted}`);
  return (move) => (first && move !== first ? [...before, first.after] : before);
}

function withExclude<T extends object>(
  options: T,
  exclude: string[] | undefined,
): T & { exclude?: string[] } {
  return exclude === undefined ? options : { ...options, exclude };
}

/**
 * The first branch of an empty project becomes its default branch (HEAD too) and is protected as
 * the `default_branch_protection` setting says. Answers the project as it now is.
 */
async function adoptDefaultBranch(
  runtime: ServiceRuntime,
  project: Project,
  moves: readonly RefMove[],
): Promise<Project> {
  if (project.default_branch !== null) return project;
  const branch = firstDefaultBranch(moves);
  if (branch === null) return project;
  if (!(await runtime.stores.projects.claimDefaultBranch(project.id, branch))) {
    return (await runtime.stores.projects.findById(project.id)) ?? project;
  }
  await setDefaultBranch(repositoryStore(runtime).path(project.id), branch);
  const protection = defaultBranchProtection((await runtime.settings()).default_branch_protection);
  if (protection) await runtime.stores.protectedBranches.protect(project.id, branch, protection);
  return { ...project, default_branch: branch };
}

/** A push described (its commits listed) but not yet recorded. */
export interface DescribedPush {
  /** One per ref, for the runtime's listeners once recorded. */
  events: PushEvent[];
  /** Appends a "pushed to" feed entry and a domain event per ref, in the caller's transaction. */
  record(tx: Stores): Promise<void>;
}

/**
 * Describes a change of refs for {@link afterPush}, or for a caller that records it in a
 * transaction of its own (a merge records its push with the merge): lists each ref's commits as
 * GitLab's push data has them. Reads git only, never the database; the commits are read from the
 * moves' ids, so the refs need not have moved yet.
 */
export async function describePush(
  runtime: ServiceRuntime,
  where: Location,
  pusher: User,
  moves: readonly RefMove[],
): Promise<DescribedPush> {
  const { project } = where;
  const gitDir = repositoryStore(runtime).path(project.id);
  const webUrl = `${runtime.baseUrl}/${where.namespace.path}/${project.path}`;
  const urlFor = (id: string) => `${webUrl}/commit/${id}`;
  const exclude = await historyBefore(gitDir, project, moves);
  const listed = await Promise.all(
    moves.map((move) =>
      pushCommits(
        gitDir,
        { ref: move.ref, oldSha: move.before, newSha: move.after, kind: kindOf(move) },
        withExclude({ urlFor }, exclude(move)),
      ),
    ),
  );
  const repository = {
    name: project.name,
    url: `${webUrl}.git`,
    description: project.description,
    homepage: webUrl,
  };
  const events: PushEvent[] = moves.map((move, index) => {
    const { commits, total } = listed[index] as (typeof listed)[number];
    return {
      kind: "push",
      projectId: project.id,
      userId: pusher.id,
      ref: move.ref,
      before: move.before,
      after: move.after,
      // git lists the latest commits newest first; push data has them oldest first.
      commits: commits
        .map((commit): PushCommit => ({ ...commit, url: commit.url ?? urlFor(commit.id) }))
        .reverse(),
      totalCommits: total,
    };
  });
  const record = async (tx: Stores) => {
    for (const event of events) {
      const data = pushData(event, { id: pusher.id, name: pusher.name }, repository);
      await recordEvent(tx, { projectId: project.id, authorId: pusher.id, action: EventAction.PUSHED, data });
      await recordDomainEvent(tx, event);
    }
  };
  return { events, record };
}

/** Announces a recorded push's domain events in-process once committed. */
export function raisePush(runtime: ServiceRuntime, push: DescribedPush): void {
  for (const event of push.events) runtime.events.emit(event);
}

/**
 * What follows every accepted change of refs, however it came (a `git push`, a file commit, a
 * branch or tag made through the API): the first branch of an empty project becomes its default,
 * each ref gets a "pushed to" event with GitLab's push data and a push domain event in the outbox
 * (one transaction), for its subscribers (merge requests; webhooks, CI). Answers the project as it
 * now is.
 */
export async function afterPush(
  runtime: ServiceRuntime,
  where: Location,
  pusher: User,
  moves: readonly RefMove[],
): Promise<Project> {
  if (moves.length === 0) return where.project;
  const push = await describePush(runtime, where, pusher, moves);
  const project = await adoptDefaultBranch(runtime, where.project, moves);
  await runtime.stores.transaction((tx) => push.record(tx));
  raisePush(runtime, push);
  return project;
}
