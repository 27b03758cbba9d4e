import { attempt } from "@kiln/client";
import * as vscode from "vscode";
import type { Accounts } from "./accounts.js";
import { FollowedTrace, nextTraceDelay, plainTrace } from "./model/trace.js";

/** The scheme of a build's trace on a Kiln instance (read-only). */
export const TRACE_SCHEME = "kiln-trace";

interface TraceQuery {
  instance: string;
  projectId: number;
  buildId: number;
}

/** The URI of a build's trace: named after the job, where to read it in the query. */
export function traceUri(instance: string, projectId: number, buildId: number, name: string): vscode.Uri {
  const query: TraceQuery = { instance, projectId, buildId };
  return vscode.Uri.from({
    scheme: TRACE_SCHEME,
    path: `/${name} #${buildId}.log`,
    query: JSON.stringify(query),
  });
}

interface Followed {
  trace: FollowedTrace;
  timer: ReturnType<typeof setTimeout> | null;
  delayMs: number;
}

/**
 * Reads build traces through `builds.trace`, and follows a running build's: the rest is read
 * from where the text ended, again and again while the document is open and the build runs.
 */
export class TraceContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly followed = new Map<string, Followed>();
  private readonly closing: vscode.Disposable;

  constructor(private readonly accounts: Accounts) {
    this.closing = vscode.workspace.onDidCloseTextDocument((document) => this.stop(document.uri));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const key = uri.toString();
    let followed = this.followed.get(key);
    if (!followed) {
      followed = { trace: new FollowedTrace(), timer: null, delayMs: 1000 };
      this.followed.set(key, followed);
      await this.read(uri, followed);
    }
    return plainTrace(followed.trace.text);
  }

  /** Reads the next piece; schedules the one after while the build runs. */
  private async read(uri: vscode.Uri, followed: Followed): Promise<boolean> {
    const { instance, projectId, buildId } = JSON.parse(uri.query) as TraceQuery;
    const connection = (await this.accounts.all()).find((candidate) => candidate.account.url === instance);
    if (!connection) throw new Error(`Not signed in to ${instance}`);
    const piece = await attempt(() =>
      connection.client.builds.trace.query({
        id: projectId,
        build_id: buildId,
        offset: followed.trace.offset,
      }),
    );
    if (!piece.ok) {
      if (followed.trace.text === "") throw new Error(`Could not read the trace: ${piece.error.message}`);
      this.schedule(uri, followed, false);
      return false;
    }
    const grew = followed.trace.apply(piece.value);
    if (!followed.trace.complete) this.schedule(uri, followed, grew);
    return grew;
  }

  private schedule(uri: vscode.Uri, followed: Followed, grew: boolean): void {
    followed.delayMs = nextTraceDelay(grew, followed.delayMs);
    followed.timer = setTimeout(async () => {
      followed.timer = null;
      if (this.followed.get(uri.toString()) !== followed) return;
      if (await this.read(uri, followed).catch(() => false)) this.changed.fire(uri);
    }, followed.delayMs);
  }

  private stop(uri: vscode.Uri): void {
    const followed = this.followed.get(uri.toString());
    if (!followed) return;
    if (followed.timer) clearTimeout(followed.timer);
    this.followed.delete(uri.toString());
  }

  dispose(): void {
    for (const followed of this.followed.values()) if (followed.timer) clearTimeout(followed.timer);
    this.followed.clear();
    this.closing.dispose();
    this.changed.dispose();
  }
}
