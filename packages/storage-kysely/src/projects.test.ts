import { AccessLevel, EventAction, effectiveAccessLevel, type Project, Visibility } from "@kiln/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALL, createAccount, createGroup, createProject, newProject } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import { ForeignKeyViolation, UniqueViolation } from "./errors.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `project store on ${dialect.name} ${dialect.unavailable ?? ""}`,
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

      it("creates a project with every field, booleans as booleans, and no secrets", async () => {
        const { user, namespace } = await createAccount(stores, "alice");
        const created = await stores.projects.create(
          newProject(namespace.id, "kiln", {
            name: "Kiln Forge",
            description: "a forge",
            default_branch: "main",
            visibility_level: Visibility.INTERNAL,
            creator_id: user.id,
            import_url_sealed: "url-sealed",
            archived: true,
            issues_enabled: false,
            builds_enabled: false,
            lfs_enabled: false,
            public_builds: true,
            only_allow_merge_if_build_succeeds: true,
            runners_token_digest: "rt-digest",
            runners_token_sealed: "rt-sealed",
          }),
        );
        expect(created).toMatchObject({
          namespace_id: namespace.id,
          name: "Kiln Forge",
          path: "kiln",
          description: "a forge",
          default_branch: "main",
          visibility_level: Visibility.INTERNAL,
          creator_id: user.id,
          archived: true,
          issues_enabled: false,
          merge_requests_enabled: true,
          builds_enabled: false,
          lfs_enabled: false,
          public_builds: true,
          only_allow_merge_if_build_succeeds: true,
          star_count: 0,
          open_issues_count: 0,
          public_open_issues_count: 0,
        });
        expect(created.created_at).toMatch(ISO);
        expect(created.updated_at).toBe(created.created_at);
        expect(created.last_activity_at).toBe(created.created_at);
        expect(Object.keys(created).filter((key) => /^(runners|import)/.test(key))).toEqual([]);
        expect(await stores.projects.sealedImportUrl(created.id)).toBe("url-sealed");
        expect(await stores.projects.findById(created.id)).toEqual(created);
        expect(await stores.projects.sealedRunnersTokens([created.id, created.id + 1000])).toEqual(
          new Map([[created.id, "rt-sealed"]]),
        );
        expect(await stores.projects.findById(created.id + 1000)).toBeUndefined();
      });

      it("refuses a name or a path taken in the same namespace in another case, but not elsewhere", async () => {
        const { namespace } = await createAccount(stores, "bob");
        const group = await createGroup(stores, "team");
        await createProject(stores, namespace.id, "alpha", { name: "Alpha" });
        await expect(
          stores.projects.create(newProject(namespace.id, "other", { name: "ALPHA" })),
        ).rejects.toBeInstanceOf(UniqueViolation);
        await expect(
          stores.projects.create(newProject(namespace.id, "ALPHA", { name: "Different" })),
        ).rejects.toBeInstanceOf(UniqueViolation);
        const elsewhere = await createProject(stores, group.id, "alpha", { name: "Alpha" });
        expect(elsewhere.namespace_id).toBe(group.id);
        expect(await stores.projects.countInNamespace(namespace.id)).toBe(1);
        expect(await stores.projects.countInNamespace(group.id)).toBe(1);
      });

      it("refuses a project in a namespace deleted meanwhile as a ForeignKeyViolation", async () => {
        const group = await createGroup(stores, "doomed");
        await stores.namespaces.deleteGroup(group.id);
        await expect(createProject(stores, group.id, "late")).rejects.toBeInstanceOf(ForeignKeyViolation);
        expect(await stores.projects.countInNamespace(group.id)).toBe(0);
      });

      it("finds by ids, skipping unknown ones and repeats", async () => {
        const { namespace } = await createAccount(stores, "carol");
        const a = await createProject(stores, namespace.id, "a");
        const b = await createProject(stores, namespace.id, "b");
        expect(await stores.projects.findByIds([])).toEqual(new Map());
        const found = await stores.projects.findByIds([b.id, a.id, b.id, 999_999]);
        expect(found).toEqual(
          new Map([
            [b.id, b],
            [a.id, a],
          ]),
        );
      });

      it("sets the default branch only while a project has none", async () => {
        const { namespace } = await createAccount(stores, "frank");
        const project = await createProject(stores, namespace.id, "empty");
        expect(project.default_branch).toBeNull();
        expect(await stores.projects.claimDefaultBranch(project.id, "main")).toBe(true);
        expect(await stores.projects.claimDefaultBranch(project.id, "other")).toBe(false);
        expect((await stores.projects.findById(project.id))?.default_branch).toBe("main");
      });

      it("finds by full path ignoring case, within the right namespace only", async () => {
        const { namespace } = await createAccount(stores, "Dave");
        const group = await createGroup(stores, "Ops");
        const mine = await createProject(stores, namespace.id, "Tools");
        const theirs = await createProject(stores, group.id, "tools");
        expect(await stores.projects.findByFullPath("Dave", "Tools")).toEqual(mine);
        expect(await stores.projects.findByFullPath("dave", "TOOLS")).toEqual(mine);
        expect(await stores.projects.findByFullPath("OPS", "Tools")).toEqual(theirs);
        expect(await stores.projects.findByFullPath("dave", "tool")).toBeUndefined();
        expect(await stores.projects.findByFullPath("nobody", "tools")).toBeUndefined();
      });

      it("says whether a name or path is taken in a namespace, ignoring case and the project itself", async () => {
        const { namespace } = await createAccount(stores, "erin");
        const group = await createGroup(stores, "crew");
        const project = await createProject(stores, namespace.id, "site", { name: "My Site" });
        expect(await stores.projects.taken(namespace.id, "name", "my site")).toBe(true);
        expect(await stores.projects.taken(namespace.id, "path", "SITE")).toBe(true);
        // Name and path are separate fields.
        expect(await stores.projects.taken(namespace.id, "name", "site")).toBe(false);
        expect(await stores.projects.taken(namespace.id, "path", "my site")).toBe(false);
        expect(await stores.projects.taken(group.id, "path", "site")).toBe(false);
        expect(await stores.projects.taken(namespace.id, "path", "site", project.id)).toBe(false);
        expect(await stores.projects.taken(namespace.id, "path", "site", project.id + 1)).toBe(true);
      });

      it("updates fields and booleans both ways, moving updated_at, and refuses a taken name", async () => {
        const { namespace } = await createAccount(stores, "frank");
        await createProject(stores, namespace.id, "taken");
        const project = await createProject(stores, namespace.id, "app", { description: "old" });
        await new Promise((resolve) => setTimeout(resolve, 5));
        const updated = await stores.projects.update(project.id, {
          name: "App Two",
          description: null,
          default_branch: "develop",
          visibility_level: Visibility.PUBLIC,
          archived: true,
          issues_enabled: false,
          public_builds: true,
          path: undefined,
        });
        expect(updated).toEqual({
          ...project,
          name: "App Two",
          description: null,
          default_branch: "develop",
          visibility_level: Visibility.PUBLIC,
          archived: true,
          issues_enabled: false,
          public_builds: true,
          updated_at: updated?.updated_at,
        });
        expect(updated!.updated_at > project.updated_at).toBe(true);
        expect(updated!.created_at).toBe(project.created_at);
        expect(await stores.projects.findById(project.id)).toEqual(updated);
        const back = await stores.projects.update(project.id, { archived: false, issues_enabled: true });
        expect(back).toMatchObject({ archived: false, issues_enabled: true, public_builds: true });
        await expect(stores.projects.update(project.id, { path: "TAKEN" })).rejects.toBeInstanceOf(
          UniqueViolation,
        );
        expect(await stores.projects.update(999_999, { name: "ghost" })).toBeUndefined();
      });

      it("adds and takes away stars from the count", async () => {
        const { namespace } = await createAccount(stores, "gina");
        const project = await createProject(stores, namespace.id, "p");
        const other = await createProject(stores, namespace.id, "q");
        await stores.projects.addStars(project.id, 2);
        await stores.projects.addStars(project.id, -1);
        expect((await stores.projects.findById(project.id))?.star_count).toBe(1);
        expect((await stores.projects.findById(other.id))?.star_count).toBe(0);
      });

      it("deletes a project with its members, stars, forks, shares and events, and nothing else", async () => {
        const { user, namespace } = await createAccount(stores, "hank");
        const group = await createGroup(stores, "guild");
        const source = await createProject(stores, namespace.id, "source");
        const project = await createProject(stores, namespace.id, "doomed");
        const fork = await createProject(stores, namespace.id, "fork");
        const keep = await createProject(stores, namespace.id, "keep");
        await stores.projectMembers.add(project.id, user.id, AccessLevel.MASTER);
        await stores.projectMembers.add(keep.id, user.id, AccessLevel.MASTER);
        await stores.stars.add(user.id, project.id);
        await stores.stars.add(user.id, keep.id);
        await stores.forks.link(project.id, source.id);
        await stores.forks.link(fork.id, project.id);
        await stores.shares.add(project.id, group.id, AccessLevel.DEVELOPER);
        await stores.shares.add(keep.id, group.id, AccessLevel.DEVELOPER);
        await stores.events.append(event(project.id, user.id));
        await stores.events.append(event(keep.id, user.id));

        expect(await stores.projects.delete(project.id)).toBe(true);
        expect(await stores.projects.delete(project.id)).toBe(false);
        expect(await stores.projects.findById(project.id)).toBeUndefined();
        expect(await stores.projectMembers.find(project.id, user.id)).toBeUndefined();
        expect(await stores.stars.remove(user.id, project.id)).toBe(false);
        expect(await stores.forks.sourcesOf([project.id, fork.id])).toEqual(new Map());
        expect(await stores.forks.countForks([source.id])).toEqual(new Map());
        expect(await stores.shares.projectsSharedWith(group.id)).toEqual([keep.id]);
        expect((await stores.events.listForProject(project.id, ALL)).total).toBe(0);
        // What hung off the other projects stays.
        expect(await stores.projects.findById(fork.id)).toBeDefined();
        expect(await stores.projectMembers.find(keep.id, user.id)).toBeDefined();
        expect(await stores.stars.remove(user.id, keep.id)).toBe(true);
        expect((await stores.events.listForProject(keep.id, ALL)).total).toBe(1);
        expect(await stores.projects.countInNamespace(namespace.id)).toBe(3);
      });

      describe("access sources", () => {
        const levelOf = async (userId: number, project: Project, ownsNamespace = false) =>
          effectiveAccessLevel(await stores.projects.accessSources(userId, project, ownsNamespace));

        it("reports nothing for a stranger, and passes the namespace owner flag through", async () => {
          const { user, namespace } = await createAccount(stores, "ivan");
          const project = await createProject(stores, namespace.id, "p");
          expect(await stores.projects.accessSources(user.id, project, false)).toEqual({
            ownsNamespace: false,
            projectMember: null,
            groupMember: null,
            shares: [],
          });
          const owned = await stores.projects.accessSources(user.id, project, true);
          expect(owned.ownsNamespace).toBe(true);
          expect(effectiveAccessLevel(owned)).toBe(AccessLevel.OWNER);
        });

        it("reports the project membership and the membership of the project's group", async () => {
          const { user } = await createAccount(stores, "jill");
          const { user: other } = await createAccount(stores, "kate");
          const group = await createGroup(stores, "g");
          const project = await createProject(stores, group.id, "p");
          await stores.projectMembers.add(project.id, user.id, AccessLevel.REPORTER);
          await stores.groupMembers.add(group.id, user.id, AccessLevel.DEVELOPER);
          await stores.groupMembers.add(group.id, other.id, AccessLevel.GUEST);
          expect(await stores.projects.accessSources(user.id, project, false)).toMatchObject({
            projectMember: AccessLevel.REPORTER,
            groupMember: AccessLevel.DEVELOPER,
            shares: [],
          });
          expect(await levelOf(user.id, project)).toBe(AccessLevel.DEVELOPER);
          expect(await stores.projects.accessSources(other.id, project, false)).toMatchObject({
            projectMember: null,
            groupMember: AccessLevel.GUEST,
          });
        });

        it("caps a share at its group access, and takes the highest of several shares", async () => {
          const { user, namespace } = await createAccount(stores, "liam");
          const project = await createProject(stores, namespace.id, "shared");
          const unrelated = await createProject(stores, namespace.id, "unrelated");
          const high = await createGroup(stores, "high");
          const low = await createGroup(stores, "low");
          const notShared = await createGroup(stores, "not-shared");
          await stores.groupMembers.add(high.id, user.id, AccessLevel.OWNER);
          await stores.groupMembers.add(low.id, user.id, AccessLevel.REPORTER);
          await stores.groupMembers.add(notShared.id, user.id, AccessLevel.OWNER);

          await stores.shares.add(project.id, high.id, AccessLevel.DEVELOPER);
          const capped = await stores.projects.accessSources(user.id, project, false);
          expect(capped.groupMember).toBeNull();
          expect(effectiveAccessLevel(capped)).toBe(AccessLevel.DEVELOPER);

          // A share above the member's own level grants only that level.
          await stores.shares.add(project.id, low.id, AccessLevel.MASTER);
          expect(await levelOf(user.id, project)).toBe(AccessLevel.DEVELOPER);
          await stores.shares.remove(project.id, high.id);
          expect(await levelOf(user.id, project)).toBe(AccessLevel.REPORTER);
          await stores.shares.add(project.id, high.id, AccessLevel.MASTER);
          expect(await levelOf(user.id, project)).toBe(AccessLevel.MASTER);
          expect(await levelOf(user.id, unrelated)).toBe(AccessLevel.NONE);
        });
      });
    },
  );
}

function event(projectId: number, authorId: number) {
  return {
    project_id: projectId,
    author_id: authorId,
    action: EventAction.CREATED,
    target_type: null,
    target_id: null,
    target_title: null,
    data: null,
  };
}
