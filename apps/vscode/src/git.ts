import * as vscode from "vscode";
import type { LocalBranch } from "./model/accept.js";

/** The part of the built-in git extension's API (version 1) the extension uses. */
interface GitRepository {
  rootUri: vscode.Uri;
  state: {
    HEAD: { name?: string; commit?: string; ahead?: number; upstream?: unknown } | undefined;
    remotes: { name: string; fetchUrl?: string; pushUrl?: string }[];
    workingTreeChanges: unknown[];
    indexChanges: unknown[];
    onDidChange: vscode.Event<void>;
  };
  checkout(treeish: string): Promise<void>;
  pull(): Promise<void>;
}

interface GitApi {
  repositories: GitRepository[];
  onDidOpenRepository: vscode.Event<GitRepository>;
}

/** The workspace's repositories as the extension sees them, through the built-in git extension. */
export class Workspace {
  private constructor(private readonly api: GitApi | null) {}

  static async open(): Promise<Workspace> {
    const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>("vscode.git");
    if (!extension) return new Workspace(null);
    const exports = extension.isActive ? extension.exports : await extension.activate();
    return new Workspace(exports.getAPI(1));
  }

  /** Fires when a repository opens or its state (branch, remotes) changes. */
  onDidChange(listener: () => void): vscode.Disposable {
    if (!this.api) return new vscode.Disposable(() => {});
    const subscriptions = [this.api.onDidOpenRepository(() => listener())];
    for (const repository of this.api.repositories)
      subscriptions.push(repository.state.onDidChange(listener));
    return vscode.Disposable.from(...subscriptions);
  }

  /** Every remote URL of every repository of the workspace. */
  remoteUrls(): string[] {
    return (this.api?.repositories ?? []).flatMap((repository) =>
      repository.state.remotes
        .flatMap((remote) => [remote.fetchUrl, remote.pushUrl])
        .filter((url): url is string => !!url),
    );
  }

  /** The repository with a remote among `urls` (the project's), if the workspace has it. */
  private repositoryOf(matches: (url: string) => boolean): GitRepository | undefined {
    return this.api?.repositories.find((repository) =>
      repository.state.remotes.some((remote) =>
        [remote.fetchUrl, remote.pushUrl].some((url) => !!url && matches(url)),
      ),
    );
  }

  /** How the project's local repository stands, or null when it is not in the workspace. */
  localBranch(matches: (url: string) => boolean): LocalBranch | null {
    const repository = this.repositoryOf(matches);
    if (!repository) return null;
    const head = repository.state.HEAD;
    return {
      name: head?.name ?? null,
      head: head?.commit ?? null,
      ...(head?.upstream && head.ahead !== undefined ? { ahead: head.ahead } : {}),
      dirty: repository.state.workingTreeChanges.length + repository.state.indexChanges.length > 0,
    };
  }

  /** Checks out `branch` in the project's repository and pulls it. */
  async checkoutAndPull(matches: (url: string) => boolean, branch: string): Promise<boolean> {
    const repository = this.repositoryOf(matches);
    if (!repository) return false;
    await repository.checkout(branch);
    await repository.pull();
    return true;
  }
}
