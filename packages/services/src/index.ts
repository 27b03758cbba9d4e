/**
 * @module @kiln/services
 * Kiln's use cases. Each is an {@link Operation} (input schema, access rule, body), reachable as a
 * tRPC procedure of {@link appRouter} or, in process, with {@link invoke}. Build a
 * {@link ServiceRuntime} once per process; each call gets a context naming the actor.
 *
 * Layout: a feature's operation set is `<feature>/operations.ts` (further sets of the same feature
 * `<feature>/<set>.operations.ts`), beside its use cases and helpers; the core (runtime, context,
 * operation) imports no feature. The package README has the map and the layering rules.
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
export type { Member, WebSession } from "@kiln/storage-kysely";
export type { BasicCredentials } from "./auth/basic-credentials.js";
export {
  actorOf,
  BUILD_TOKEN_USER,
  type Credentials,
  FULL_SCOPES,
  identifyActor,
  type TokenCarrier,
} from "./auth/credentials.js";
export { applySudo, identifyToken } from "./auth/identify.js";
export { auth } from "./auth/operations.js";
export { session } from "./auth/session.operations.js";
export {
  type PasswordSignIn,
  type SignedIn,
  type SignInSurface,
  signInWithPassword,
} from "./auth/sign-in.js";
export {
  type SecondFactorAttempt,
  type TwoFactorRequirement,
  twoFactorRequiredNow,
  twoFactorRequirement,
  verifySecondFactor,
} from "./auth/two-factor.js";
export { twoFactor } from "./auth/two-factor.operations.js";
export { ensureRootUser, type RootBootstrap } from "./bootstrap.js";
export {
  artifactsLimitBytes,
  artifactsPath,
  removeRunnerArtifacts,
  runnerArtifacts,
  storeArtifacts,
} from "./ci/artifacts.js";
export { runningBuildOfToken } from "./ci/build-auth.js";
export { type ArtifactsDownload, builds } from "./ci/builds.operations.js";
export { type ClaimedBuild, requestBuild, type WaitOptions } from "./ci/claim.js";
export { ciFollow, type TracePiece } from "./ci/follow.operations.js";
export { CiJanitor, type CiJanitorOptions, type CiSweep } from "./ci/janitor.js";
export { pipelines } from "./ci/pipelines.operations.js";
export { ciPipelines } from "./ci/push.js";
export {
  type RunnerRegistration,
  registerRunner,
  registrationToken,
  unregisterRunner,
} from "./ci/runners.js";
export { type RunnerDetailsView, runners } from "./ci/runners.operations.js";
export { appendTrace, type BuildReport, reportBuild, type TraceAppend } from "./ci/runs.js";
export { type CommitStatusView, commitStatuses } from "./ci/statuses.operations.js";
export { type TriggerRequestView, type TriggerView, triggers } from "./ci/triggers.operations.js";
export { type VariableView, variables } from "./ci/variables.operations.js";
export type { BuildView, PipelineView } from "./ci/views.js";
export type { Actor, Context } from "./context.js";
export {
  type BuildEvent,
  type DomainEvent,
  type DomainEventListener,
  DomainEvents,
  type IssuableAction,
  type IssueEvent,
  type MergeRequestEvent,
  type NoteEvent,
  type PipelineEvent,
  type PushEvent,
  type SystemEvent,
  type SystemEventName,
} from "./domain-events.js";
export type { GroupDetail } from "./groups/detail.js";
export { groupMembers } from "./groups/members.operations.js";
export { groups } from "./groups/operations.js";
export { DeliveryWorker, type DeliveryWorkerOptions } from "./hooks/delivery-worker.js";
export { projectHooks } from "./hooks/operations.js";
export { webhookDeliveries } from "./hooks/subscriber.js";
export { systemHooks } from "./hooks/system.operations.js";
export type { IssuableParts, IssueView, MergeRequestView } from "./issuables/views.js";
export { issues } from "./issues/operations.js";
export { type LabelView, labels } from "./labels/operations.js";
export { LiveHub, type LiveHubOptions, startLiveHub } from "./live/hub.js";
export { finishInterruptedMerges, type InterruptedMerges } from "./merge-requests/finish.js";
export { mergeRequests } from "./merge-requests/operations.js";
export type { MergeRequestChanges } from "./merge-requests/reads.js";
export { mergeStatusRefresh } from "./merge-requests/refresh.js";
export { mergeWhenBuildSucceeds } from "./merge-requests/when-build-succeeds.js";
export { milestones } from "./milestones/operations.js";
export { namespaces } from "./namespaces/operations.js";
export { issueNotes, mergeRequestComments, mergeRequestNotes } from "./notes/operations.js";
export type { NoteView } from "./notes/views.js";
export { type OAuthApplicationWithSecret, oauthApplications } from "./oauth/applications.operations.js";
export {
  type OAuthAuthorization,
  oauth,
  oauthAuthorizations,
  type PreAuthorization,
} from "./oauth/authorize.operations.js";
export type { IssuedToken } from "./oauth/grants.js";
export { redirectUriMatches, redirectUriProblem } from "./oauth/redirect-uri.js";
export {
  type ClientCredentials,
  exchangeToken,
  OAuthError,
  type OAuthErrorCode,
  revokeToken,
  type TokenInfo,
  type TokenParams,
  tokenInfo,
} from "./oauth/token-endpoint.js";
export { type Access, acceptingScopes, invoke, type Operation, type SignedInContext } from "./operation.js";
export {
  type DispatcherOptions,
  OutboxDispatcher,
  type OutboxSubscriber,
  type Wakeups,
} from "./outbox/dispatcher.js";
export * from "./presenters/index.js";
export { importUrlOf, sealImportUrls } from "./projects/import-urls.js";
export { projectLinks } from "./projects/links.operations.js";
export { projectMembers } from "./projects/members.operations.js";
export { projects } from "./projects/operations.js";
export type { ProjectView } from "./projects/views.js";
export { type PublicRouter, publicRouter } from "./public-router.js";
export { type BranchView, repositoryBranches } from "./repositories/branches.operations.js";
export {
  type RepositoryCommit,
  type RepositoryCommitDetail,
  type RepositoryDiff,
  repositoryCommits,
} from "./repositories/commits.operations.js";
export { type FileCommit, type RepositoryFile, repositoryFiles } from "./repositories/files.operations.js";
export {
  decideGitAccess,
  type GitAction,
  type GitDecision,
  type GitDenial,
  type GitGrant,
  type GitRefusal,
  type GitRequest,
  type GitThrottle,
} from "./repositories/git-access.js";
export { gitPushAuthorizer, recordGitPush } from "./repositories/git-push.js";
export {
  type RepositoryArchive,
  type RepositoryBlob,
  type RepositoryComparison,
  type RepositoryTreeEntry,
  repository,
} from "./repositories/operations.js";
export { repositoryTags, type TagView } from "./repositories/tags.operations.js";
export { type AppRouter, appRouter, type Caller, createCaller } from "./router.js";
export { type RuntimeOptions, ServiceRuntime } from "./runtime.js";
export type { AuthMethod } from "./security/identity-cache.js";
export type { PasswordHasher } from "./security/passwords.js";
export {
  GITLAB_SIGN_IN_LIMITS,
  NO_SIGN_IN_LIMITS,
  type SignInLimits,
  SignInThrottle,
} from "./security/sign-in-throttle.js";
export { generateToken, tokenDigest } from "./security/tokens.js";
export { type SettingsView, settings } from "./settings/operations.js";
export { sshKeys } from "./ssh-keys/operations.js";
export { uploadTempDir } from "./storage-files.js";
export { todos } from "./todos/operations.js";
export { type TodoTargetView, type TodoView, todoView, todoViews } from "./todos/views.js";
export { tokens } from "./tokens/operations.js";
export { trpcErrorOf } from "./trpc.js";
export { LEFTOVER_AGE_MS, type ReclaimedUploads, reclaimUploadLeftovers } from "./uploads/leftovers.js";
export { attachmentLimitBytes, type LocatedUpload, uploads } from "./uploads/operations.js";
export { account } from "./users/account.operations.js";
export { type UserView, users } from "./users/operations.js";
export { webSessions } from "./web-sessions/operations.js";
export {
  endWebSession,
  type ResumedWebSession,
  resumeWebSession,
  startWebSession,
  webSessionLifetimeMs,
} from "./web-sessions/sessions.js";
