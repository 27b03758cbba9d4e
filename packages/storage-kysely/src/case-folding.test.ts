import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AccessLevel } from "@kiln/domain";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, sql } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALL, BY_ID, createAccount, createGroup, createProject, ids } from "./__tests__/fixtures.js";
import { foldCase } from "./case-folding.js";
import { type OpenDatabase, openDatabase } from "./connect.js";
import { UniqueViolation } from "./errors.js";
import { migrateToLatest } from "./migrate.js";
import { migrationProvider } from "./migrations/index.js";
import { Stores } from "./stores.js";
import { testDialects } from "./testing.js";

describe("foldCase", () => {
  it("lowercases character by character, as PostgreSQL's lower() on UTF-8", () => {
    expect(foldCase("Project ABC")).toBe("project abc");
    expect(foldCase("ÄRGER Élodie ÇA")).toBe("ärger élodie ça");
    expect(foldCase("ПРОЕКТ Σοφία")).toBe("проект σοφία");
    // The two full mappings of toLowerCase are not PostgreSQL's: "İ" is "i", a final "Σ" is "σ".
    expect(foldCase("İSTANBUL")).toBe("istanbul");
    expect(foldCase("ΟΔΟΣ")).toBe("οδοσ");
    expect(foldCase("Straße")).toBe("straße");
  });
});

for (const dialect of testDialects()) {
  describe.skipIf(dialect.unavailable !== null)(
    `case-insensitive text beyond ASCII on ${dialect.name} ${dialect.unavailable ?? ""}`,
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

      it("finds projects by name, path and description search and by name filter", async () => {
        const { namespace } = await createAccount(stores, "anna");
        const aerger = await createProject(stores, namespace.id, "aerger", { name: "Ärger" });
        const uber = await createProject(stores, namespace.id, "uber", {
          name: "Uber",
          description: "ÜBER ALLES, Ελληνικά",
        });
        const arger = await createProject(stores, namespace.id, "arger", { name: "Arger" });
        const istanbul = await createProject(stores, namespace.id, "ist", { name: "İstanbul" });
        const search = async (text: string) =>
          ids((await stores.projects.list({ kind: "all" }, { search: text }, BY_ID, ALL)).items);
        const byName = async (text: string) =>
          ids((await stores.projects.list({ kind: "all" }, { name: text }, BY_ID, ALL)).items);
        expect(await search("ärger")).toEqual([aerger.id]);
        expect(await search("ÄRGER")).toEqual([aerger.id]);
        expect(await search("ÄrG")).toEqual([aerger.id]);
        expect(await search("über")).toEqual([uber.id]);
        expect(await search("ΕΛΛΗΝΙΚΆ")).toEqual([uber.id]);
        expect(await search("ARGER")).toEqual([arger.id]);
        expect(await search("istan")).toEqual([istanbul.id]);
        expect(await search("rger")).toEqual([aerger.id, arger.id]);
        // Wildcards stay literal next to non-ASCII letters.
        expect(await search("ä_ger")).toEqual([]);
        expect(await byName("ÄRG")).toEqual([aerger.id]);
        expect(await byName("ÜBER")).toEqual([]);
      });

      it("keeps project names unique in a namespace ignoring case beyond ASCII", async () => {
        const { namespace } = await createAccount(stores, "bert");
        const other = await createAccount(stores, "carl");
        const project = await createProject(stores, namespace.id, "aerger", { name: "Ärger" });
        expect(await stores.projects.taken(namespace.id, "name", "ÄRGER")).toBe(true);
        expect(await stores.projects.taken(namespace.id, "name", "ärger")).toBe(true);
        expect(await stores.projects.taken(namespace.id, "name", "ärger", project.id)).toBe(false);
        expect(await stores.projects.taken(namespace.id, "name", "Arger")).toBe(false);
        expect(await stores.projects.taken(other.namespace.id, "name", "ärger")).toBe(false);
        // The index says the same when the check is raced.
        await expect(createProject(stores, namespace.id, "aerger2", { name: "ÄRGER" })).rejects.toThrow(
          UniqueViolation,
        );
        await expect(
          createProject(stores, other.namespace.id, "aerger", { name: "ÄRGER" }),
        ).resolves.toBeDefined();
      });

      it("searches users, members and namespaces beyond ASCII", async () => {
        const elodie = await createAccount(stores, "elodie", {
          name: "Élodie Durand",
          email: "élodie@exämple.org",
        });
        const eloise = await createAccount(stores, "eloise", { name: "Eloise" });
        const userSearch = async (text: string, searchEmails = false) =>
          ids((await stores.users.list({ search: text, searchEmails }, ALL)).items);
        expect(await userSearch("ÉLODIE")).toEqual([elodie.user.id]);
        expect(await userSearch("élo")).toEqual([elodie.user.id]);
        expect(await userSearch("ELO")).toEqual([elodie.user.id, eloise.user.id]);
        expect(await userSearch("EXÄMPLE")).toEqual([]);
        expect(await userSearch("EXÄMPLE", true)).toEqual([elodie.user.id]);
        expect((await stores.users.findByEmail("ÉLODIE@EXÄMPLE.ORG"))?.id).toBe(elodie.user.id);

        const group = await createGroup(stores, "team", { name: "Über Team" });
        await stores.groupMembers.add(group.id, elodie.user.id, AccessLevel.DEVELOPER);
        await stores.groupMembers.add(group.id, eloise.user.id, AccessLevel.DEVELOPER);
        const members = await stores.groupMembers.list(group.id, { query: "ÉLODIE" }, ALL);
        expect(members.items.map((member) => member.user.id)).toEqual([elodie.user.id]);
        const namespaces = await stores.namespaces.list({ search: "über" }, ALL);
        expect(namespaces.items.map((ns) => ns.id)).toEqual([group.id]);
      });

      it("keeps emails unique ignoring case beyond ASCII", async () => {
        await createAccount(stores, "dora", { email: "dörte@example.org" });
        await expect(createAccount(stores, "dora2", { email: "DÖRTE@example.org" })).rejects.toThrow(
          UniqueViolation,
        );
      });

      it.skipIf(dialect.name !== "sqlite")(
        "still looks paths and names up through their indexes",
        async () => {
          const plan = async (query: string) => {
            const { rows } = await sql<{ detail: string }>`${sql.raw(`explain query plan ${query}`)}`.execute(
              opened.db,
            );
            return rows.map((row) => row.detail).join("; ");
          };
          expect(
            await plan("select id from projects where namespace_id = 1 and lower(path) = lower('Ä')"),
          ).toMatch(/USING (COVERING )?INDEX projects_namespace_path_unique/);
          expect(
            await plan("select id from projects where namespace_id = 1 and lower(name) = lower('Ä')"),
          ).toMatch(/USING (COVERING )?INDEX projects_namespace_name_unique/);
          expect(await plan("select id from namespaces where lower(path) = lower('Ä')")).toMatch(
            /USING (COVERING )?INDEX namespaces_path_unique/,
          );
          expect(await plan("select id from users where lower(username) = lower('Ä')")).toMatch(
            /USING (COVERING )?INDEX users_username_unique/,
          );
          const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(opened.db);
          expect(rows).toEqual([{ integrity_check: "ok" }]);
        },
      );
    },
  );
}

