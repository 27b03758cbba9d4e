import { describe, expect, it } from "vitest";
import { todo } from "./__tests__/fixtures.js";
import { groupTodos, todoLine } from "./todos.js";

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
});
