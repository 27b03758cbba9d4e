import { attempt } from "@kiln/client";
import * as vscode from "vscode";
import type { Accounts } from "./accounts.js";
import type { Workspace } from "./git.js";
import { acceptRequest, explainRefusal, planAccept } from "./model/accept.js";
import { remoteKey } from "./model/remotes.js";
import type { MergeRequestNode } from "./views/merge-requests.js";

const MERGE = "Merge";
const MERGE_AND_REMOVE = "Merge and Remove Source Branch";

/**
 * "Accept merge request": a modal with what will be merged and the head the user saw, warnings
 * about the local branch, then the merge with that `sha`; afterwards `refresh`, and an offer to
 * check out the target branch and pull.
 */
export async function acceptMergeRequest(
  node: MergeRequestNode,
  accounts: Accounts,
  workspace: Workspace,
  refresh: () => Promise<void>,
): Promise<boolean> {
  const connection = (await accounts.all()).find((candidate) => candidate.account.url === node.instance);
  if (!connection) return false;
  const mr = node.mergeRequest;
  const project = await attempt(() => connection.client.projects.get.query({ id: mr.project_id }));
  const cloneKeys = project.ok
    ? [remoteKey(project.value.http_url_to_repo), remoteKey(project.value.ssh_url_to_repo)]
    : [];
  const isProjectRemote = (url: string) => cloneKeys.includes(remoteKey(url));
  const plan = planAccept(mr, workspace.localBranch(isProjectRemote));
  if ("blocked" in plan) {
    void vscode.window.showWarningMessage(plan.blocked);
    return false;
  }
  const choice = await vscode.window.showWarningMessage(
    plan.message,
    { modal: true, detail: plan.detail },
    MERGE,
    MERGE_AND_REMOVE,
  );
  if (choice !== MERGE && choice !== MERGE_AND_REMOVE) return false;
  const merged = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Merging !${mr.iid}…` },
    () =>
      attempt(() =>
        connection.client.mergeRequests.accept.mutate(
          acceptRequest(mr, { removeSourceBranch: choice === MERGE_AND_REMOVE, whenBuildSucceeds: false }),
        ),
      ),
  );
  await refresh();
  if (!merged.ok) {
    const { httpStatus, failure, message } = merged.error;
    void vscode.window.showErrorMessage(explainRefusal(mr, { httpStatus, kind: failure?.kind, message }));
    return false;
  }
  void offerCheckout(workspace, isProjectRemote, mr.iid, mr.target_branch);
  return true;
}

async function offerCheckout(
  workspace: Workspace,
  isProjectRemote: (url: string) => boolean,
  iid: number,
  target: string,
): Promise<void> {
  if (!workspace.localBranch(isProjectRemote)) {
    void vscode.window.showInformationMessage(`Merged !${iid} into ${target}.`);
    return;
  }
  const pull = `Check Out ${target} and Pull`;
  const answer = await vscode.window.showInformationMessage(`Merged !${iid} into ${target}.`, pull);
  if (answer !== pull) return;
  const done = await attempt(() => workspace.checkoutAndPull(isProjectRemote, target));
  if (!done.ok) void vscode.window.showErrorMessage(`Could not check out ${target}: ${done.error.message}`);
}
