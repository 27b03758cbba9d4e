import { attempt } from "@kiln/client";
import * as vscode from "vscode";
import { acceptMergeRequest } from "./accept.js";
import { Accounts } from "./accounts.js";
import { BrowserSignIn } from "./browser-sign-in.js";
import { DataStore, localBranchOf } from "./data.js";
import { BLOB_SCHEME, BlobContentProvider } from "./diff-content.js";
import { Workspace } from "./git.js";
import { LiveFollower } from "./live.js";
import { statusBarText } from "./model/builds.js";
import { mergeRequestLine, sourceKey } from "./model/merge-requests.js";
import { type Notice, noticeOf } from "./model/notifications.js";
import { Poller } from "./model/poller.js";
import { TRACE_SCHEME, TraceContentProvider } from "./trace-content.js";
import { BuildsView, type JobNode } from "./views/builds.js";
import { type MergeRequestNode, MergeRequestsView } from "./views/merge-requests.js";
import { type TodoNode, TodosView } from "./views/todos.js";

/** How much less often the views poll while every instance's live stream is up. */
const LIVE_SLOWDOWN = 4;

/** What the extension offers other extensions and its own tests. */
export interface KilnExtensionApi {
  accounts: Accounts;
  store: DataStore;
  /** Loads the views again (with progress), as the refresh button does. */
  refresh(): Promise<void>;
}

export async function activate(context: vscode.ExtensionContext): Promise<KilnExtensionApi> {
  const accounts = new Accounts(context);
  const browserSignIn = new BrowserSignIn(context.extension.id);
  const workspace = await Workspace.open();
  const store = new DataStore(accounts, workspace);
  const todos = new TodosView(store);
  const mergeRequests = new MergeRequestsView(store);
  const builds = new BuildsView(store);
  const statusBar = vscode.window.createStatusBarItem("kiln.pipeline", vscode.StatusBarAlignment.Left, 10);
  statusBar.name = "Kiln: pipeline of the current branch";
  statusBar.command = "kiln.builds.focus";

  const traces = new TraceContentProvider(accounts);
  const pollMs =
    Math.max(15, vscode.workspace.getConfiguration("kiln").get<number>("pollSeconds", 60)) * 1000;
  const poller = new Poller({ poll: () => store.load(), baseMs: pollMs });
  // The stream carries my todos, the changes to my merge requests and the pipelines and builds of
  // the projects shown; other people's merge requests of this repository are still looked for,
  // less often while every stream is up.
  const live = new LiveFollower(
    accounts,
    () => void refresh({ afterChange: true }),
    (instance, event) => {
      const notice = noticeOf(event, recipientOn(store, accounts, instance), notificationSettings());
      if (notice) void notify(notice);
      return { applied: event.kind === "todo" && store.applyTodo(instance, event) };
    },
    (allUp) => poller.setBaseMs(allUp ? pollMs * LIVE_SLOWDOWN : pollMs),
    (instance) => store.followedProjects().get(instance) ?? [],
  );
  /**
   * A refresh the user sees: progress on the views while the lists load. After a change the
   * stream told of, a load already running may have read before it, so another follows it.
   */
  const refresh = async ({ afterChange = false } = {}): Promise<void> => {
    const views = ["kiln.todos", "kiln.mergeRequests", "kiln.builds"];
    const load = views.reduce<() => Thenable<unknown>>(
      (inner, viewId) => () => vscode.window.withProgress({ location: { viewId } }, inner),
      () => (afterChange ? poller.pollAfterChange() : poller.pollNow()),
    );
    await load();
  };
  const setSignedIn = () =>
    vscode.commands.executeCommand("setContext", "kiln.signedIn", accounts.list().length > 0);

  context.subscriptions.push(
    vscode.window.registerTreeDataProvider("kiln.todos", todos),
    vscode.window.registerTreeDataProvider("kiln.mergeRequests", mergeRequests),
    vscode.window.registerTreeDataProvider("kiln.builds", builds),
    vscode.workspace.registerTextDocumentContentProvider(BLOB_SCHEME, new BlobContentProvider(accounts)),
    traces,
    vscode.workspace.registerTextDocumentContentProvider(TRACE_SCHEME, traces),
    statusBar,
    store.onDidChange(() => {
      showPipelineStatus(store, statusBar);
      void live.followProjects();
    }),
    { dispose: () => poller.dispose() },
    live,
    vscode.window.onDidChangeWindowState((state) => poller.setFocused(state.focused)),
    accounts.onDidChange(() => {
      void setSignedIn();
      void refresh();
      void live.follow();
    }),
    workspace.onDidChange(() => void refresh()),
    vscode.commands.registerCommand("kiln.refresh", () => refresh()),
    vscode.window.registerUriHandler(browserSignIn),
    accounts.onDidEndSession((url) => void sessionEnded(url)),
    vscode.commands.registerCommand("kiln.signIn", (input?: { url: string; token: string }) =>
      signIn(accounts, browserSignIn, input),
    ),
    vscode.commands.registerCommand("kiln.signOut", () => signOut(accounts)),
    vscode.commands.registerCommand("kiln.openInBrowser", (node: TodoNode | MergeRequestNode) =>
      vscode.env.openExternal(vscode.Uri.parse(node.kind === "todo" ? node.url : node.mergeRequest.web_url)),
    ),
    vscode.commands.registerCommand("kiln.todo.markDone", (node: TodoNode) =>
      markDone(accounts, node, refresh),
    ),
    vscode.commands.registerCommand("kiln.todo.markAllDone", () => markAllDone(accounts, refresh)),
    vscode.commands.registerCommand("kiln.build.retry", (node: JobNode) =>
      buildAction(accounts, node, "retry", refresh),
    ),
    vscode.commands.registerCommand("kiln.build.cancel", (node: JobNode) =>
      buildAction(accounts, node, "cancel", refresh),
    ),
    vscode.commands.registerCommand("kiln.mr.accept", (node: MergeRequestNode) =>
      acceptMergeRequest(node, accounts, workspace, refresh),
    ),
    vscode.commands.registerCommand("kiln.mr.acceptCurrentBranch", async () => {
      const node = currentBranchMergeRequest(store, workspace);
      if (!node) {
        void vscode.window.showInformationMessage("The branch checked out has no open merge request here.");
        return false;
      }
      return acceptMergeRequest(node, accounts, workspace, refresh);
    }),
  );
  await setSignedIn();
  poller.setFocused(vscode.window.state.focused);
  void live.follow();
  return { accounts, store, refresh };
}

