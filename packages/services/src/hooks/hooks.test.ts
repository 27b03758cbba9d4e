import { type AccessLevel, HOOK_URL_MESSAGES, type User } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { forEachDialect, type Harness } from "../__tests__/harness.js";

const GITLAB_DEFAULTS = {
  push_events: true,
  issues_events: false,
  merge_requests_events: false,
  tag_push_events: false,
  note_events: false,
  build_events: false,
  pipeline_events: false,
  wiki_page_events: false,
  enable_ssl_verification: true,
};

/** A project of `owner` with one member at each level, plus an outsider and an administrator. */
async function projectWithRoles(h: Harness, visibility_level: number) {
  const suffix = visibility_level;
  const owner = await h.user(`owner${suffix}`);
  const project = await h.as(owner).projects.create({ name: "hooked", visibility_level });
  const people: Record<string, User> = { owner };
  const levels: [string, AccessLevel][] = [
    ["master", 40],
    ["developer", 30],
    ["reporter", 20],
    ["guest", 10],
  ];
  for (const [role, access_level] of levels) {
    people[role] = await h.user(`${role}${suffix}`);
    await h.as(owner).projectMembers.add({ id: project.project.id, user_id: people[role].id, access_level });
  }
  people["outsider"] = await h.user(`outsider${suffix}`);
  people["admin"] = await h.user(`admin${suffix}`, { admin: true });
  return { id: project.project.id, people };
}

