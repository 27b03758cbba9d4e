import { expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { webhookDeliveries } from "./subscriber.js";

const ALL = { page: 1, perPage: 100 };

forEachDialect((h) => {
  async function hookedIssue() {
    const alice = await h().user("alice");
    const me = h().as(alice);
    const { project } = await me.projects.create({ name: "web" });
    const issues = await me.projectHooks.add({
      id: project.id,
      url: "https://example.com/a",
      issues_events: true,
    });
    const pushes = await me.projectHooks.add({ id: project.id, url: "https://example.com/b" });
    const { issue } = await me.issues.create({ id: project.id, title: "Broken" });
    const [row] = await h()
      .runtime.stores.outbox.after(0, 100)
      .then((rows) => rows.filter((r) => r.kind === "issue"));
    return { project, issue, issues, pushes, eventId: row?.id ?? 0, alice };
  }

  it("queues one delivery per subscribed hook, and nothing more when the same event is handled again (a replay after a crash)", async () => {
    const { project, issue, issues, pushes, eventId } = await hookedIssue();
    const subscriber = webhookDeliveries(h().runtime);
    const event = {
      kind: "issue" as const,
      action: "open" as const,
      projectId: project.id,
      userId: 1,
      issueId: issue.id,
    };
    await subscriber.handle(event, eventId);
    await subscriber.handle(event, eventId);
    const { deliveries } = h().runtime.stores;
    const logged = await deliveries.listForHook("project", issues.id, ALL);
    expect(logged.items).toHaveLength(1);
    expect(logged.items[0]).toMatchObject({
      event_name: "Issue Hook",
      state: "pending",
      project_id: project.id,
    });
    expect(JSON.parse(logged.items[0]?.payload ?? "{}")).toMatchObject({
      object_kind: "issue",
      object_attributes: { id: issue.id, action: "open", title: "Broken" },
    });
    expect((await deliveries.listForHook("project", pushes.id, ALL)).items).toEqual([]);
  });

  it("sends nothing about a confidential issue (v3 hooks cannot subscribe to confidential issue events)", async () => {
    const { project, issue, issues, eventId, alice } = await hookedIssue();
    await h().as(alice).issues.edit({ id: project.id, issue_id: issue.id, confidential: true });
    const subscriber = webhookDeliveries(h().runtime);
    await subscriber.handle(
      { kind: "issue", action: "update", projectId: project.id, userId: alice.id, issueId: issue.id },
      eventId + 1000,
    );
    const logged = await h().runtime.stores.deliveries.listForHook("project", issues.id, ALL);
    expect(logged.items).toEqual([]);
  });
});
