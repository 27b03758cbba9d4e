import {
  canGroup,
  forbidden,
  type Group,
  type GroupAbility,
  type GroupSubject,
  notFound,
  unauthenticated,
} from "@kiln/domain";
import type { GroupRef } from "@kiln/schemas";
import type { Stores } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { groupSubject } from "./subject.js";

/** A group as seen by the caller: the group and the caller's standing in it. */
export interface GroupAccess {
  group: Group;
  subject: GroupSubject;
  /** True when the caller may do this to the group. */
  allows(ability: GroupAbility): boolean;
}

/**
 * Finds a group by id or path, ignoring case, without checking who may see it. A reference in
 * digits is an id: the `GroupRef` schema makes it a number, and bounds it.
 */
export async function findGroup(stores: Stores, ref: GroupRef): Promise<Group | undefined> {
  const namespace =
    typeof ref === "number" ? await stores.namespaces.findById(ref) : await stores.namespaces.findByPath(ref);
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
  if (!group) throw notFound("group");
  const subject = await groupSubject(ctx, group);
  const allows = (wanted: GroupAbility) => canGroup(subject, group.visibility_level, wanted);
  if (!allows("read_group")) throw notFound("group");
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
