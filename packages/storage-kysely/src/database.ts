import type {
  Issue,
  Label,
  MergeRequest,
  Milestone,
  Note,
  Project,
  ProtectedBranch,
  Subscription,
  Todo,
  User,
} from "@kiln/domain";
import type { Generated } from "kysely";
import type {
  CiBuildsTable,
  CiPipelinesTable,
  CiRunnerProjectsTable,
  CiRunnersTable,
  CiTriggersTable,
  CiVariablesTable,
} from "./database-ci.js";
import type { HookDeliveriesTable, SystemHooksTable } from "./database-hooks.js";
import type {
  OAuthAccessGrantsTable,
  OAuthAccessTokensTable,
  OAuthApplicationsTable,
} from "./database-oauth.js";
import type { WebSessionsTable } from "./database-web.js";

export type {
  CiBuildsTable,
  CiPipelinesTable,
  CiRunnerProjectsTable,
  CiRunnersTable,
  CiTriggersTable,
  CiVariablesTable,
} from "./database-ci.js";
export type { HookDeliveriesTable, SystemHooksTable } from "./database-hooks.js";
export type {
  OAuthAccessGrantsTable,
  OAuthAccessTokensTable,
  OAuthApplicationsTable,
} from "./database-oauth.js";
export type { WebSessionsTable } from "./database-web.js";

/**
 * How an entity is stored: booleans become 0/1 integers so one schema serves SQLite and
 * PostgreSQL alike; timestamps are ISO 8601 text, which sorts chronologically on both.
 */
export type Stored<E> = { [K in keyof E]: E[K] extends boolean ? number : E[K] };

/** `users`: accounts, with their secrets. */
export interface UsersTable extends Omit<Stored<User>, "id" | "personal_projects_count"> {
  id: Generated<number>;
  personal_projects_count: Generated<number>;
  password_hash: string;
  /** SHA-256 of the private token, for lookup. */
  private_token_digest: string;
  /** The private token sealed with the server key, so `POST /session` can return it. */
  private_token_sealed: string;
  /** The enrolled TOTP secret, sealed with the server key (null: no two-factor authentication). */
  otp_secret_sealed: string | null;
  /** A TOTP secret being enrolled, not in force until confirmed with a code. */
  otp_pending_secret_sealed: string | null;
  /** The last TOTP step a code was accepted for; no step is accepted twice. */
  otp_last_step: number | null;
}

/** `two_factor_recovery_codes`: single-use recovery codes, stored as SHA-256 digests. */
export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_digest: string;
  created_at: string;
  used_at: string | null;
}

/** `namespaces`: one per user (kind `user`) and one per group (kind `group`); paths are unique across both. */
export interface NamespacesTable {
  id: Generated<number>;
  name: string;
  path: string;
  kind: "user" | "group";
  owner_id: number | null;
  description: Generated<string>;
  visibility_level: Generated<number>;
  share_with_group_lock: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** `personal_access_tokens`: stored as SHA-256 digests only. */
export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_digest: string;
  revoked: number;
  created_at: string;
  expires_at: string | null;
  /** Space-separated; `api` for tokens from before scopes. */
  scopes: Generated<string>;
}

/** `ssh_keys`: public keys of users. */
export interface SshKeysTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  key: string;
  fingerprint: string;
  created_at: string;
}

/**
 * `application_settings`: one row (id 1, there from the first migration on) holding the changed
 * settings as JSON over the defaults.
 */
