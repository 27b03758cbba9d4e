import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIssue, createWorkspace } from "./__tests__/collaboration.js";
import { createAccount } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `subscription store on ${dialect.name} ${dialect.unavailable ?? ""}`,
    () => {
      let opened: OpenDatabase;
      let stores: Stores;

      beforeEach(async () => {
        opened = await dialect.open();
        stores = new Stores(opened.db);
      });
      afterEach(async () => {
        await opened.close();
      });

      it("records one choice per user and subject, replacing the earlier one", async () => {
        const { user, project } = await createWorkspace(stores, "alice");
        const { user: other } = await createAccount(stores, "bob");
        const issue = await createIssue(stores, project.id, "issue");
        const subject = { type: "Issue" as const, id: issue.id, projectId: project.id };
        expect(await stores.subscriptions.get(user.id, subject)).toBeUndefined();
        const made = await stores.subscriptions.set(user.id, subject, true);
        expect(made).toEqual({
          user_id: user.id,
          project_id: project.id,
          subscribable_type: "Issue",
          subscribable_id: issue.id,
          subscribed: true,
          created_at: made.created_at,
          updated_at: made.created_at,
        });
        expect(await stores.subscriptions.get(user.id, subject)).toBe(true);
        const changed = await stores.subscriptions.set(user.id, subject, false);
        expect(changed).toMatchObject({ subscribed: false, created_at: made.created_at });
        expect(await stores.subscriptions.get(user.id, subject)).toBe(false);
        await stores.subscriptions.set(other.id, subject, true);
        // The merge request and the label with the same id are other subjects.
        await stores.subscriptions.set(user.id, { ...subject, type: "MergeRequest" }, true);
        await stores.subscriptions.set(user.id, { ...subject, type: "Label" }, true);

        expect(await stores.subscriptions.choices(subject)).toEqual(
          new Map([
            [user.id, false],
            [other.id, true],
          ]),
        );
        expect(await stores.subscriptions.getMany(user.id, "Issue", [issue.id, 999])).toEqual(
          new Map([[issue.id, false]]),
        );
        expect(await stores.subscriptions.getMany(user.id, "MergeRequest", [issue.id])).toEqual(
          new Map([[issue.id, true]]),
        );
        expect(await stores.subscriptions.getMany(user.id, "Issue", [])).toEqual(new Map());
      });

      it("go with their user and with their project", async () => {
        const { user, project } = await createWorkspace(stores, "carol");
        const { user: other } = await createAccount(stores, "dave");
        const issue = await createIssue(stores, project.id, "issue");
        const subject = { type: "Issue" as const, id: issue.id, projectId: project.id };
        await stores.subscriptions.set(user.id, subject, true);
        await stores.subscriptions.set(other.id, subject, true);
        await stores.users.delete(other.id);
        expect(await stores.subscriptions.choices(subject)).toEqual(new Map([[user.id, true]]));
        await stores.projects.delete(project.id);
        expect(await stores.subscriptions.choices(subject)).toEqual(new Map());
      });
    },
  );
}
