import * as vscode from "vscode";
import type { DataStore } from "../data.js";
import { groupTodos, type TodoGroup, type TodoLine } from "../model/todos.js";

/** A todo in the tree, with the instance it belongs to (for "mark done"). */
export interface TodoNode extends TodoLine {
  instance: string;
}
type MessageNode = { kind: "message"; key: string; label: string };
type Node = (TodoGroup & { todos: TodoNode[] }) | TodoNode | MessageNode;

/** The Todos view: the pending todos of every signed-in instance, grouped by project. */
export class TodosView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly store: DataStore) {
    store.onDidChange(() => this.changed.fire());
  }

  getChildren(node?: Node): Node[] {
    if (node) return node.kind === "project" ? node.todos : [];
    const several = this.store.instances.length > 1;
    const errors: Node[] = this.store.errors.map((error, index) => ({
      kind: "message",
      key: `error:${index}`,
      label: error,
    }));
    return errors.concat(
      this.store.instances.flatMap(({ connection, todos }) =>
        groupTodos(todos).map((group) => ({
          ...group,
          key: `${connection.account.url}|${group.key}`,
          label: several ? `${group.label} (${new URL(connection.account.url).host})` : group.label,
          todos: group.todos.map((todo) => ({
            ...todo,
            key: `${connection.account.url}|${todo.key}`,
            instance: connection.account.url,
          })),
        })),
      ),
    );
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === "message") {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon("error");
      item.tooltip = node.label;
      return item;
    }
    if (node.kind === "project") {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = node.key;
      item.description = `${node.todos.length}`;
      item.iconPath = new vscode.ThemeIcon("repo");
      return item;
    }
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.id = node.key;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = new vscode.ThemeIcon(node.icon);
    item.contextValue = "todo";
    item.command = { command: "kiln.openInBrowser", title: "Open in Browser", arguments: [node] };
    return item;
  }
}
