import type { LiveEventJson } from "@kiln/schemas";
import type * as vscode from "vscode";
import type { Accounts, Connection } from "./accounts.js";

/** Changes close together are loaded once. */
const SETTLE_MS = 150;

/**
 * Follows each signed-in instance's live stream (`live.events`, server-sent events; the client
 * reconnects and resumes after the last event), with the pipelines and builds of the projects
 * `projectsOf` names for the instance. Each event goes to `onEvent`; those `applied` says it took
 * in as they are (todos) load nothing, the others make the views load again at once (changes
 * close together once). `onConnected` tells whether every instance's stream is up (then polling
 * can slow down).
 */
export class LiveFollower implements vscode.Disposable {
  private subscriptions: { unsubscribe(): void }[] = [];
  private readonly started = new Set<string>();
  /** Per instance: the last event seen, where a new subscription resumes. */
  private readonly lastEventIds = new Map<string, string>();
  /** Per instance: the projects followed now, to tell when they change. */
  private followed = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private generation = 0;

  constructor(
    private readonly accounts: Accounts,
    private readonly onChange: () => void,
    private readonly onEvent: (instance: string, event: LiveEventJson) => { applied: boolean },
    private readonly onConnected: (allUp: boolean) => void,
    private readonly projectsOf: (instance: string) => readonly number[] = () => [],
  ) {}

  /** Subscribes again, from the last event seen, when the projects to follow changed. */
  async followProjects(): Promise<void> {
    const wanted = this.projectsByInstance(await this.accounts.all());
    const same =
      wanted.size === this.followed.size &&
      [...wanted].every(([url, projects]) => this.followed.get(url) === projects);
    if (!same) await this.follow();
  }

  private projectsByInstance(connections: readonly Connection[]): Map<string, string> {
    return new Map(connections.map(({ account }) => [account.url, this.projectsOf(account.url).join(",")]));
  }

  /** (Re)subscribes to the streams of the instances signed in now. */
  async follow(): Promise<void> {
    this.stop();
    const generation = ++this.generation;
    const connections = await this.accounts.all();
    if (generation !== this.generation) return;
    this.followed = this.projectsByInstance(connections);
    const expected = connections.length;
    const report = () => this.onConnected(expected > 0 && this.started.size === expected);
    for (const connection of connections) this.subscriptions.push(this.subscribe(connection, report));
    report();
  }

  private subscribe(connection: Connection, report: () => void): { unsubscribe(): void } {
    const url = connection.account.url;
    const lastEventId = this.lastEventIds.get(url);
    const input = { projects: [...this.projectsOf(url)], ...(lastEventId ? { lastEventId } : {}) };
    return connection.client.live.events.subscribe(input, {
      onStarted: () => {
        this.started.add(url);
        report();
      },
      onData: ({ id, data }) => {
        this.lastEventIds.set(url, id);
        if (!this.onEvent(url, data).applied) this.changed();
      },
      onError: () => {
        this.started.delete(url);
        report();
      },
      onConnectionStateChange: (state) => {
        if (state.state !== "pending") this.started.delete(url);
        else this.started.add(url);
        report();
      },
    });
  }

  private changed(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.onChange();
    }, SETTLE_MS);
  }

  private stop(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
    this.started.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  dispose(): void {
    this.generation++;
    this.stop();
  }
}
