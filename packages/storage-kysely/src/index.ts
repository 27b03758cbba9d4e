/**
 * @module @kiln/storage-kysely
 * Kiln's persistence: the Database type, portable migrations and one store per aggregate, on
 * SQLite (better-sqlite3) and PostgreSQL (pg).
 */
export {
  type DatabaseLocation,
  type DialectName,
  type OpenDatabase,
  openDatabase,
  type SqliteSynchronous,
} from "./connect.js";
export type { Database } from "./database.js";
export { ForeignKeyViolation, isUniqueViolation, UniqueViolation } from "./errors.js";
export { type MigrationReport, migrateToLatest } from "./migrate.js";
export { listenForOutbox, type OutboxListener } from "./outbox-notifications.js";
export type { CountMode } from "./queries.js";
export {
  type CiBuild,
  type CiBuildPatch,
  type CiBuildStore,
  type CiYamlVariable,
  type NewCiBuild,
  type RunnerMatch,
  runnerCanPick,
} from "./stores/ci-builds.js";
export type {
  CiPipeline,
  CiPipelinePatch,
  CiPipelineScope,
  CiPipelineStore,
  NewCiPipeline,
} from "./stores/ci-pipelines.js";
export {
  type CiRunner,
  type CiRunnerPatch,
  type CiRunnerScope,
  type CiRunnerSource,
  type CiRunnerStore,
  type NewCiRunner,
  ONLINE_WITHIN_MS,
} from "./stores/ci-runners.js";
export type { CiTrigger, CiTriggerStore, CiVariable, CiVariableStore } from "./stores/ci-secrets.js";
export type { EventFilter, NewEvent } from "./stores/events.js";
export type { DeliveryAttempt, DeliveryStore, DueDelivery, NewDelivery } from "./stores/hook-deliveries.js";
export type { HookPatch, HookStore, NewHook } from "./stores/hooks.js";
export type { InternalIdStore, InternalIdUsage } from "./stores/internal-ids.js";
export type { IssuablePartsStore, IssuablePointers, StoredIssuableParts } from "./stores/issuable-parts.js";
export type { IssuableFilter, IssuableOrder, IssuableScope, IssuableType } from "./stores/issuables.js";
export type {
  ConfidentialFilter,
  IssueCounts,
  IssueFilter,
  IssuePatch,
  IssueStore,
  NewIssue,
} from "./stores/issues.js";
export type { LabelPatch, LabelStore, LabelTarget, NewLabel } from "./stores/labels.js";
export type { Member } from "./stores/members.js";
export type { MergeIntent, MergeIntentStore, NewMergeIntent } from "./stores/merge-intents.js";
export type {
  MergeParams,
  MergeRequestCounts,
  MergeRequestFilter,
  MergeRequestPatch,
  MergeRequestStore,
  NewMergeRequest,
} from "./stores/merge-requests.js";
export type { MilestoneFilter, MilestonePatch, MilestoneStore, NewMilestone } from "./stores/milestones.js";
export type { GroupFields } from "./stores/namespaces.js";
export type { NewNote, Noteable, NoteStore } from "./stores/notes.js";
export type { OAuthApplicationStore } from "./stores/oauth-applications.js";
export type { OAuthGrantStore } from "./stores/oauth-grants.js";
export type { OAuthTokenStore, TokenSelection } from "./stores/oauth-tokens.js";
export {
  type NewOutboxEvent,
  OUTBOX_CHANNEL,
  type OutboxEvent,
  type OutboxStore,
} from "./stores/outbox.js";
export type { ShareWithGroup } from "./stores/project-links.js";
export type {
  ProjectFilter,
  ProjectOrder,
  ProjectOrderColumn,
  ProjectReader,
  ProjectScope,
} from "./stores/project-scopes.js";
export type { NewProject, ProjectPatch } from "./stores/projects.js";
export type { ProtectedBranchStore, ProtectionFlags } from "./stores/protected-branches.js";
export type { SettingsStamps } from "./stores/settings.js";
export type { Subscribable, SubscriptionStore } from "./stores/subscriptions.js";
export type { NewSystemHook, SystemHookStore } from "./stores/system-hooks.js";
export type { NewTodo, TodoFilter, TodoStore, TodoTarget } from "./stores/todos.js";
export type { StoredTwoFactor, TwoFactorStore } from "./stores/two-factor.js";
export type { NewUpload, UploadStore } from "./stores/uploads.js";
export type { NewUser, UserFilter, UserPatch } from "./stores/users.js";
export type { NewWebSession, WebSession, WebSessionStore } from "./stores/web-sessions.js";
export { Stores } from "./stores.js";
