import * as vscode from "vscode";
import type { DataStore } from "../data.js";
import { type JobLine, type PipelineNode, pipelineTree, type StageNode } from "../model/builds.js";
import { traceUri } from "../trace-content.js";

/** A job in the tree, with the instance it belongs to (for its trace, retry and cancel). */
export interface JobNode extends JobLine {
  instance: string;
}
type MessageNode = { kind: "message"; key: string; label: string };
type Node =
  | (PipelineNode & { instance: string })
  | (StageNode & { instance: string })
  | JobNode
  | MessageNode;

/** A status icon as VS Code draws it. */
export const themeIcon = (icon: { id: string; color?: string }): vscode.ThemeIcon =>
  new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);

/**
 * The Builds view: the latest pipeline of the branch checked out in the workspace, on each
 * instance that has the workspace's project; its stages, and their jobs, which open their trace.
 */
export class BuildsView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly store: DataStore) {
    store.onDidChange(() => this.changed.fire());
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.roots();
    if (node.kind === "pipeline") return node.stages.map((stage) => ({ ...stage, instance: node.instance }));
    if (node.kind === "stage") return node.jobs.map((job) => ({ ...job, instance: node.instance }));
    return [];
  }

  private roots(): Node[] {
    const now = new Date();
    return this.store.instances.flatMap(({ connection, repository }): Node[] => {
      const instance = connection.account.url;
      if (!repository) return [];
      const { project, branch, pipeline } = repository;
      if (!branch || !pipeline)
        return [
          {
            kind: "message",
            key: `${instance}|none`,
            label: branch
              ? `${branch} has no pipeline on ${project.path_with_namespace}`
              : "No branch checked out",
          },
        ];
      const tree = pipelineTree(project.id, pipeline.pipeline, pipeline.builds, now);
      return [{ ...tree, key: `${instance}|${tree.key}`, instance }];
    });
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === "message") {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
      item.id = node.key;
      return item;
    }
    const collapsible =
      node.kind === "job" ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Expanded;
    const item = new vscode.TreeItem(node.label, collapsible);
    item.id = node.kind === "job" ? `${node.instance}|${node.key}` : node.key;
    item.description = node.description;
    item.iconPath = themeIcon(node.icon);
    if (node.kind === "pipeline") item.tooltip = node.tooltip;
    if (node.kind === "job") {
      item.tooltip = node.tooltip;
      item.contextValue = node.contextValue;
      item.command = {
        command: "vscode.open",
        title: "Open Trace",
        arguments: [traceUri(node.instance, node.projectId, node.buildId, node.label)],
      };
    }
    return item;
  }
}
