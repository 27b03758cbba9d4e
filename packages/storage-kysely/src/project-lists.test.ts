import { AccessLevel, Visibility } from "@kiln/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALL, BY_ID, createAccount, createGroup, createProject, ids } from "./__tests__/fixtures.js";
import type { OpenDatabase } from "./connect.js";
import type { ProjectFilter, ProjectOrder, ProjectScope } from "./stores/project-scopes.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `project lists on ${dialect.name} ${dialect.unavailable ?? ""}`,
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

      const listIds = async (scope: ProjectScope, filter: ProjectFilter = {}, order: ProjectOrder = BY_ID) =>
        ids((await stores.projects.list(scope, filter, order, ALL)).items);

      /**
       * Mia reaches projects through each source; Olga owns a personal namespace; Ext is external.
       * The projects are named after how Mia relates to them.
       */
      async function world() {
        const olga = await createAccount(stores, "olga");
        const mia = await createAccount(stores, "mia");
        const ext = await createAccount(stores, "ext", { external: true });
        const nobody = await createAccount(stores, "nobody");
        const groups = {
          devs: await createGroup(stores, "devs"),
          owners: await createGroup(stores, "owners"),
          masters: await createGroup(stores, "masters"),
          sharers: await createGroup(stores, "sharers"),
        };
        await stores.groupMembers.add(groups.devs.id, mia.user.id, AccessLevel.DEVELOPER);
        await stores.groupMembers.add(groups.owners.id, mia.user.id, AccessLevel.OWNER);
        await stores.groupMembers.add(groups.masters.id, mia.user.id, AccessLevel.MASTER);
        await stores.groupMembers.add(groups.sharers.id, mia.user.id, AccessLevel.GUEST);
        const p = {
          projectMember: await createProject(stores, olga.namespace.id, "project-member"),
          shared: await createProject(stores, olga.namespace.id, "shared"),
          secret: await createProject(stores, olga.namespace.id, "secret"),
          internal: await createProject(stores, olga.namespace.id, "internal", {
            visibility_level: Visibility.INTERNAL,
          }),
          public: await createProject(stores, olga.namespace.id, "public", {
            visibility_level: Visibility.PUBLIC,
          }),
          groupMember: await createProject(stores, groups.devs.id, "group-member"),
          groupOwner: await createProject(stores, groups.owners.id, "group-owner"),
          groupMaster: await createProject(stores, groups.masters.id, "group-master"),
          personal: await createProject(stores, mia.namespace.id, "personal"),
        };
        await stores.projectMembers.add(p.projectMember.id, mia.user.id, AccessLevel.REPORTER);
        await stores.projectMembers.add(p.projectMember.id, ext.user.id, AccessLevel.GUEST);
        await stores.shares.add(p.shared.id, groups.sharers.id, AccessLevel.DEVELOPER);
        return { olga, mia, ext, nobody, groups, p };
      }

      it("draws all projects, and those a user is a member of through each source", async () => {
        const { mia, nobody, p } = await world();
        expect(await listIds({ kind: "all" })).toEqual(ids(Object.values(p)));
        expect(await listIds({ kind: "member", userId: mia.user.id })).toEqual(
          ids([p.projectMember, p.shared, p.groupMember, p.groupOwner, p.groupMaster, p.personal]),
        );
        expect(await listIds({ kind: "member", userId: nobody.user.id })).toEqual([]);
      });

      it("draws owned projects from the personal namespace and groups the user owns only", async () => {
        const { olga, mia, p } = await world();
        expect(await listIds({ kind: "owned", userId: mia.user.id })).toEqual(
          ids([p.groupOwner, p.personal]),
        );
        expect(await listIds({ kind: "owned", userId: olga.user.id })).toEqual(
          ids([p.projectMember, p.shared, p.secret, p.internal, p.public]),
        );
      });

      it("draws the starred projects the user may still read", async () => {
        const { olga, mia, ext, p } = await world();
        for (const project of [p.public, p.secret, p.projectMember, p.internal]) {
          await stores.stars.add(mia.user.id, project.id);
        }
        await stores.stars.add(olga.user.id, p.groupOwner.id);
        await stores.stars.add(ext.user.id, p.internal.id);
        await stores.stars.add(ext.user.id, p.public.id);
        expect(await listIds({ kind: "starred", userId: mia.user.id, external: false })).toEqual(
          ids([p.projectMember, p.internal, p.public]),
        );
        expect(await listIds({ kind: "starred", userId: ext.user.id, external: true })).toEqual(
          ids([p.public]),
        );
      });

      it("draws visible projects: public, internal unless external, and private where a member", async () => {
        const { mia, ext, nobody, p } = await world();
        expect(await listIds({ kind: "visible", userId: mia.user.id, external: false })).toEqual(
          ids([
            p.projectMember,
            p.shared,
            p.internal,
            p.public,
            p.groupMember,
            p.groupOwner,
            p.groupMaster,
            p.personal,
          ]),
        );
        expect(await listIds({ kind: "visible", userId: nobody.user.id, external: false })).toEqual(
          ids([p.internal, p.public]),
        );
        expect(await listIds({ kind: "visible", userId: ext.user.id, external: true })).toEqual(
          ids([p.projectMember, p.public]),
        );
      });

      it("draws a namespace's projects as far as the viewer may read them, all of them for no viewer", async () => {
        const { olga, mia, ext, nobody, groups, p } = await world();
        const ns = olga.namespace.id;
        const asViewer = (who: typeof mia, external = false) => ({ userId: who.user.id, external });
        expect(await listIds({ kind: "namespace", namespaceId: ns, viewer: null })).toEqual(
          ids([p.projectMember, p.shared, p.secret, p.internal, p.public]),
        );
        expect(await listIds({ kind: "namespace", namespaceId: ns, viewer: asViewer(mia) })).toEqual(
          ids([p.projectMember, p.shared, p.internal, p.public]),
        );
        expect(await listIds({ kind: "namespace", namespaceId: ns, viewer: asViewer(ext, true) })).toEqual(
          ids([p.projectMember, p.public]),
        );
        expect(await listIds({ kind: "namespace", namespaceId: ns, viewer: asViewer(olga) })).toEqual(
          ids([p.projectMember, p.shared, p.secret, p.internal, p.public]),
        );
        const devs = groups.devs.id;
        expect(await listIds({ kind: "namespace", namespaceId: devs, viewer: asViewer(nobody) })).toEqual([]);
        expect(await listIds({ kind: "namespace", namespaceId: devs, viewer: asViewer(mia) })).toEqual(
          ids([p.groupMember]),
        );
      });

      it("filters by archived and visibility, within the scope", async () => {
        const { namespace } = await createAccount(stores, "fay");
        const other = await createAccount(stores, "gus");
        const live = await createProject(stores, namespace.id, "live", {
          visibility_level: Visibility.PUBLIC,
        });
        const old = await createProject(stores, namespace.id, "old", { archived: true });
        const inner = await createProject(stores, namespace.id, "inner", {
          visibility_level: Visibility.INTERNAL,
        });
        await createProject(stores, other.namespace.id, "elsewhere", { archived: true });
        const mine: ProjectScope = { kind: "namespace", namespaceId: namespace.id, viewer: null };
        expect(await listIds(mine, { archived: true })).toEqual([old.id]);
        expect(await listIds(mine, { archived: false })).toEqual(ids([live, inner]));
        expect(await listIds(mine, { visibility: Visibility.PRIVATE })).toEqual([old.id]);
        expect(await listIds(mine, { visibility: Visibility.INTERNAL })).toEqual([inner.id]);
        expect(await listIds(mine, { visibility: Visibility.PUBLIC, archived: false })).toEqual([live.id]);
        expect(await listIds(mine, { visibility: Visibility.PUBLIC, archived: true })).toEqual([]);
      });

      it("searches name, path and description ignoring case, with LIKE wildcards taken literally", async () => {
        const { namespace } = await createAccount(stores, "hal");
        const alpha = await createProject(stores, namespace.id, "alpha-beta", { name: "Alpha Beta" });
        const gamma = await createProject(stores, namespace.id, "g_m", {
          name: "gamma",
          description: "has 100% coverage",
        });
        const delta = await createProject(stores, namespace.id, "dx", {
          name: "delta",
          description: "Contains ALPHA",
        });
        const epsilon = await createProject(stores, namespace.id, "gxm", { name: "epsilon" });
        const scope: ProjectScope = { kind: "all" };
        expect(await listIds(scope, { search: "ALPHA" })).toEqual(ids([alpha, delta]));
        expect(await listIds(scope, { search: "Dx" })).toEqual([delta.id]);
        expect(await listIds(scope, { search: "coverage" })).toEqual([gamma.id]);
        expect(await listIds(scope, { search: "_" })).toEqual([gamma.id]);
        expect(await listIds(scope, { search: "g_m" })).toEqual([gamma.id]);
        expect(await listIds(scope, { search: "%" })).toEqual([gamma.id]);
        expect(await listIds(scope, { search: "\\" })).toEqual([]);
        expect(await listIds(scope, { search: "psi" })).toEqual([epsilon.id]);
        expect(await listIds(scope, { search: "nothing" })).toEqual([]);
        expect(await listIds(scope, { search: "alpha", archived: true })).toEqual([]);
        // The name filter looks at the name only.
        expect(await listIds(scope, { name: "ALPHA" })).toEqual([alpha.id]);
        expect(await listIds(scope, { name: "dx" })).toEqual([]);
      });
    },
  );
}