export interface ApplicationSettingsTable {
  id: number;
  data: string;
  /** The registration token of shared runners, sealed; null until first asked for. */
  runners_registration_token_sealed: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * `projects`, with the runners token as a digest (lookup) and sealed (display to masters), and the
 * import URL sealed.
 */
export interface ProjectsTable
  extends Omit<
    Stored<Project>,
    "id" | "star_count" | "open_issues_count" | "public_open_issues_count" | "build_timeout"
  > {
  id: Generated<number>;
  star_count: Generated<number>;
  open_issues_count: Generated<number>;
  public_open_issues_count: Generated<number>;
  /** The import URL sealed with the server key (it may carry credentials). */
  import_url_sealed: string | null;
  /** Import URLs in the clear, from before they were sealed: emptied when the server starts. */
  import_url: string | null;
  /** With `open_issues_count` (opened and reopened), the issues in each state, kept by the issue store. */
  closed_issues_count: Generated<number>;
  /** The merge requests in each state (open: opened and reopened), kept by the merge request store. */
  open_merge_requests_count: Generated<number>;
  closed_merge_requests_count: Generated<number>;
  merged_merge_requests_count: Generated<number>;
  runners_token_digest: string;
  runners_token_sealed: string;
  /** Seconds a build may run (8.x's `build_timeout`, default one hour). */
  build_timeout: Generated<number>;
}

/** `project_members` and `group_members` share one shape. */
interface MembersTable {
  id: Generated<number>;
  user_id: number;
  access_level: number;
  created_at: string;
  updated_at: string;
}

/** `project_members`: direct memberships of projects. */
export interface ProjectMembersTable extends MembersTable {
  project_id: number;
}

/** `group_members`: memberships of groups (namespaces of kind `group`). */
export interface GroupMembersTable extends MembersTable {
  group_id: number;
}

/** `project_group_links`: projects shared with groups. */
export interface ProjectGroupLinksTable {
  id: Generated<number>;
  project_id: number;
  group_id: number;
  group_access: number;
  created_at: string;
}

/** `project_stars`: who starred what. */
export interface ProjectStarsTable {
  user_id: number;
  project_id: number;
  created_at: string;
}

/** `forked_project_links`: a fork and the project it was forked from. */
export interface ForkedProjectLinksTable {
  forked_to_project_id: number;
  forked_from_project_id: number;
  created_at: string;
}

/** `project_hooks`: webhooks; the secret token is sealed. */
export interface ProjectHooksTable {
  id: Generated<number>;
  project_id: number;
  url: string;
  token_sealed: string | null;
  push_events: number;
  issues_events: number;
  merge_requests_events: number;
  tag_push_events: number;
  note_events: number;
  build_events: number;
  pipeline_events: number;
  wiki_page_events: number;
  enable_ssl_verification: number;
  created_at: string;
  updated_at: string;
}

/** `events`: the activity feed; `data` is JSON text. */
export interface EventsTable {
  id: Generated<number>;
  project_id: number | null;
  author_id: number | null;
  action: number;
  target_type: string | null;
  target_id: number | null;
  target_title: string | null;
  data: string | null;
  created_at: string;
}

/** `uploads`: files attached to projects, stored under the data dir by a random secret. */
export interface UploadsTable {
  id: Generated<number>;
  project_id: number;
  uploader_id: number | null;
  secret: string;
  filename: string;
  size: number;
  created_at: string;
}

/** `protected_branches`: branch protection rules, one per project and exact branch name. */
export interface ProtectedBranchesTable extends Omit<Stored<ProtectedBranch>, "id"> {
  id: Generated<number>;
}

/**
 * The stored form of an issue's or merge request's state: what lists filter on. An open one that was
 * reopened is `opened` with `reopened` 1.
 */
export type StoredIssuableState = "opened" | "closed" | "merged";

/** `internal_ids`: the last iid given out per project and kind (`issues`, `merge_requests`, `milestones`). */
export interface InternalIdsTable {
  project_id: number;
  usage: string;
  last_value: number;
}

/** `issues`: see {@link StoredIssuableState} for `state` and `reopened`. */
export interface IssuesTable extends Omit<Stored<Issue>, "id" | "state"> {
  id: Generated<number>;
  state: StoredIssuableState;
  reopened: number;
}

/** `merge_requests`: `project_id` is the target project; `state` as for issues. */
export interface MergeRequestsTable extends Omit<Stored<MergeRequest>, "id" | "state" | "target_project_id"> {
  id: Generated<number>;
  state: StoredIssuableState;
  reopened: number;
  /** The options of a merge when the build succeeds, as JSON (see `MergeParams`), or null. */
  merge_params: string | null;
}

/**
 * `outbox_events`: domain events, each written in the transaction of the change it reports; ids
 * increase in commit order (see the outbox store).
 */
export interface OutboxEventsTable {
  id: Generated<number>;
  /** The project the event happened in, whose events each subscriber handles in id order. */
  project_id: number;
  /** The event's kind (`push`, `issue`, ...). */
  kind: string;
  /** The event, as JSON. */
  payload: string;
  created_at: string;
}

/** `outbox_positions`: per subscriber, the id of the last event it has handled. */
export interface OutboxPositionsTable {
  subscriber: string;
  position: Generated<number>;
  updated_at: string;
}

/**
 * `merge_intents`: a merge written but not yet recorded, from before its target branch moves to the
 * transaction that records it (see the merge intent store).
 */
export interface MergeIntentsTable {
  id: Generated<number>;
  merge_request_id: number;
  target_branch: string;
  /** The target head the merge commit was written on. */
  previous_sha: string;
  commit_sha: string;
  /** The source head merged, which the source branch must still be at to be removed. */
  source_sha: string;
  /** Who merges; null once their account is deleted. */
  user_id: number | null;
  remove_source_branch: number;
  /** A JSON array of the ids of the issues the merge closes. */
  closing_issue_ids: string;
  created_at: string;
}

/** `notes`: comments and system notes on issues and merge requests (by type and id). */
export interface NotesTable extends Omit<Stored<Note>, "id"> {
  id: Generated<number>;
}

/** `labels`: a project's labels, titles unique in the project. */
export interface LabelsTable extends Omit<Stored<Label>, "id"> {
  id: Generated<number>;
  /** What carries the label in each counted state, kept by the stores (see label-counters.ts). */
  open_issues_count: Generated<number>;
  closed_issues_count: Generated<number>;
  open_merge_requests_count: Generated<number>;
}

/** `label_links`: which issues and merge requests carry which label. */
export interface LabelLinksTable {
  label_id: number;
  target_type: string;
  target_id: number;
}

/** `milestones`: a project's milestones, numbered per project. */
export interface MilestonesTable extends Omit<Stored<Milestone>, "id"> {
  id: Generated<number>;
}

/** `todos`: at most one pending per user and target. */
export interface TodosTable extends Omit<Stored<Todo>, "id"> {
  id: Generated<number>;
}

/** `subscriptions`: explicit subscriptions and unsubscriptions, one per user and subject. */
export interface SubscriptionsTable extends Stored<Subscription> {
  id: Generated<number>;
}

/** The whole schema, as Kysely sees it. */
export interface Database {
  users: UsersTable;
  namespaces: NamespacesTable;
  personal_access_tokens: PersonalAccessTokensTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  ssh_keys: SshKeysTable;
  application_settings: ApplicationSettingsTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  group_members: GroupMembersTable;
  project_group_links: ProjectGroupLinksTable;
  project_stars: ProjectStarsTable;
  forked_project_links: ForkedProjectLinksTable;
  project_hooks: ProjectHooksTable;
  events: EventsTable;
  uploads: UploadsTable;
  protected_branches: ProtectedBranchesTable;
  internal_ids: InternalIdsTable;
  issues: IssuesTable;
  merge_requests: MergeRequestsTable;
  merge_intents: MergeIntentsTable;
  notes: NotesTable;
  labels: LabelsTable;
  label_links: LabelLinksTable;
  milestones: MilestonesTable;
  todos: TodosTable;
  subscriptions: SubscriptionsTable;
  outbox_events: OutboxEventsTable;
  outbox_positions: OutboxPositionsTable;
  system_hooks: SystemHooksTable;
  hook_deliveries: HookDeliveriesTable;
  ci_pipelines: CiPipelinesTable;
  ci_builds: CiBuildsTable;
  ci_runners: CiRunnersTable;
  ci_runner_projects: CiRunnerProjectsTable;
  ci_variables: CiVariablesTable;
  ci_triggers: CiTriggersTable;
  web_sessions: WebSessionsTable;
  oauth_applications: OAuthApplicationsTable;
  oauth_access_grants: OAuthAccessGrantsTable;
  oauth_access_tokens: OAuthAccessTokensTable;
}
