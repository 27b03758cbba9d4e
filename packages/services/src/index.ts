/**
 * @module @kiln/services
 * Kiln's use cases. Each is an {@link Operation} (input schema, access rule, body), reachable as a
 * tRPC procedure of {@link appRouter} or, in process, with {@link invoke}. Build a
 * {@link ServiceRuntime} once per process; each call gets a context naming the actor.
 *
 * @example
 * ```ts
 * const runtime = new ServiceRuntime({ stores, secretKey, singleProcess: true });
 * const anonymous = createCaller({ runtime, actor: null, system: false });
 * const identity = await anonymous.auth.identify({ token });
 * // or, without tRPC's per-call cost:
 * const me = await invoke(users.me, { runtime, actor, system: false }, {});
 * ```
 */

/** A member of a project or group with their user, as the member operations answer. */
export type { Member } from "@kiln/storage-kysely";
export type { BasicCredentials } from "./auth/basic-credentials.js";
export { applySudo, identifyToken } from "./auth/identify.js";
export type { AuthMethod } from "./auth/identity-cache.js";
export { ensureRootUser, type RootBootstrap } from "./bootstrap.js";
export type { Actor, Context } from "./context.js";
export {
  type DomainEvent,
  type DomainEventListener,
  DomainEvents,
  type IssuableAction,
  type IssueEvent,
  type MergeRequestEvent,
  type NoteEvent,
  type PushEvent,
} from "./domain-events.js";
export type { GroupDetail } from "./groups/detail.js";
export type { IssuableParts, IssueView, MergeRequestView } from "./issuables/views.js";
export { finishInterruptedMerges, type InterruptedMerges } from "./merge-requests/finish.js";
export type { MergeRequestChanges } from "./merge-requests/reads.js";
export { watchMergeRequests } from "./merge-requests/refresh.js";
export type { NoteView } from "./notes/views.js";
export { type Access, invoke, type Operation, type SignedInContext } from "./operation.js";
export { auth } from "./operations/auth.js";
export { type BranchView, repositoryBranches } from "./operations/branches.js";
export {
  type RepositoryCommit,
  type RepositoryCommitDetail,
  type RepositoryDiff,
  repositoryCommits,
} from "./operations/commits.js";
export { type FileCommit, type RepositoryFile, repositoryFiles } from "./operations/files.js";
export { groupMembers } from "./operations/group-members.js";
export { groups } from "./operations/groups.js";
export { projectHooks } from "./operations/hooks.js";
export { issues } from "./operations/issues.js";
export { type LabelView, labels } from "./operations/labels.js";
export { mergeRequests } from "./operations/merge-requests.js";
export { milestones } from "./operations/milestones.js";
export { namespaces } from "./operations/namespaces.js";
export { issueNotes, mergeRequestComments, mergeRequestNotes } from "./operations/notes.js";
export { projectLinks } from "./operations/project-links.js";
export { projectMembers } from "./operations/project-members.js";
export { projects } from "./operations/projects.js";
export {
  type RepositoryArchive,
  type RepositoryBlob,
  type RepositoryComparison,
  type RepositoryTreeEntry,
  repository,
} from "./operations/repository.js";
export { session } from "./operations/session.js";
export { type SettingsView, settings } from "./operations/settings.js";
export { sshKeys } from "./operations/ssh-keys.js";
export { repositoryTags, type TagView } from "./operations/tags.js";
export { todos } from "./operations/todos.js";
export { tokens } from "./operations/tokens.js";
export { attachmentLimitBytes, type LocatedUpload, uploads } from "./operations/uploads.js";
export { type UserView, users } from "./operations/users.js";
export { importUrlOf, sealImportUrls } from "./projects/import-urls.js";
export type { ProjectView } from "./projects/views.js";
export {
  decideGitAccess,
  type GitAction,
  type GitDecision,
  type GitDenial,
  type GitGrant,
  type GitRefusal,
  type GitRequest,
} from "./repositories/git-access.js";
export { gitPushAuthorizer, recordGitPush } from "./repositories/git-push.js";
export { type AppRouter, appRouter, type Caller, createCaller } from "./router.js";
export { type RuntimeOptions, ServiceRuntime } from "./runtime.js";
export type { PasswordHasher } from "./security/passwords.js";
export { generateToken, tokenDigest } from "./security/tokens.js";
export { uploadTempDir } from "./storage-files.js";
export { type TodoTargetView, type TodoView, todoView, todoViews } from "./todos/views.js";
export { LEFTOVER_AGE_MS, type ReclaimedUploads, reclaimUploadLeftovers } from "./upload-leftovers.js";
