import type { User } from "@kiln/domain";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OpenDatabase } from "./connect.js";
import { UniqueViolation } from "./errors.js";
import { migrateToLatest } from "./migrate.js";
import type { NewUser } from "./stores/users.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

function newUser(username: string, overrides: Partial<NewUser> = {}): NewUser {
  return {
    username,
    email: `${username}@example.com`,
    name: username.toUpperCase(),
    state: "active",
    is_admin: false,
    can_create_group: true,
    projects_limit: 10,
    external: false,
    bio: null,
    location: null,
    organization: null,
    skype: "",
    linkedin: "",
    twitter: "",
    website_url: "",
    theme_id: 1,
    color_scheme_id: 1,
    confirmed_at: null,
    password_hash: "hash",
    private_token_digest: `digest-${username}`,
    private_token_sealed: `sealed-${username}`,
    ...overrides,
  };
}

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `stores on ${dialect.name} ${dialect.unavailable ?? ""}`,
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

      it("migrations are idempotent", async () => {
        expect((await migrateToLatest(opened.db)).applied).toEqual([]);
      });

      describe("users", () => {
        it("creates a user and finds it by id, username, email and token digest, ignoring case", async () => {
          const created = await stores.users.create(newUser("Alice", { is_admin: true }));
          expect(created).toMatchObject({
            username: "Alice",
            is_admin: true,
            external: false,
            state: "active",
          });
          expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
          expect(await stores.users.findById(created.id)).toEqual(created);
          expect(await stores.users.findByUsername("alice")).toEqual(created);
          expect(await stores.users.findByEmail("ALICE@example.com")).toEqual(created);
          expect(await stores.users.findByPrivateTokenDigest("digest-Alice")).toEqual(created);
          expect(await stores.users.findByPrivateTokenDigest("digest-nobody")).toBeUndefined();
          expect(await stores.users.passwordHash(created.id)).toBe("hash");
          expect(await stores.users.sealedPrivateToken(created.id)).toBe("sealed-Alice");
        });

        it("never returns secrets with the user", async () => {
          const created = await stores.users.create(newUser("bob"));
          expect(Object.keys(created)).not.toContain("password_hash");
          expect(Object.keys(created)).not.toContain("private_token_sealed");
        });

        it("refuses a second account with the same username or email in another case", async () => {
          await stores.users.create(newUser("carol"));
          await expect(
            stores.users.create(newUser("CAROL", { email: "other@example.com", private_token_digest: "d2" })),
          ).rejects.toBeInstanceOf(UniqueViolation);
          await expect(
            stores.users.create(
              newUser("carol2", { email: "Carol@Example.com", private_token_digest: "d3" }),
            ),
          ).rejects.toBeInstanceOf(UniqueViolation);
        });

        it("updates fields, including booleans, and moves sign-in times", async () => {
          const user = await stores.users.create(newUser("dave"));
          const updated = await stores.users.update(user.id, {
            name: "Dave D",
            is_admin: true,
            state: "blocked",
          });
          expect(updated).toMatchObject({ name: "Dave D", is_admin: true, state: "blocked" });
          expect(await stores.users.update(999_999, { name: "x" })).toBeUndefined();
          await stores.users.recordSignIn(user.id);
          const first = (await stores.users.findById(user.id)) as User;
          expect(first.current_sign_in_at).not.toBeNull();
          expect(first.last_sign_in_at).toBeNull();
          await stores.users.recordSignIn(user.id);
          const second = (await stores.users.findById(user.id)) as User;
          expect(second.last_sign_in_at).toBe(first.current_sign_in_at);
        });

        it("lists by id with exact totals and filters, escaping LIKE wildcards", async () => {
          for (const name of ["ann", "ben", "cat", "dan", "e_f", "exf"]) {
            await stores.users.create(newUser(name, { private_token_digest: `d-${name}` }));
          }
          const page = await stores.users.list({}, { page: 2, perPage: 4 });
          expect(page.items.map((u) => u.username)).toEqual(["e_f", "exf"]);
          expect(page.total).toBe(6);
          const search = await stores.users.list({ search: "_" }, { page: 1, perPage: 20 });
          expect(search.items.map((u) => u.username)).toEqual(["e_f"]);
          const byName = await stores.users.list({ search: "AN" }, { page: 1, perPage: 20 });
          expect(byName.items.map((u) => u.username)).toEqual(["ann", "dan"]);
          expect((await stores.users.list({ search: "@example" }, { page: 1, perPage: 20 })).items).toEqual(
            [],
          );
          const byEmail = await stores.users.list(
            { search: "cat@", searchEmails: true },
            { page: 1, perPage: 20 },
          );
          expect(byEmail.items.map((u) => u.username)).toEqual(["cat"]);
          const exact = await stores.users.list({ username: "BEN" }, { page: 1, perPage: 20 });
          expect(exact.items.map((u) => u.username)).toEqual(["ben"]);
          await stores.users.update(exact.items[0]!.id, { state: "blocked" });
          const blocked = await stores.users.list({ state: "blocked" }, { page: 1, perPage: 1 });
          expect(blocked).toMatchObject({ total: 1, items: [{ username: "ben" }] });
        });

        it("deleting a user removes its namespace, tokens and keys", async () => {
          const user = await stores.users.create(newUser("erin"));
          await stores.namespaces.createForUser(user.id, user.username, user.name);
          await stores.personalAccessTokens.create({
            user_id: user.id,
            name: "t",
            token_digest: "pat",
            expires_at: null,
          });
          await stores.sshKeys.create({
            user_id: user.id,
            title: "k",
            key: "ssh-ed25519 AAAA",
            fingerprint: "fp",
          });
          expect(await stores.users.delete(user.id)).toBe(true);
          expect(await stores.users.delete(user.id)).toBe(false);
          expect(await stores.namespaces.findForUser(user.id)).toBeUndefined();
          expect(await stores.personalAccessTokens.findByDigest("pat")).toBeUndefined();
          expect(await stores.sshKeys.fingerprintTaken("fp")).toBe(false);
        });
      });

      describe("namespaces", () => {
        it("shares one path space, ignoring case, and follows renames", async () => {
          const user = await stores.users.create(newUser("frank"));
          await stores.namespaces.createForUser(user.id, "frank", "Frank");
          expect(await stores.namespaces.pathTaken("FRANK")).toBe(true);
          const own = await stores.namespaces.findForUser(user.id);
          expect(await stores.namespaces.pathTaken("frank", own!.id)).toBe(false);
          await stores.namespaces.renameForUser(user.id, "franky", "Franky");
          expect(await stores.namespaces.findForUser(user.id)).toMatchObject({
            path: "franky",
            name: "Franky",
          });
          const other = await stores.users.create(newUser("gina"));
          await expect(stores.namespaces.createForUser(other.id, "Franky", "x")).rejects.toBeInstanceOf(
            UniqueViolation,
          );
        });
      });

      describe("personal access tokens", () => {
        it("finds by digest and revokes once", async () => {
          const user = await stores.users.create(newUser("hank"));
          const token = await stores.personalAccessTokens.create({
            user_id: user.id,
            name: "ci",
            token_digest: "abc",
            expires_at: null,
          });
          expect(await stores.personalAccessTokens.findByDigest("abc")).toEqual(token);
          expect(await stores.personalAccessTokens.revoke(user.id, token.id)).toBe(true);
          expect(await stores.personalAccessTokens.revoke(user.id, token.id)).toBe(false);
          expect(await stores.personalAccessTokens.findByDigest("abc")).toMatchObject({ revoked: true });
          expect(await stores.personalAccessTokens.listForUser(user.id)).toHaveLength(1);
        });
      });

      describe("ssh keys", () => {
        it("keeps keys per user and fingerprints unique", async () => {
          const a = await stores.users.create(newUser("ivan"));
          const b = await stores.users.create(newUser("jill"));
          const key = await stores.sshKeys.create({
            user_id: a.id,
            title: "laptop",
            key: "ssh-rsa AAAA",
            fingerprint: "f1",
          });
          expect(await stores.sshKeys.findForUser(a.id, key.id)).toEqual(key);
          expect(await stores.sshKeys.findForUser(b.id, key.id)).toBeUndefined();
          await expect(
            stores.sshKeys.create({ user_id: b.id, title: "x", key: "ssh-rsa AAAA", fingerprint: "f1" }),
          ).rejects.toBeInstanceOf(UniqueViolation);
          expect(await stores.sshKeys.delete(b.id, key.id)).toBe(false);
          expect(await stores.sshKeys.delete(a.id, key.id)).toBe(true);
          expect(await stores.sshKeys.listForUser(a.id)).toEqual([]);
        });
      });

      describe("settings", () => {
        it("starts empty and keeps what was written", async () => {
          expect(await stores.settings.read()).toEqual({});
          await stores.settings.write({ signin_enabled: false });
          await stores.settings.write({ signin_enabled: false, max_attachment_size: 3 });
          expect(await stores.settings.read()).toEqual({ signin_enabled: false, max_attachment_size: 3 });
        });
      });

      describe("transactions", () => {
        it("roll back every write when the work fails", async () => {
          await expect(
            stores.transaction(async (tx) => {
              const user = await tx.users.create(newUser("kate"));
              await tx.namespaces.createForUser(user.id, user.username, user.name);
              throw new Error("boom");
            }),
          ).rejects.toThrow("boom");
          expect(await stores.users.findByUsername("kate")).toBeUndefined();
          expect(await stores.namespaces.pathTaken("kate")).toBe(false);
        });

        it("commit every write when the work succeeds, and nested calls join the outer one", async () => {
          await stores.transaction(async (tx) => {
            const user = await tx.users.create(newUser("liam"));
            await tx.transaction((inner) =>
              inner.namespaces.createForUser(user.id, user.username, user.name),
            );
          });
          expect(await stores.namespaces.pathTaken("liam")).toBe(true);
        });

        it("relaxed ones commit and roll back alike, and leave the connection's durability as it was", async () => {
          const durability = async () =>
            dialect.name === "sqlite"
              ? (await sql<{ synchronous: number }>`pragma synchronous`.execute(opened.db)).rows[0]
                  ?.synchronous
              : (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(opened.db))
                  .rows[0]?.synchronous_commit;
          const before = await durability();
          await expect(
            stores.relaxedTransaction(async (tx) => {
              await tx.users.create(newUser("mona"));
              throw new Error("boom");
            }),
          ).rejects.toThrow("boom");
          expect(await stores.users.findByUsername("mona")).toBeUndefined();
          await stores.relaxedTransaction((tx) => tx.users.create(newUser("nina")));
          expect(await stores.users.findByUsername("nina")).toBeDefined();
          expect(await durability()).toBe(before);
        });
      });
    },
  );
}
