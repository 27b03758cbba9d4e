import { Visibility } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { groupTeam } from "../__tests__/groups.js";
import { forEachDialect } from "../__tests__/harness.js";

forEachDialect((h) => {
  describe("namespaces", () => {
    it("lists the caller's own namespace and the groups they belong to; admins get all", async () => {
      const team = await groupTeam(h(), Visibility.PUBLIC);
      await h().as(team.stranger).groups.create({ name: "Side", path: "side" });
      const listed = async (user: typeof team.owner, input = {}) =>
        (await h().as(user).namespaces.list(input)).items.map((ns) => `${ns.kind}:${ns.path}`);
      expect(await listed(team.guest)).toEqual(["group:team", "user:guest"]);
      expect(await listed(team.stranger)).toEqual(["user:stranger", "group:side"]);
      expect(await listed(team.external)).toEqual(["user:external"]);
      const all = await listed(team.admin);
      expect(all).toHaveLength(10);
      expect(all).toEqual(expect.arrayContaining(["group:team", "group:side", "user:stranger", "user:boss"]));
    });

    it("searches name or path, ignoring case, and paginates", async () => {
      const team = await groupTeam(h(), Visibility.PRIVATE);
      const search = async (user: typeof team.owner, text: string) =>
        (await h().as(user).namespaces.list({ search: text })).items.map((ns) => ns.path);
      expect(await search(team.owner, "TEA")).toEqual(["team"]);
      expect(await search(team.owner, "the team")).toEqual(["team"]);
      expect(await search(team.stranger, "team")).toEqual([]);
      expect(await search(team.admin, "er")).toEqual([
        "owner",
        "reporter",
        "developer",
        "master",
        "external",
        "stranger",
      ]);
      const page = await h().as(team.admin).namespaces.list({ per_page: 3, page: 3 });
      expect(page).toMatchObject({ page: 3, perPage: 3, total: 9 });
      expect(page.items).toHaveLength(3);
    });
  });
});