/** How a caller fares: "ok" or the tRPC error code. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (error) {
    return (error as { code: string }).code;
  }
}

forEachDialect((h) => {
  describe("project hooks", () => {
    it("adds a hook with GitLab's defaults, then gets, lists, edits and removes it (idempotently)", async () => {
      const alice = await h().user("alice");
      const me = h().as(alice);
      const { project } = await me.projects.create({ name: "web" });
      const hook = await me.projectHooks.add({ id: project.id, url: "https://example.com/hook" });
      expect(hook).toEqual({
        id: expect.any(Number),
        project_id: project.id,
        url: "https://example.com/hook",
        created_at: expect.any(String),
        ...GITLAB_DEFAULTS,
      });
      expect(await me.projectHooks.get({ id: "alice/web", hook_id: hook.id })).toEqual(hook);
      expect(await me.projectHooks.list({ id: project.id })).toMatchObject({ items: [hook], total: 1 });

      const edited = await me.projectHooks.edit({
        id: project.id,
        hook_id: hook.id,
        url: "https://example.com/v2",
        issues_events: true,
        enable_ssl_verification: false,
      });
      expect(edited).toEqual({
        ...hook,
        url: "https://example.com/v2",
        issues_events: true,
        enable_ssl_verification: false,
      });

      expect(await me.projectHooks.remove({ id: project.id, hook_id: hook.id })).toEqual(edited);
      expect(await me.projectHooks.remove({ id: project.id, hook_id: hook.id })).toBeNull();
      await expect(me.projectHooks.get({ id: project.id, hook_id: hook.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
        cause: { failure: { kind: "not_found", subject: "hook" } },
      });
      await expect(
        me.projectHooks.edit({ id: project.id, hook_id: hook.id, url: "https://example.com/" }),
      ).rejects.toMatchObject({ cause: { failure: { kind: "not_found", subject: "hook" } } });
    });

    it("sets every flag on add, and takes wiki_events as GitLab 8.x's name for wiki_page_events", async () => {
      const bob = await h().user("bob");
      const { project } = await h().as(bob).projects.create({ name: "flags" });
      const all = await h().as(bob).projectHooks.add({
        id: project.id,
        url: "http://example.com/",
        push_events: false,
        issues_events: true,
        merge_requests_events: true,
        tag_push_events: true,
        note_events: true,
        build_events: true,
        pipeline_events: true,
        wiki_events: true,
        enable_ssl_verification: false,
      });
      expect(all).toMatchObject({
        push_events: false,
        issues_events: true,
        merge_requests_events: true,
        tag_push_events: true,
        note_events: true,
        build_events: true,
        pipeline_events: true,
        wiki_page_events: true,
        enable_ssl_verification: false,
      });
    });

    it("keeps the secret token sealed, never answers it, keeps it on edits without one and drops it when empty", async () => {
      const carol = await h().user("carol");
      const me = h().as(carol);
      const { project } = await me.projects.create({ name: "secretive" });
      const hook = await me.projectHooks.add({
        id: project.id,
        url: "https://example.com/",
        token: "s3cret",
      });
      expect(JSON.stringify(hook)).not.toContain("s3cret");
      const sealed = await h().runtime.stores.hooks.sealedToken(project.id, hook.id);
      expect(sealed).not.toBe("s3cret");
      expect(h().runtime.secrets.open(sealed as string)).toBe("s3cret");

      await me.projectHooks.edit({ id: project.id, hook_id: hook.id, url: "https://example.com/2" });
      expect(await h().runtime.stores.hooks.sealedToken(project.id, hook.id)).toBe(sealed);
      await me.projectHooks.edit({
        id: project.id,
        hook_id: hook.id,
        url: "https://example.com/2",
        token: "",
      });
      expect(await h().runtime.stores.hooks.sealedToken(project.id, hook.id)).toBeNull();
    });

    it("refuses invalid and local URLs on add and edit, local ones only until the setting allows them", async () => {
      const dan = await h().user("dan");
      const me = h().as(dan);
      const { project } = await me.projects.create({ name: "ssrf" });
      const refused = (url: string, message: string) =>
        expect(me.projectHooks.add({ id: project.id, url })).rejects.toMatchObject({
          code: "BAD_REQUEST",
          cause: { kind: "validation", fields: { url: [message] } },
        });
      await refused("ftp://example.com/", HOOK_URL_MESSAGES.invalid);
      await refused("http://exa mple.com/", HOOK_URL_MESSAGES.invalid);
      await refused("http://localhost:8080/", HOOK_URL_MESSAGES.localhost);
      await refused("http://169.254.169.254/latest/meta-data", HOOK_URL_MESSAGES.localNetwork);
      await refused("http://[::ffff:7f00:1]/", HOOK_URL_MESSAGES.localNetwork);
      const hook = await me.projectHooks.add({ id: project.id, url: "https://example.com/" });
      await expect(
        me.projectHooks.edit({ id: project.id, hook_id: hook.id, url: "http://10.0.0.5/" }),
      ).rejects.toMatchObject({ cause: { fields: { url: [HOOK_URL_MESSAGES.localNetwork] } } });
      expect((await me.projectHooks.get({ id: project.id, hook_id: hook.id })).url).toBe(
        "https://example.com/",
      );

      await h().system.settings.update({ allow_local_requests_from_hooks: true });
      expect((await me.projectHooks.add({ id: project.id, url: "http://127.0.0.1:9000/" })).url).toBe(
        "http://127.0.0.1:9000/",
      );
      await refused("ftp://example.com/", HOOK_URL_MESSAGES.invalid);
    });

    it("finds hooks only through their own project", async () => {
      const erin = await h().user("erin");
      const me = h().as(erin);
      const first = (await me.projects.create({ name: "first" })).project;
      const second = (await me.projects.create({ name: "second" })).project;
      const hook = await me.projectHooks.add({ id: first.id, url: "https://example.com/" });
      await expect(me.projectHooks.get({ id: second.id, hook_id: hook.id })).rejects.toMatchObject({
        cause: { failure: { kind: "not_found", subject: "hook" } },
      });
      expect(await me.projectHooks.remove({ id: second.id, hook_id: hook.id })).toBeNull();
      expect(await me.projectHooks.get({ id: first.id, hook_id: hook.id })).toEqual(hook);
      await me.projects.remove({ id: first.id });
      expect(await h().runtime.stores.hooks.find(first.id, hook.id)).toBeUndefined();
    });

    it.each([
      ["private", 0, { outsider: "NOT_FOUND" }],
      ["public", 20, { outsider: "FORBIDDEN" }],
    ])("lets masters and above manage the hooks of a %s project", async (_name, visibility, expected) => {
      const { id, people } = await projectWithRoles(h(), visibility);
      const want: Record<string, string> = {
        owner: "ok",
        master: "ok",
        admin: "ok",
        developer: "FORBIDDEN",
        reporter: "FORBIDDEN",
        guest: "FORBIDDEN",
        ...expected,
      };
      const hook = await h()
        .as(people["owner"] as User)
        .projectHooks.add({ id, url: "https://example.com/" });
      for (const [role, user] of Object.entries(people)) {
        const caller = h().as(user);
        const got = {
          list: await outcome(() => caller.projectHooks.list({ id })),
          get: await outcome(() => caller.projectHooks.get({ id, hook_id: hook.id })),
          add: await outcome(() => caller.projectHooks.add({ id, url: "https://example.com/x" })),
          edit: await outcome(() =>
            caller.projectHooks.edit({ id, hook_id: hook.id, url: "https://example.com/" }),
          ),
          remove: await outcome(() => caller.projectHooks.remove({ id, hook_id: 999_999 })),
        };
        const expectedOutcome = want[role] as string;
        expect({ role, ...got }).toEqual({
          role,
          list: expectedOutcome,
          get: expectedOutcome,
          add: expectedOutcome,
          edit: expectedOutcome,
          remove: expectedOutcome,
        });
      }
    });
  });
});
