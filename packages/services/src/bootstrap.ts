import { createCaller } from "./router.js";
import type { ServiceRuntime } from "./runtime.js";
import { generateToken } from "./security/tokens.js";

/** What first start did about the administrator account. */
export type RootBootstrap =
  | { created: false }
  /** `generatedPassword` is set when no password was configured: show it once. */
  | { created: true; generatedPassword: string | null };

/**
 * On an empty database, creates the administrator `root` (name "Administrator",
 * admin@example.com) with the configured password, or a generated one. Any later start leaves
 * the accounts alone. Several processes may start at once on one empty database: one of them
 * creates root, the others report `created: false`.
 */
export async function ensureRootUser(
  runtime: ServiceRuntime,
  password: string | undefined,
): Promise<RootBootstrap> {
  if (await runtime.stores.users.any()) return { created: false };
  const generatedPassword = password === undefined ? generateToken(24) : null;
  const system = createCaller({ runtime, actor: null, system: true });
  try {
    await system.users.create({
      username: "root",
      name: "Administrator",
      email: "admin@example.com",
      password: password ?? (generatedPassword as string),
      admin: true,
      can_create_group: true,
    });
  } catch (error) {
    // Another start created the account between the check above and this one's write (its
    // username taken, or a unique index refusing the row): the administrator exists.
    if (await runtime.stores.users.any()) return { created: false };
    throw error;
  }
  return { created: true, generatedPassword };
}
