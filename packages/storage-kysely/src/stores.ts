import type { Kysely } from "kysely";
import type { Database } from "./database.js";
import { relaxedTransaction } from "./relaxed-commit.js";
import { CiBuildStore } from "./stores/ci-builds.js";
import { CiPipelineStore } from "./stores/ci-pipelines.js";
import { CiRunnerStore } from "./stores/ci-runners.js";
import { CiTriggerStore, CiVariableStore } from "./stores/ci-secrets.js";
import { EventStore } from "./stores/events.js";
import { DeliveryStore } from "./stores/hook-deliveries.js";
import { HookStore } from "./stores/hooks.js";
import { InternalIdStore } from "./stores/internal-ids.js";
import { IssuablePartsStore } from "./stores/issuable-parts.js";
import { IssueStore } from "./stores/issues.js";
import { LabelStore } from "./stores/labels.js";
import { MemberStore } from "./stores/members.js";
import { MergeIntentStore } from "./stores/merge-intents.js";
import { MergeRequestStore } from "./stores/merge-requests.js";
import { MilestoneStore } from "./stores/milestones.js";
import { NamespaceStore } from "./stores/namespaces.js";
import { NoteStore } from "./stores/notes.js";
import { OAuthApplicationStore } from "./stores/oauth-applications.js";
import { OAuthGrantStore } from "./stores/oauth-grants.js";
import { OAuthTokenStore } from "./stores/oauth-tokens.js";
import { OutboxStore } from "./stores/outbox.js";
import { ForkStore, ShareStore, StarStore } from "./stores/project-links.js";
import { ProjectStore } from "./stores/projects.js";
import { ProtectedBranchStore } from "./stores/protected-branches.js";
import { SettingsStore } from "./stores/settings.js";
import { SshKeyStore } from "./stores/ssh-keys.js";
import { SubscriptionStore } from "./stores/subscriptions.js";
import { SystemHookStore } from "./stores/system-hooks.js";
import { TodoStore } from "./stores/todos.js";
import { PersonalAccessTokenStore } from "./stores/tokens.js";
import { TwoFactorStore } from "./stores/two-factor.js";
import { UploadStore } from "./stores/uploads.js";
import { UserStore } from "./stores/users.js";
import { WebSessionStore } from "./stores/web-sessions.js";

/**
 * Every store, bound to one connection or one transaction. Use cases reach the database only
 * through these; `transaction` runs a function with stores bound to a single transaction.
 */
export class Stores {
  readonly users: UserStore;
  readonly namespaces: NamespaceStore;
  readonly personalAccessTokens: PersonalAccessTokenStore;
  readonly twoFactor: TwoFactorStore;
  readonly sshKeys: SshKeyStore;
  readonly settings: SettingsStore;
  readonly projects: ProjectStore;
  readonly projectMembers: MemberStore;
  readonly groupMembers: MemberStore;
  readonly stars: StarStore;
  readonly forks: ForkStore;
  readonly shares: ShareStore;
  readonly events: EventStore;
  readonly hooks: HookStore;
  readonly uploads: UploadStore;
  readonly protectedBranches: ProtectedBranchStore;
  readonly internalIds: InternalIdStore;
  readonly issues: IssueStore;
  readonly mergeRequests: MergeRequestStore;
  readonly mergeIntents: MergeIntentStore;
  readonly notes: NoteStore;
  readonly labels: LabelStore;
  readonly milestones: MilestoneStore;
  readonly todos: TodoStore;
  readonly subscriptions: SubscriptionStore;
  readonly issuableParts: IssuablePartsStore;
  readonly outbox: OutboxStore;
  readonly systemHooks: SystemHookStore;
  readonly deliveries: DeliveryStore;
  readonly #eventsCommitted = new Set<() => void>();
  readonly ciPipelines: CiPipelineStore;
  readonly ciBuilds: CiBuildStore;
  readonly ciRunners: CiRunnerStore;
  readonly ciVariables: CiVariableStore;
  readonly ciTriggers: CiTriggerStore;
  readonly webSessions: WebSessionStore;
  readonly oauthApplications: OAuthApplicationStore;
  readonly oauthGrants: OAuthGrantStore;
  readonly oauthTokens: OAuthTokenStore;

