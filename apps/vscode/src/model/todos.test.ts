import { describe, expect, it } from "vitest";
import { todo } from "./__tests__/fixtures.js";
import { applyTodoChange, groupTodos, todoLine } from "./todos.js";

describe("Todos view model", () => {
  it("groups todos by project, projects by name, todos in the server's order", () => {
    const groups = groupTodos([todo(3, 7, "widgets"), todo(2, 8, "anvils"), todo(1, 7, "widgets")]);
    expect(groups.map((group) => [group.label, group.todos.map((line) => line.todoId)])).toEqual([
      ["Acme / anvils", [2]],
      ["Acme / widgets", [3, 1]],
    ]);
  });

  it("shows the target's title, who did what and the reference, and opens the target's page", () => {
    expect(todoLine(todo(5))).toMatchObject({
      label: "Change 5",
      description: "Ada Lovelace assigned you · !3",
      url: "http://kiln.test/acme/widgets/merge_requests/3",
      icon: "git-pull-request",
      todoId: 5,
    });
    expect(todoLine(todo(6, 7, "widgets", "build_failed")).description).toBe("Build failed · !3");
  });

  it("keeps a mention's text in the tooltip", () => {
    const mention = { ...todo(4, 7, "widgets", "mentioned"), body: "@grace can you look?" };
    expect(todoLine(mention).tooltip).toContain("@grace can you look?");
  });

  it("follows the stream: a created todo joins in the server's order, a done one leaves, once", () => {
    const list = [todo(5), todo(2)];
    const ids = (todos: { id: number }[]) => todos.map((one) => one.id);
    const created = applyTodoChange(list, { action: "created", todo: todo(3) });
    expect(ids(created)).toEqual([5, 3, 2]);
    expect(ids(applyTodoChange(created, { action: "created", todo: todo(3) }))).toEqual([5, 3, 2]);
    const done = { ...todo(5), state: "done" as const };
    expect(ids(applyTodoChange(created, { action: "done", todo: done }))).toEqual([3, 2]);
    expect(ids(applyTodoChange([todo(2)], { action: "done", todo: done }))).toEqual([2]);
    // Told late that a todo was made which is done by now: it stays out.
    expect(ids(applyTodoChange([todo(2)], { action: "created", todo: done }))).toEqual([2]);
  });
});
