import { attempt } from "@kiln/client";
import type { MergeRequestJson } from "@kiln/schemas";
import * as vscode from "vscode";
import type { DataStore } from "../data.js";
import { blobUri } from "../diff-content.js";
import {
  type CategoryNode,
  type ChangedFile,
  changedFiles,
  type MergeRequestLine,
  mergeRequestTree,
} from "../model/merge-requests.js";
import { themeIcon } from "./builds.js";

/** A merge request in the tree, with the instance it belongs to. */
export interface MergeRequestNode extends MergeRequestLine {
  instance: string;
}
type FileNode = ChangedFile & { instance: string };
type MessageNode = { kind: "message"; key: string; label: string };
type Node = (CategoryNode & { instance: string }) | MergeRequestNode | FileNode | MessageNode;

/**
 * The Merge Requests view: assigned to me, created by me and this repository's open ones, for
 * each signed-in instance; a merge request expands to its changed files, which open in the diff
 * editor.
 */
export class MergeRequestsView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly store: DataStore) {
    store.onDidChange(() => this.changed.fire());
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!node) return this.roots();
    if (node.kind === "category") {
      if (node.mergeRequests.length === 0)
        return [{ kind: "message", key: `${node.instance}|${node.key}|empty`, label: node.empty }];
      return node.mergeRequests.map((line) => ({
        ...line,
        key: `${node.instance}|${line.key}`,
        instance: node.instance,
      }));
    }
    if (node.kind === "mergeRequest") return this.files(node);
    return [];
  }

  private roots(): Node[] {
    const several = this.store.instances.length > 1;
    return this.store.instances.flatMap(
      ({ connection, assigned, created, repository, mergeRequestPipelines }) =>
        mergeRequestTree({
          assigned,
          created,
          pipelines: mergeRequestPipelines,
          repository: repository
            ? { name: repository.project.path_with_namespace, mergeRequests: repository.mergeRequests }
            : null,
        }).map((category) => ({
          ...category,
          key: `${connection.account.url}|${category.key}`,
          label: several ? `${category.label} (${new URL(connection.account.url).host})` : category.label,
          instance: connection.account.url,
        })),
    );
  }

  private async files(node: MergeRequestNode): Promise<Node[]> {
    const instance = this.store.instances.find((data) => data.connection.account.url === node.instance);
    if (!instance) return [];
    const mr: MergeRequestJson = node.mergeRequest;
    const changes = await attempt(() =>
      instance.connection.client.mergeRequests.changes.query({ id: mr.project_id, merge_request_id: mr.id }),
    );
    if (!changes.ok)
      return [
        {
          kind: "message",
          key: `${node.key}|error`,
          label: `Could not load the changes: ${changes.error.message}`,
        },
      ];
    return changedFiles(mr, changes.value.changes).map((file) => ({
      ...file,
      key: `${node.key}|${file.key}`,
      instance: node.instance,
    }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case "category": {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = node.key;
        item.description = `${node.mergeRequests.length}`;
        return item;
      }
      case "message": {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = node.key;
        return item;
      }
      case "mergeRequest": {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.key;
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.iconPath = themeIcon(node.icon);
        item.contextValue = node.open ? "mergeRequest.open" : "mergeRequest";
        return item;
      }
      case "file": {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = node.key;
        item.description = `${node.status} ${node.description}`.trim();
        const left = blobUri(node.instance, node.base, node.head?.path ?? "");
        const right = blobUri(node.instance, node.head, node.base?.path ?? "");
        item.resourceUri = right;
        item.command = {
          command: "vscode.diff",
          title: "Open Changes",
          arguments: [
            left,
            right,
            `${node.label} (${node.base?.ref ?? "new"} ↔ ${node.head?.ref.slice(0, 8) ?? "deleted"})`,
          ],
        };
        return item;
      }
    }
  }
}