  constructor(readonly db: Kysely<Database>) {
    this.users = new UserStore(db);
    this.namespaces = new NamespaceStore(db);
    this.personalAccessTokens = new PersonalAccessTokenStore(db);
    this.twoFactor = new TwoFactorStore(db);
    this.sshKeys = new SshKeyStore(db);
    this.settings = new SettingsStore(db);
    this.projects = new ProjectStore(db);
    this.projectMembers = new MemberStore(db, "project");
    this.groupMembers = new MemberStore(db, "group");
    this.stars = new StarStore(db);
    this.forks = new ForkStore(db);
    this.shares = new ShareStore(db);
    this.events = new EventStore(db);
    this.hooks = new HookStore(db);
    this.uploads = new UploadStore(db);
    this.protectedBranches = new ProtectedBranchStore(db);
    this.internalIds = new InternalIdStore(db);
    this.issues = new IssueStore(db);
    this.mergeRequests = new MergeRequestStore(db);
    this.mergeIntents = new MergeIntentStore(db);
    this.notes = new NoteStore(db);
    this.labels = new LabelStore(db);
    this.milestones = new MilestoneStore(db);
    this.todos = new TodoStore(db);
    this.subscriptions = new SubscriptionStore(db);
    this.issuableParts = new IssuablePartsStore(db);
    this.outbox = new OutboxStore(db);
    this.systemHooks = new SystemHookStore(db);
    this.deliveries = new DeliveryStore(db);
    this.ciPipelines = new CiPipelineStore(db);
    this.ciBuilds = new CiBuildStore(db);
    this.ciRunners = new CiRunnerStore(db);
    this.ciVariables = new CiVariableStore(db);
    this.ciTriggers = new CiTriggerStore(db);
    this.webSessions = new WebSessionStore(db);
    this.oauthApplications = new OAuthApplicationStore(db);
    this.oauthGrants = new OAuthGrantStore(db);
    this.oauthTokens = new OAuthTokenStore(db);
  }

  /**
   * Runs `work` in one transaction (or joins the current one): all of it is written, or none. The
   * outbox events it appended are written last, just before the commit.
   */
  transaction<T>(work: (tx: Stores) => Promise<T>): Promise<T> {
    return this.#inTransaction(work, (inner) => this.db.transaction().execute(inner));
  }

  /**
   * {@link transaction} for bookkeeping that may be redone: its commit does not wait for the disk
   * (see {@link relaxedTransaction}), so a power loss, never a crash of the process, may take it
   * back. For example a webhook delivery's claim and outcome: lost, the delivery is sent again.
   */
  relaxedTransaction<T>(work: (tx: Stores) => Promise<T>): Promise<T> {
    return this.#inTransaction(work, (inner) => relaxedTransaction(this.db, inner));
  }

  async #inTransaction<T>(
    work: (tx: Stores) => Promise<T>,
    begin: (inner: (trx: Kysely<Database>) => Promise<T>) => Promise<T>,
  ): Promise<T> {
    if (this.db.isTransaction) return work(this);
    let wroteEvents = false;
    const result = await begin(async (trx) => {
      const tx = new Stores(trx);
      const done = await work(tx);
      wroteEvents = await tx.outbox.flush();
      return done;
    });
    if (wroteEvents) for (const listener of this.#eventsCommitted) listener();
    return result;
  }

  /**
   * Calls `listener` after each transaction of these stores that committed outbox events (an
   * in-process wake-up for their dispatcher, whatever raised them); answers a function that stops it.
   */
  afterEventsCommitted(listener: () => void): () => void {
    this.#eventsCommitted.add(listener);
    return () => this.#eventsCommitted.delete(listener);
  }
}
