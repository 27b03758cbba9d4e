import { attempt, type KilnClient, type PagedProcedure, pages } from "@kiln/client";
import type {
  BuildJson,
  CiStatus,
  MergeRequestJson,
  PaginationParams,
  PipelineJson,
  ProjectJson,
  TodoJson,
} from "@kiln/schemas";
import * as vscode from "vscode";
import type { Accounts, Connection } from "./accounts.js";
import type { Workspace } from "./git.js";
import { sourceKey } from "./model/merge-requests.js";
import { projectsOfRemotes, remoteKey } from "./model/remotes.js";
import { applyTodoChange } from "./model/todos.js";

/** A todo made or marked done, as the live stream tells of it. */
type TodoChange = Parameters<typeof applyTodoChange>[1];

/** The most todos or merge requests a list loads (two pages): a sidebar, not an archive. */
const MAX_PAGES = 2;
const PER_PAGE = 100;

/** The latest pipeline of a branch, with its builds in stage order. */
export interface BranchPipeline {
  pipeline: PipelineJson;
  builds: BuildJson[];
}

/** The workspace's project on an instance. */
export interface RepositoryData {
  project: ProjectJson;
  /** Its open merge requests. */
  mergeRequests: MergeRequestJson[];
  /** The branch checked out in the workspace, if any. */
  branch: string | null;
  /** The latest pipeline of that branch, if it has one. */
  pipeline: BranchPipeline | null;
}

/** What one instance shows. */
export interface InstanceData {
  connection: Connection;
  todos: TodoJson[];
  assigned: MergeRequestJson[];
  created: MergeRequestJson[];
  repository: RepositoryData | null;
  /** The status of each listed merge request's latest pipeline, by {@link sourceKey}; none if it has none. */
  mergeRequestPipelines: Record<string, CiStatus>;
}

/** The branch checked out in the workspace's clone of `project`, if the workspace has one. */
export function localBranchOf(workspace: Workspace, project: ProjectJson): string | null {
  const clones = [project.http_url_to_repo, project.ssh_url_to_repo].map(remoteKey);
  return workspace.localBranch((url) => clones.includes(remoteKey(url)))?.name ?? null;
}

/** The latest pipeline of a branch and its builds; null when it has none or it cannot be read. */
async function branchPipeline(
  client: KilnClient,
  projectId: number,
  ref: string,
): Promise<BranchPipeline | null> {
  const latest = await attempt(() => client.pipelines.latest.query({ id: projectId, ref }));
  if (!latest.ok || !latest.value) return null;
  const builds = await attempt(() =>
    client.pipelines.builds.query({ id: projectId, pipeline_id: latest.value!.id }),
  );
  return { pipeline: latest.value, builds: builds.ok ? builds.value : [] };
}

/** Loads a list's first pages. */
async function firstPages<I extends PaginationParams, T>(
  procedure: PagedProcedure<I, T>,
  input: I,
): Promise<T[]> {
  const loaded: T[] = [];
  let count = 0;
  for await (const page of pages(procedure, { ...input, per_page: PER_PAGE })) {
    loaded.push(...page.items);
    if (++count >= MAX_PAGES) break;
  }
  return loaded;
}

/**
 * The views' data for every signed-in instance, loaded together (one batched request per
 * instance for the lists), with a fingerprint to tell whether anything changed since the last load.
 */
export class DataStore {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after a load that changed what the views show. */
  readonly onDidChange = this.changed.event;
  private data: InstanceData[] = [];
  private fingerprint = "";
  /** The workspace's project per instance, found once per set of remotes (projects rarely move). */
  private readonly projectCache = new Map<string, ProjectJson | null>();
  /**
   * The todo changes the stream told of, numbered: a load that started before one answers lists
   * read without it, so they are applied again on what it loaded.
   */
  private todoChanges: { seq: number; instance: string; change: TodoChange }[] = [];
  private seq = 0;
  readonly errors: string[] = [];

  constructor(
    private readonly accounts: Accounts,
    private readonly workspace: Workspace,
  ) {}

  get instances(): readonly InstanceData[] {
    return this.data;
  }

  /** Loads everything again; answers whether anything changed. */
  async load(): Promise<boolean> {
    const startedAt = this.seq;
    const connections = await this.accounts.all();
    const errors: string[] = [];
    const loaded = await Promise.all(
      connections.map(async (connection) => {
        try {
          return await this.loadInstance(connection);
        } catch (error) {
          errors.push(`${connection.account.url}: ${error instanceof Error ? error.message : String(error)}`);
          return null;
        }
      }),
    );
    const data = loaded.filter((entry): entry is InstanceData => entry !== null);
    this.todoChanges = this.todoChanges.filter((told) => told.seq > startedAt);
    this.errors.splice(0, this.errors.length, ...errors);
    return this.show(data.map((entry) => this.withTodoChanges(entry)));
  }

