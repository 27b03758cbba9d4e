import { AccessLevel, conflict, forbidden, type Membership, notFound, pageRequest } from "@kiln/domain";
import { GroupMemberRefInput, ListGroupMembersInput, SetGroupMemberInput } from "@kiln/schemas";
import { type Member, type Stores, UniqueViolation } from "@kiln/storage-kysely";
import { recordDomainEvent } from "../domain-events.js";
import { groupMemberSystemEvent } from "../hooks/payloads/system.js";
import { mutation, query } from "../operation.js";
import { requireGroup } from "./access.js";

const memberExists = () => conflict({ reason: "member_exists" });

/**
 * Loads a member inside a transaction that holds the group's lock, and refuses to take away the
 * group's last owner: every change that could do so runs through here, one at a time per group.
 */
async function changeableMember(
  tx: Stores,
  groupId: number,
  userId: number,
  newLevel: AccessLevel | null,
): Promise<Membership> {
  await tx.namespaces.lock(groupId);
  const membership = await tx.groupMembers.find(groupId, userId);
  if (!membership) throw notFound("member");
  const losesOwnership =
    membership.access_level === AccessLevel.OWNER && (newLevel === null || newLevel < AccessLevel.OWNER);
  if (losesOwnership && (await tx.groupMembers.countAtLevel(groupId, AccessLevel.OWNER)) <= 1) {
    throw forbidden({ reason: "last_owner" });
  }
  return membership;
}

/** The members of a group: listed by whoever may read the group, managed by its owners. */
export const groupMembers = {
  /** One page of members by user id; `query` matches username or name. */
  list: query("signed_in", ListGroupMembersInput, async (ctx, input) => {
    const { group } = await requireGroup(ctx, input.id, "read_group_member");
    return ctx.runtime.stores.groupMembers.list(group.id, { query: input.query }, pageRequest(input));
  }),

  /** One member. */
  get: query("signed_in", GroupMemberRefInput, async (ctx, input) => {
    const { group } = await requireGroup(ctx, input.id, "read_group_member");
    const member = await ctx.runtime.stores.groupMembers.findMember(group.id, input.user_id);
    if (!member) throw notFound("member");
    return member;
  }),

  /** Adds a member at any level from guest to owner (owners); 409 when they are a member already. */
  add: mutation("signed_in", SetGroupMemberInput, async (ctx, input) => {
    const { group } = await requireGroup(ctx, input.id, "admin_group_member");
    const { stores } = ctx.runtime;
    const user = await stores.users.findById(input.user_id);
    if (!user) throw notFound("user");
    if (await stores.groupMembers.find(group.id, user.id)) throw memberExists();
    try {
      await stores.transaction(async (tx) => {
        const joined = await tx.groupMembers.add(group.id, user.id, input.access_level as AccessLevel);
        const at = { created_at: joined.created_at, updated_at: joined.created_at };
        await recordDomainEvent(
          tx,
          groupMemberSystemEvent("user_add_to_group", group, user, joined.access_level, at),
        );
      });
    } catch (error) {
      if (error instanceof UniqueViolation) throw memberExists();
      throw error;
    }
    return (await stores.groupMembers.findMember(group.id, input.user_id)) as Member;
  }),

  /** Changes a member's level (owners); the last owner cannot be demoted. */
  update: mutation("signed_in", SetGroupMemberInput, async (ctx, input) => {
    const { group } = await requireGroup(ctx, input.id, "admin_group_member");
    const level = input.access_level as AccessLevel;
    const { stores } = ctx.runtime;
    await stores.transaction(async (tx) => {
      await changeableMember(tx, group.id, input.user_id, level);
      await tx.groupMembers.setLevel(group.id, input.user_id, level);
    });
    return (await stores.groupMembers.findMember(group.id, input.user_id)) as Member;
  }),

  /** Removes a member (owners; any member may leave); the last owner cannot go. Answers the removed member. */
  remove: mutation("signed_in", GroupMemberRefInput, async (ctx, input) => {
    const leaving = input.user_id === ctx.actor.user.id;
    const { group } = await requireGroup(ctx, input.id, leaving ? "read_group" : "admin_group_member");
    const { stores } = ctx.runtime;
    const member = await stores.groupMembers.findMember(group.id, input.user_id);
    if (!member) throw notFound("member");
    await stores.transaction(async (tx) => {
      const membership = await changeableMember(tx, group.id, input.user_id, null);
      await tx.groupMembers.remove(group.id, input.user_id);
      const at = { created_at: membership.created_at, updated_at: new Date().toISOString() };
      const removed = groupMemberSystemEvent(
        "user_remove_from_group",
        group,
        member.user,
        membership.access_level,
        at,
      );
      await recordDomainEvent(tx, removed);
    });
    return member;
  }),
};
