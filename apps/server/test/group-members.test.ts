import { MemberJson, NamespaceListJson } from "@kiln/schemas";
import type { ApiRequest, TestUser } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { createCast, groupSetup } from "./group-support.js";
import { onEachDatabase } from "./support.js";

onEachDatabase("group members and namespaces API", (ctx) => {
  let owner: TestUser;
  let master: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  const root = () => ctx().root;
  const api = <T = unknown>(request: ApiRequest) => ctx().api<T>(request);
  const { createGroup } = groupSetup(ctx);

  beforeAll(async () => {
    ({ owner, master, guest, stranger } = await createCast(ctx()));
  });

  describe("group members", () => {
    it("adds (201), lists, shows, changes and removes members; the last owner stays", async () => {
      const group = await createGroup(owner, "crew");
      const members = `/groups/${group.id}/members`;
      const added = await api<MemberJson>({
        method: "POST",
        path: members,
        token: owner.token,
        json: { user_id: guest.id, access_level: 10 },
      });
      expect(added.status).toBe(201);
      expect(MemberJson.strict().parse(added.body)).toMatchObject({ username: "guest", access_level: 10 });
      expect(added.body).not.toHaveProperty("email");
      const again = {
        method: "POST",
        path: members,
        token: owner.token,
        json: { user_id: guest.id, access_level: 30 },
      };
      expect(await api(again)).toMatchObject({ status: 409, body: { message: "Member already exists" } });
      expect(await api({ ...again, json: { user_id: 999999, access_level: 30 } })).toMatchObject({
        status: 404,
        body: { message: "404 User Not Found" },
      });
      expect(await api({ ...again, json: { user_id: master.id, access_level: 60 } })).toMatchObject({
        status: 400,
      });
      expect(
        (await api({ ...again, token: guest.token, json: { user_id: master.id, access_level: 10 } })).status,
      ).toBe(403);

      const listed = await api<MemberJson[]>({ path: members, token: guest.token, query: { query: "OWN" } });
      expect(listed.body.map((m) => [MemberJson.strict().parse(m).username, m.access_level])).toEqual([
        ["owner", 50],
      ]);
      expect(listed.headers.get("x-total")).toBe("1");
      expect((await api({ path: members, token: stranger.token })).status).toBe(404);
      expect(
        (await api<MemberJson>({ path: `${members}/${guest.id}`, token: guest.token })).body.access_level,
      ).toBe(10);

      const put = (userId: number, level: number, token = owner.token) =>
        api<MemberJson>({
          method: "PUT",
          path: `${members}/${userId}`,
          token,
          form: { access_level: level },
        });
      expect(await put(guest.id, 30)).toMatchObject({
        status: 200,
        body: { username: "guest", access_level: 30 },
      });
      expect(await put(stranger.id, 30)).toMatchObject({
        status: 404,
        body: { message: "404 Member Not Found" },
      });
      expect(await put(owner.id, 40)).toMatchObject({
        status: 403,
        body: { message: "403 Forbidden: A group must keep at least one owner" },
      });

      const remove = (userId: number, token = owner.token) =>
        api<MemberJson>({ method: "DELETE", path: `${members}/${userId}`, token });
      expect((await remove(owner.id, root().token)).status).toBe(403);
      expect(await remove(guest.id, guest.token)).toMatchObject({ status: 200, body: { username: "guest" } });
      expect((await remove(guest.id)).status).toBe(404);
    });
  });

  describe("namespaces", () => {
    it("GET /namespaces lists the caller's namespace and groups ({id, path, kind}); admins see all", async () => {
      const group = await createGroup(master, "ns-group");
      const mine = await api<unknown[]>({ path: "/namespaces", token: master.token });
      expect(mine.status).toBe(200);
      const items = mine.body.map((item) => NamespaceListJson.strict().parse(item));
      expect(items.find((ns) => ns.kind === "user")).toEqual({
        id: expect.any(Number),
        path: "master",
        kind: "user",
      });
      expect(items).toContainEqual({ id: group.id, path: "ns-group", kind: "group" });
      expect(items.every((ns) => (ns.kind === "user" ? ns.path === "master" : true))).toBe(true);
      const searched = await api<{ path: string }[]>({
        path: "/namespaces",
        token: root().token,
        query: { search: "NS-GR" },
      });
      expect(searched.body.map((ns) => ns.path)).toEqual(["ns-group"]);
      const everything = await api<{ path: string }[]>({
        path: "/namespaces",
        token: root().token,
        query: { per_page: 100 },
      });
      expect(everything.body.map((ns) => ns.path)).toEqual(
        expect.arrayContaining(["root", "owner", "stranger", "crew"]),
      );
      expect(Number(everything.headers.get("x-total"))).toBe(everything.body.length);
      expect((await api({ path: "/namespaces" })).status).toBe(401);
    });
  });
});