describe("migration 0005 on a SQLite file indexed with the built-in lower()", () => {
  const dir = mkdtempSync(join(tmpdir(), "kiln-fold-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;

  /** A file migrated to 0004 by a plain connection, with `names` as projects of one namespace. */
  async function oldFile(names: string[], emails: string[] = []): Promise<string> {
    const filename = join(dir, `old-${++n}.sqlite`);
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new BetterSqlite3(filename) }) });
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(
      "0004_protected_branches",
    );
    if (error) throw error;
    const at = "2020-01-01T00:00:00.000Z";
    await sql`insert into users (username, email, name, created_at, updated_at, password_hash, private_token_digest, private_token_sealed)
      values ('olga', 'ÖLGA@example.org', 'Olga', ${at}, ${at}, 'h', 'd', 's')`.execute(db);
    await sql`insert into namespaces (name, path, kind, owner_id, created_at, updated_at)
      values ('olga', 'olga', 'user', 1, ${at}, ${at})`.execute(db);
    for (const [i, email] of emails.entries()) {
      await sql`insert into users (username, email, name, created_at, updated_at, password_hash, private_token_digest, private_token_sealed)
        values (${`u${i}`}, ${email}, 'U', ${at}, ${at}, 'h', ${`d${i}`}, 's')`.execute(db);
    }
    for (const [i, name] of names.entries()) {
      await sql`insert into projects (namespace_id, name, path, runners_token_digest, runners_token_sealed, created_at, updated_at, last_activity_at)
        values (1, ${name}, ${`p${i}`}, ${`d${i}`}, 's', ${at}, ${at}, ${at})`.execute(db);
    }
    await db.destroy();
    return filename;
  }

  it("rebuilds the indexes on lower(), after which lookups find the old rows", async () => {
    const filename = await oldFile(["Ärger", "Über"]);
    const opened = await openDatabase({ kind: "sqlite", filename });
    try {
      expect((await migrateToLatest(opened.db)).applied).toContain("0005_unicode_case_folding");
      const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(opened.db);
      expect(rows).toEqual([{ integrity_check: "ok" }]);
      const stores = new Stores(opened.db);
      expect(await stores.projects.taken(1, "name", "ärger")).toBe(true);
      expect(await stores.projects.taken(1, "name", "ÜBER")).toBe(true);
      expect((await stores.users.findByEmail("ölga@example.org"))?.username).toBe("olga");
    } finally {
      await opened.close();
    }
  });

  it("names the users whose emails became equal ignoring case", async () => {
    const filename = await oldFile([], ["ölga@example.org"]);
    const opened = await openDatabase({ kind: "sqlite", filename });
    try {
      await expect(migrateToLatest(opened.db)).rejects.toThrow(
        /users_email_unique.*user 1 <ÖLGA@example.org>, user 2 <ölga@example.org>\./,
      );
    } finally {
      await opened.close();
    }
  });

  it("names the rows that became equal ignoring case instead of starting", async () => {
    const filename = await oldFile(["Ärger", "ärger", "Other"]);
    const opened = await openDatabase({ kind: "sqlite", filename });
    try {
      await expect(migrateToLatest(opened.db)).rejects.toThrow(
        /projects_namespace_name_unique.*project 1 "Ärger" in namespace 1, project 2 "ärger" in namespace 1\./,
      );
    } finally {
      await opened.close();
    }
  });
});
