import {
  canGroup,
  forbidden,
  type Group,
  type GroupAbility,
  type GroupSubject,
  notFound,
  unauthenticated,
} from "@kiln/domain";
import type { Stores } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { groupSubject } from "../operations/groups-access.js";

/** A group as seen by the caller: the group and the caller's standing in it. */
export interface GroupAccess {
  group: Group;
  subject: GroupSubject;
  /** True when the caller may do this to the group. */
  allows(ability: GroupAbility): boolean;
}

/** Finds a group by id (digits) or path, ignoring case, without checking who may see it. */
export async function findGroup(stores: Stores, ref: number | string): Promise<Group | undefined> {
  const namespace =
    typeof ref === "number" || /^\d+$/.test(ref)
      ? await stores.namespaces.findById(Number(ref))
      : await stores.namespaces.findByPath(ref);
  return namespace?.kind === "group" ? (namespace as Group) : undefined;
}

/**
 * The group named by `ref`, if the caller may read it, checked for `ability`. A group the caller
 * may not read is `404 Group Not Found`, exactly like a missing one; one they may read but not act
 * on is 403.
 */
export async function requireGroup(
  ctx: Context,
  ref: number | string,
  ability: GroupAbility = "read_group",
): Promise<GroupAccess> {
  const group = await findGroup(ctx.runtime.stores, ref);
  if (!group) throw notFound("Group");
  const subject = await groupSubject(ctx, group);
  const allows = (wanted: GroupAbility) => canGroup(subject, group.visibility_level, wanted);
  if (!allows("read_group")) throw notFound("Group");
  if (!allows(ability)) throw forbidden();
  return { group, subject, allows };
}

/** Whom project lists should be filtered for: the signed-in caller, or null for administrators. */
export function projectViewer(ctx: Context): { userId: number; external: boolean } | null {
  if (ctx.system) return null;
  const user = ctx.actor?.user;
  if (!user) throw unauthenticated();
  return user.is_admin ? null : { userId: user.id, external: user.external };
}
