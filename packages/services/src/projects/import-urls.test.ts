import { describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { importUrlOf, sealImportUrls } from "./import-urls.js";

const URL_WITH_PASSWORD = "https://alice:hunter2-secret@example.com/kiln.git";

forEachDialect((h) => {
  /** The project's row as stored, every column, as text. */
  async function storedRow(id: number): Promise<string> {
    const row = await h().runtime.stores.db.selectFrom("projects").selectAll().where("id", "=", id).execute();
    expect(row).toHaveLength(1);
    return JSON.stringify(row[0]);
  }

  describe("import URLs", () => {
    it("are stored sealed on creation, never in the clear, and read back with the key", async () => {
      const alice = await h().user("alice");
      const view = await h().as(alice).projects.create({ name: "imported", import_url: URL_WITH_PASSWORD });
      expect(await storedRow(view.project.id)).not.toContain("hunter2-secret");
      expect(JSON.stringify(view)).not.toContain("hunter2-secret");
      expect(await importUrlOf(h().runtime, view.project.id)).toBe(URL_WITH_PASSWORD);

      const admin = await h().user("root", { admin: true });
      const forAlice = await h()
        .as(admin)
        .projects.createForUser({ user_id: alice.id, name: "for alice", import_url: URL_WITH_PASSWORD });
      expect(await storedRow(forAlice.project.id)).not.toContain("hunter2-secret");
      expect(await importUrlOf(h().runtime, forAlice.project.id)).toBe(URL_WITH_PASSWORD);

      // An edit of the project leaves it sealed and readable.
      await h().as(alice).projects.update({ id: view.project.id, description: "edited", name: "renamed" });
      expect(await storedRow(view.project.id)).not.toContain("hunter2-secret");
      expect(await importUrlOf(h().runtime, view.project.id)).toBe(URL_WITH_PASSWORD);
      const plain = await h().as(alice).projects.create({ name: "plain" });
      expect(await importUrlOf(h().runtime, plain.project.id)).toBeNull();
    });

    it("left in the clear from before are sealed once, by one of the processes that start together", async () => {
      const bob = await h().user("bob");
      const projects = await Promise.all(
        ["one", "two", "three"].map((name) => h().as(bob).projects.create({ name })),
      );
      const [one, two] = projects.map((view) => view.project.id);
      const db = h().runtime.stores.db;
      const setClear = (id: number, url: string) =>
        db.updateTable("projects").set({ import_url: url }).where("id", "=", id).execute();
      await setClear(one as number, URL_WITH_PASSWORD);
      await setClear(two as number, "https://example.com/open.git");

      const sealed = await Promise.all([sealImportUrls(h().runtime), sealImportUrls(h().runtime)]);
      expect(sealed[0] + sealed[1]).toBe(2);
      expect(await storedRow(one as number)).not.toContain("hunter2-secret");
      expect(await importUrlOf(h().runtime, one as number)).toBe(URL_WITH_PASSWORD);
      expect(await importUrlOf(h().runtime, two as number)).toBe("https://example.com/open.git");
      expect(await sealImportUrls(h().runtime)).toBe(0);
    });
  });
});
