import { badRequest, creationRights, mapPage, notFound, pageRequest, type User } from "@kiln/domain";
import { CreateUserInput, ListUsersInput, NoInput, UpdateUserInput, UserIdInput } from "@kiln/schemas";
import type { UserPatch } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { recordDomainEvent } from "../domain-events.js";
import { userSystemEvent } from "../hooks/payloads/system.js";
import { acceptingScopes, mutation, query } from "../operation.js";
import { destroyNamespaceProjects } from "../projects/namespace-removal.js";
import { generateToken, tokenDigest } from "../security/tokens.js";
import { removeProjectFiles } from "../storage-files.js";
import { asTaken, ensureAvailable, loadUser, patchUser } from "./accounts.js";
import { privateTokenOf } from "./private-token.js";

/** A user as the caller may see them: administrators see every field, others the public ones. */
export interface UserView {
  user: User;
  /** True when the caller may see private fields (email, sign-in times, limits). */
  full: boolean;
}

const canSeeEverything = (ctx: Context): boolean => ctx.system || Boolean(ctx.actor?.user.is_admin);

async function setState(ctx: Context, id: number, state: User["state"]): Promise<true> {
  const user = await ctx.runtime.stores.users.update(id, { state });
  if (!user) throw notFound("user");
  ctx.runtime.userChanged(id);
  return true;
}

/** The user API: the caller, the directory, and the administrator's account management. */
export const users = {
  /**
   * The signed-in user. Under sudo the private token of the impersonated user comes with it, as
   * GitLab 8.x answers `GET /user?sudo=…`.
   */
  me: acceptingScopes(
    query("signed_in", NoInput, async (ctx) => {
      const { user, sudoBy } = ctx.actor;
      const privateToken = sudoBy ? await privateTokenOf(ctx, user.id) : null;
      return { user, privateToken };
    }),
    ["read_user"],
  ),

  /** One page of users; only administrators may filter by `external` or find users by email. */
  list: query("signed_in", ListUsersInput, async (ctx, input) => {
    const admin = canSeeEverything(ctx);
    const state = input.blocked ? "blocked" : input.active ? "active" : undefined;
    const page = await ctx.runtime.stores.users.list(
      {
        search: input.search,
        searchEmails: admin,
        username: input.username,
        state,
        external: admin ? input.external : undefined,
      },
      pageRequest(input),
    );
    return mapPage(page, (user): UserView => ({ user, full: admin }));
  }),

  /** One user. */
  get: query("signed_in", UserIdInput, async (ctx, input): Promise<UserView> => {
    return { user: await loadUser(ctx.runtime.stores, input.id), full: canSeeEverything(ctx) };
  }),

  /** Creates an account with its personal namespace. */
  create: mutation("admin", CreateUserInput, async (ctx, input) => {
    const { runtime } = ctx;
    const passwordHash = await runtime.passwords.hash(input.password);
    const privateToken = generateToken();
    const settings = await runtime.settings();
    return runtime.stores
      .transaction(async (tx) => {
        await ensureAvailable(tx, input);
        const user = await tx.users.create({
          username: input.username,
          email: input.email,
          name: input.name,
          state: "active",
          is_admin: input.admin ?? false,
          ...creationRights(input.external ?? false, {
            can_create_group: input.can_create_group ?? true,
            projects_limit: input.projects_limit ?? settings.default_projects_limit,
          }),
          external: input.external ?? false,
          bio: input.bio ?? null,
          location: input.location ?? null,
          organization: input.organization ?? null,
          skype: input.skype ?? "",
          linkedin: input.linkedin ?? "",
          twitter: input.twitter ?? "",
          website_url: input.website_url ?? "",
          theme_id: 1,
          color_scheme_id: 1,
          confirmed_at: new Date().toISOString(),
          password_hash: passwordHash,
          private_token_digest: tokenDigest(privateToken),
          private_token_sealed: runtime.secrets.seal(privateToken),
        });
        await tx.namespaces.createForUser(user.id, user.username, user.name);
        await recordDomainEvent(tx, userSystemEvent("user_create", user));
        return user;
      })
      .catch((error: unknown) => asTaken(runtime.stores, error, input));
  }),

  /** Changes an account; a new username moves the personal namespace with it. */
  update: mutation("admin", UpdateUserInput, async (ctx, input) => {
    const { id, password, admin, ...fields } = input;
    if (Object.keys(fields).length === 0 && password === undefined && admin === undefined) {
      throw badRequest({ reason: "no_attributes" });
    }
    const patch: UserPatch = { ...fields };
    if (admin !== undefined) patch.is_admin = admin;
    if (password !== undefined) patch.password_hash = await ctx.runtime.passwords.hash(password);
    return patchUser(ctx, id, patch);
  }),

  /**
   * Deletes an account and everything it owns, the files of its personal projects (uploads and
   * repositories) included; returns what was deleted. Of two deletions at once, the one that
   * removes the row removes the files; the other finds the user gone (404).
   */
  remove: mutation("admin", UserIdInput, async (ctx, input) => {
    const { runtime } = ctx;
    const user = await loadUser(runtime.stores, input.id);
    const projectIds = await runtime.stores.transaction(async (tx) => {
      const namespace = await tx.namespaces.findForUser(user.id);
      const ids = namespace ? await destroyNamespaceProjects(tx, namespace) : [];
      if (!(await tx.users.delete(user.id))) throw notFound("user");
      await recordDomainEvent(tx, userSystemEvent("user_destroy", user));
      return ids;
    });
    runtime.userChanged(user.id);
    for (const projectId of projectIds) await removeProjectFiles(runtime, projectId);
    return user;
  }),

  /** Blocks an account: its tokens and password stop working at once. */
  block: mutation("admin", UserIdInput, (ctx, input) => setState(ctx, input.id, "blocked")),

  /** Unblocks an account. */
  unblock: mutation("admin", UserIdInput, (ctx, input) => setState(ctx, input.id, "active")),
};
