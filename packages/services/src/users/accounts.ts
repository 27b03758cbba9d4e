import { conflict, creationRights, notFound, type User } from "@kiln/domain";
import { type Stores, UniqueViolation, type UserPatch } from "@kiln/storage-kysely";
import type { Context } from "../context.js";

// The account writes shared by the administrators' user operations and a user's own account page.

/** The user with this id; 404 User when there is none. */
export async function loadUser(stores: Stores, id: number): Promise<User> {
  const user = await stores.users.findById(id);
  if (!user) throw notFound("user");
  return user;
}

/** Refuses a username or email already in use by someone else (usernames share the namespace path space). */
export async function ensureAvailable(
  stores: Stores,
  fields: { username?: string | undefined; email?: string | undefined },
  self?: User,
): Promise<void> {
  if (fields.username !== undefined && fields.username.toLowerCase() !== self?.username.toLowerCase()) {
    const ownNamespace = self ? await stores.namespaces.findForUser(self.id) : undefined;
    if (await stores.namespaces.pathTaken(fields.username, ownNamespace?.id)) {
      throw conflict({ reason: "username_taken" });
    }
  }
  if (fields.email !== undefined) {
    const holder = await stores.users.findByEmail(fields.email);
    if (holder && holder.id !== self?.id) throw conflict({ reason: "email_taken" });
  }
}

/**
 * Rethrows a unique violation of a write that raced another (two creations of one username at
 * once on PostgreSQL both pass {@link ensureAvailable} before either commits) as the conflict
 * that check answers now that the winner has committed.
 */
export async function asTaken(
  stores: Stores,
  error: unknown,
  fields: Parameters<typeof ensureAvailable>[1],
): Promise<never> {
  if (error instanceof UniqueViolation) await ensureAvailable(stores, fields);
  throw error;
}

/**
 * Applies a patch to an account, refusing a username or email someone else has; a new username or
 * name moves the personal namespace with it.
 */
export async function patchUser(ctx: Context, id: number, patch: UserPatch): Promise<User> {
  const { runtime } = ctx;
  const updated = await runtime.stores.transaction(async (tx) => {
    const current = await loadUser(tx, id);
    await ensureAvailable(tx, patch, current);
    if (patch.external ?? current.external) Object.assign(patch, creationRights(true, current));
    const user = await tx.users.update(id, patch);
    if (!user) throw notFound("user");
    if (user.username !== current.username || user.name !== current.name) {
      await tx.namespaces.renameForUser(id, user.username, user.name);
    }
    return user;
  });
  runtime.userChanged(id);
  return updated;
}