export function deactivate(): void {}

/** The settings `kiln.notifications.*` (off unless the user turns them on). */
function notificationSettings() {
  const settings = vscode.workspace.getConfiguration("kiln.notifications");
  return {
    buildFailed: settings.get<boolean>("buildFailed", false),
    mergeRequestAssigned: settings.get<boolean>("mergeRequestAssigned", false),
  };
}

/** Who a notice from `instance` is for: the account signed in there, and its branch checked out. */
function recipientOn(store: DataStore, accounts: Accounts, instance: string) {
  const username = accounts.list().find((account) => account.url === instance)?.username ?? "";
  const repository = store.instances.find((data) => data.connection.account.url === instance)?.repository;
  const checkedOut = repository?.branch ? `${repository.project.id}:${repository.branch}` : null;
  return { username, checkedOut };
}

/** Shows a notice; its action opens what it tells of. */
async function notify(notice: Notice): Promise<void> {
  const show =
    notice.level === "warning" ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const picked = await show(notice.message, notice.action.title);
  if (picked !== notice.action.title) return;
  if ("url" in notice.action) await vscode.env.openExternal(vscode.Uri.parse(notice.action.url));
  else await vscode.commands.executeCommand(notice.action.command);
}

/** The open merge request of the workspace's repository whose source is the branch checked out. */
function currentBranchMergeRequest(store: DataStore, workspace: Workspace): MergeRequestNode | null {
  for (const { connection, repository, mergeRequestPipelines } of store.instances) {
    if (!repository) continue;
    const branch = localBranchOf(workspace, repository.project);
    const mr = repository.mergeRequests.find((candidate) => candidate.source_branch === branch);
    if (mr)
      return {
        ...mergeRequestLine(mr, "repository", mergeRequestPipelines[sourceKey(mr)]),
        instance: connection.account.url,
      };
  }
  return null;
}

/** The status bar item: the pipeline of the branch checked out, while the workspace has a project. */
function showPipelineStatus(store: DataStore, item: vscode.StatusBarItem): void {
  const repository = store.instances.find((data) => data.repository)?.repository;
  if (!repository?.branch) {
    item.hide();
    return;
  }
  const pipeline = repository.pipeline?.pipeline ?? null;
  item.text = statusBarText(pipeline);
  item.tooltip = pipeline
    ? `Kiln: pipeline #${pipeline.id} of ${repository.branch} (open the Builds view)`
    : `Kiln: ${repository.branch} has no pipeline`;
  item.show();
}