  /** Shows `data` when it differs from what is shown; answers whether it did. */
  private show(data: InstanceData[]): boolean {
    const fingerprint = JSON.stringify([
      data.map(({ connection, todos, assigned, created, repository, mergeRequestPipelines }) => [
        connection.account.url,
        todos,
        assigned,
        created,
        repository,
        mergeRequestPipelines,
      ]),
      this.errors,
    ]);
    if (fingerprint === this.fingerprint) return false;
    this.fingerprint = fingerprint;
    this.data = data;
    this.changed.fire();
    return true;
  }

  /**
   * Takes in a todo the live stream told of (created or done) on `instance`, with no request;
   * false when the instance is not loaded yet (its next load has it).
   */
  applyTodo(instance: string, change: TodoChange): boolean {
    if (!this.data.some((entry) => entry.connection.account.url === instance)) return false;
    this.todoChanges.push({ seq: ++this.seq, instance, change });
    this.show(this.data.map((entry) => this.withTodoChanges(entry)));
    return true;
  }

  /** The instance's data with the todo changes told since the last load began applied. */
  private withTodoChanges(entry: InstanceData): InstanceData {
    const url = entry.connection.account.url;
    const todos = this.todoChanges
      .filter((told) => told.instance === url)
      .reduce((list, told) => applyTodoChange(list, told.change), entry.todos);
    return { ...entry, todos };
  }

  private async loadInstance(connection: Connection): Promise<InstanceData> {
    const { client } = connection;
    const projectPromise = this.projectOf(connection);
    const [todos, assigned, created, project] = await Promise.all([
      firstPages(client.todos.list, { state: "pending" as const }),
      firstPages(client.mergeRequests.mine, { scope: "assigned_to_me" as const, state: "opened" as const }),
      firstPages(client.mergeRequests.mine, { scope: "created_by_me" as const, state: "opened" as const }),
      projectPromise,
    ]);
    const repository = project ? await this.loadRepository(client, project) : null;
    const mergeRequestPipelines = await this.pipelinesOf(client, [
      ...assigned,
      ...created,
      ...(repository?.mergeRequests ?? []),
    ]);
    return { connection, todos, assigned, created, repository, mergeRequestPipelines };
  }

  private async loadRepository(client: KilnClient, project: ProjectJson): Promise<RepositoryData> {
    const branch = localBranchOf(this.workspace, project);
    const [mergeRequests, pipeline] = await Promise.all([
      firstPages(client.mergeRequests.list, { id: project.id, state: "opened" as const }),
      branch ? branchPipeline(client, project.id, branch) : null,
    ]);
    return { project, mergeRequests, branch, pipeline };
  }

  /** The latest pipeline status of each merge request's source branch (one batched request). */
  private async pipelinesOf(
    client: KilnClient,
    mergeRequests: readonly MergeRequestJson[],
  ): Promise<Record<string, CiStatus>> {
    const sources = new Map(mergeRequests.map((mr) => [sourceKey(mr), mr]));
    const statuses = await Promise.all(
      [...sources].map(async ([key, mr]) => {
        const latest = await attempt(() =>
          client.pipelines.latest.query({ id: mr.source_project_id, ref: mr.source_branch }),
        );
        return latest.ok && latest.value ? [[key, latest.value.status] as const] : [];
      }),
    );
    // In the order of the lists, whatever order the answers came in: the fingerprint compares it.
    return Object.fromEntries(statuses.flat());
  }

  /**
   * The project whose pipelines and builds the views show, on each instance: the workspace's (the
   * stream carries the pipelines of my merge requests' branches without it).
   */
  followedProjects(): Map<string, number[]> {
    return new Map(
      this.data.map(({ connection, repository }) => [
        connection.account.url,
        repository ? [repository.project.id] : [],
      ]),
    );
  }

  /** The project the workspace's remotes point at on this instance, if any. */
  private async projectOf(connection: Connection): Promise<ProjectJson | null> {
    const remotes = this.workspace.remoteUrls();
    const cacheKey = `${connection.account.url}|${remotes.join("|")}`;
    if (this.projectCache.has(cacheKey)) return this.projectCache.get(cacheKey) ?? null;
    const project = await findProject(connection.client, remotes);
    this.projectCache.set(cacheKey, project);
    return project;
  }
}

/** Searches the instance for each remote's project name, and keeps the project whose clone URL matches. */
async function findProject(client: KilnClient, remotes: readonly string[]): Promise<ProjectJson | null> {
  const names = new Set(
    remotes
      .map(remoteKey)
      .filter((key): key is string => key !== null)
      .map((key) => key.slice(key.lastIndexOf("/") + 1)),
  );
  for (const name of names) {
    const candidates = await firstPages(client.projects.visible, { search: name });
    const [match] = projectsOfRemotes(remotes, candidates);
    if (match) return match;
  }
  return null;
}
