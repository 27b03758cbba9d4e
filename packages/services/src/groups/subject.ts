import { AccessLevel, canGroup, type GroupAbility, type Namespace } from "@kiln/domain";
import type { Context } from "../context.js";

/** The caller's standing in a group, for the group permission table. */
export async function groupSubject(ctx: Context, group: Namespace) {
  const user = ctx.actor?.user;
  if (ctx.system)
    return { isAdmin: true, external: false, accessLevel: AccessLevel.OWNER, readsAProject: true };
  if (!user) return { isAdmin: false, external: true, accessLevel: AccessLevel.NONE, readsAProject: false };
  const membership = await ctx.runtime.stores.groupMembers.find(group.id, user.id);
  const accessLevel = membership?.access_level ?? AccessLevel.NONE;
  // Only worth a query when the membership does not already decide.
  const readsAProject =
    accessLevel === AccessLevel.NONE && !user.is_admin
      ? (
          await ctx.runtime.stores.projects.list(
            {
              kind: "namespace",
              namespaceId: group.id,
              viewer: { userId: user.id, external: user.external },
            },
            {},
            { by: "id", direction: "asc" },
            { page: 1, perPage: 1 },
          )
        ).items.length > 0
      : false;
  return { isAdmin: user.is_admin, external: user.external, accessLevel, readsAProject };
}

/** True when the caller may do `ability` to the group. */
export async function groupAllows(ctx: Context, group: Namespace, ability: GroupAbility): Promise<boolean> {
  return canGroup(await groupSubject(ctx, group), group.visibility_level, ability);
}

/** True when the caller may see the group. */
export function groupVisibleTo(ctx: Context, group: Namespace): Promise<boolean> {
  return groupAllows(ctx, group, "read_group");
}