/** Retries or cancels a job, then loads the views again. */
async function buildAction(
  accounts: Accounts,
  node: JobNode,
  action: "retry" | "cancel",
  refresh: () => Promise<void>,
): Promise<void> {
  const connection = (await accounts.all()).find((candidate) => candidate.account.url === node.instance);
  if (!connection) return;
  const done = await attempt(() =>
    connection.client.builds[action].mutate({ id: node.projectId, build_id: node.buildId }),
  );
  if (!done.ok)
    void vscode.window.showErrorMessage(`Could not ${action} ${node.label}: ${done.error.message}`);
  await refresh();
}

const BY_BROWSER = "Sign in with the browser";
const BY_TOKEN = "Use a personal access token";

/**
 * `Kiln: Sign In`: the instance URL, then by browser (OAuth, approving "Kiln for VS Code" on the
 * instance's page) or with a personal access token; or both given, by a test or a link.
 */
async function signIn(
  accounts: Accounts,
  browser: BrowserSignIn,
  input?: { url: string; token: string },
): Promise<string | undefined> {
  const typed =
    input?.url ??
    (await vscode.window.showInputBox({
      title: "Kiln: Sign In",
      prompt: "The instance's URL",
      placeHolder: "https://kiln.example.com",
      ignoreFocusOut: true,
    }));
  if (!typed) return undefined;
  const method =
    input?.token !== undefined
      ? BY_TOKEN
      : await vscode.window
          .showQuickPick(
            [
              { label: BY_BROWSER, detail: `Approve "Kiln for VS Code" on ${typed}'s page, signed in there` },
              { label: BY_TOKEN, detail: "Profile Settings → Access Tokens, with the scope api" },
            ],
            { title: `Kiln: Sign In to ${typed}`, ignoreFocusOut: true },
          )
          .then((picked) => picked?.label);
  if (!method) return undefined;
  const result =
    method === BY_BROWSER
      ? await accounts.signIn(typed, (instance) => browser.credential(instance))
      : await signInWithToken(accounts, typed, input?.token);
  if (result === undefined) return undefined;
  if ("error" in result) {
    void vscode.window.showErrorMessage(result.error);
    return undefined;
  }
  endedSessions.delete(result.url);
  void vscode.window.showInformationMessage(`Signed in to ${result.url} as ${result.username}.`);
  return result.username;
}

/** Asks for a personal access token, then signs in with it (with progress). */
async function signInWithToken(accounts: Accounts, url: string, given: string | undefined) {
  const token =
    given ??
    (await vscode.window.showInputBox({
      title: "Kiln: Sign In",
      prompt: `A personal access token of ${url} (Profile Settings → Access Tokens, scope api)`,
      password: true,
      ignoreFocusOut: true,
    }));
  if (!token) return undefined;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Signing in to ${url}…` },
    () => accounts.signIn(url, async () => ({ kind: "token", token: token.trim() })),
  );
}

/** The instances whose sign-in by browser ended: told once, until the user signs in again. */
const endedSessions = new Set<string>();

/** Says that an instance's sign-in by browser ended, and offers to sign in again. */
async function sessionEnded(url: string): Promise<void> {
  if (endedSessions.has(url)) return;
  endedSessions.add(url);
  const again = await vscode.window.showWarningMessage(
    `Your sign-in to ${url} has ended: the server no longer renews its token (it was revoked). Sign in again to see its todos and merge requests.`,
    "Sign In",
  );
  if (again) await vscode.commands.executeCommand("kiln.signIn");
}

/** `Kiln: Sign Out`: of the one instance, or of the one picked. */
async function signOut(accounts: Accounts): Promise<void> {
  const urls = accounts.list().map((account) => account.url);
  const url =
    urls.length <= 1 ? urls[0] : await vscode.window.showQuickPick(urls, { title: "Kiln: Sign Out of" });
  if (!url) return;
  await accounts.signOut(url);
  void vscode.window.showInformationMessage(`Signed out of ${url}; its token is deleted.`);
}

async function markDone(accounts: Accounts, node: TodoNode, refresh: () => Promise<void>): Promise<void> {
  const connection = (await accounts.all()).find((candidate) => candidate.account.url === node.instance);
  if (!connection) return;
  const done = await attempt(() => connection.client.todos.markDone.mutate({ id: node.todoId }));
  if (!done.ok) void vscode.window.showErrorMessage(`Could not mark the todo done: ${done.error.message}`);
  await refresh();
}

async function markAllDone(accounts: Accounts, refresh: () => Promise<void>): Promise<void> {
  for (const connection of await accounts.all()) {
    const done = await attempt(() => connection.client.todos.markAllDone.mutate());
    if (!done.ok) void vscode.window.showErrorMessage(`${connection.account.url}: ${done.error.message}`);
  }
  await refresh();
}
