// Seeds a data dir that the real server has initialised (database, root, secret key) with more users,
// written the way `users.create` writes them but in one transaction and without hashing each password.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateToken, ServiceRuntime, tokenDigest } from "@kiln/services";
import { openDatabase, Stores } from "@kiln/storage-kysely";

/**
 * Adds `count` users (`user00001`…) with their personal namespaces. Every user gets a unique private
 * token (stored as its digest, and sealed under the data dir's key so `POST /session` can return it)
 * and root's argon2 hash, so they all share root's password: one hash instead of 10,000.
 */
export async function seedUsers(dataDir, count) {
  const secretKey = Buffer.from(readFileSync(join(dataDir, "secret.key"), "utf8").trim(), "base64");
  // NORMAL: the seed is one transaction; durability of the fixture does not matter.
  const database = await openDatabase({
    kind: "sqlite",
    filename: join(dataDir, "kiln.sqlite"),
    synchronous: "NORMAL",
  });
  try {
    const stores = new Stores(database.db);
    const runtime = new ServiceRuntime({ stores, secretKey, singleProcess: true, dataDir });
    const root = await stores.users.findByUsername("root");
    const passwordHash = root && (await stores.users.passwordHash(root.id));
    if (!passwordHash) throw new Error("seed: the server did not create root");
    const { default_projects_limit: projectsLimit } = await runtime.settings();
    await stores.transaction(async (tx) => {
      for (let i = 1; i <= count; i++) {
        const username = `user${String(i).padStart(5, "0")}`;
        const token = generateToken();
        const user = await tx.users.create({
          username,
          email: `${username}@example.com`,
          name: `Bench User ${i}`,
          state: "active",
          is_admin: false,
          can_create_group: true,
          projects_limit: projectsLimit,
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
          confirmed_at: new Date().toISOString(),
          password_hash: passwordHash,
          private_token_digest: tokenDigest(token),
          private_token_sealed: runtime.secrets.seal(token),
        });
        await tx.namespaces.createForUser(user.id, user.username, user.name);
      }
    });
    const total = await database.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    return Number(total.n);
  } finally {
    await database.close();
  }
}
