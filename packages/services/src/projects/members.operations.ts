import { type AccessLevel, EventAction, invalid, notFound, pageRequest } from "@kiln/domain";
import { ListMembersInput, MAX_PROJECT_MEMBER_LEVEL, MemberRefInput, SetMemberInput } from "@kiln/schemas";
import type { Member } from "@kiln/storage-kysely";
import { UniqueViolation } from "@kiln/storage-kysely";
import { recordDomainEvent } from "../domain-events.js";
import { recordEvent } from "../events.js";
import { teamSystemEvent } from "../hooks/payloads/system.js";
import { mutation, query } from "../operation.js";
import { requireProject } from "./access.js";

function checkProjectLevel(level: AccessLevel): void {
  if (level > MAX_PROJECT_MEMBER_LEVEL) {
    throw invalid({ access_level: ["is not a valid project access level (owners are namespace owners)"] });
  }
}

/** The members of a project: listed by readers, managed by masters and owners. */
export const projectMembers = {
  list: query("signed_in", ListMembersInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "read_project_member");
    return ctx.runtime.stores.projectMembers.list(project.id, { query: input.query }, pageRequest(input));
  }),

  get: query("signed_in", MemberRefInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "read_project_member");
    const member = await ctx.runtime.stores.projectMembers.findMember(project.id, input.user_id);
    if (!member) throw notFound();
    return member;
  }),

  /** Adds a member; an existing membership is left as it is (the v3 call is idempotent). */
  add: mutation("signed_in", SetMemberInput, async (ctx, input) => {
    const { project, namespace } = await requireProject(ctx, input.id, "admin_project_member");
    checkProjectLevel(input.access_level as AccessLevel);
    const { stores } = ctx.runtime;
    const user = await stores.users.findById(input.user_id);
    if (!user) throw notFound("user");
    const existing = await stores.projectMembers.findMember(project.id, input.user_id);
    if (existing) return existing;
    try {
      await stores.transaction(async (tx) => {
        const joined = await tx.projectMembers.add(project.id, user.id, input.access_level as AccessLevel);
        await recordEvent(tx, { projectId: project.id, authorId: user.id, action: EventAction.JOINED });
        const at = { created_at: joined.created_at, updated_at: joined.created_at };
        const added = teamSystemEvent("user_add_to_team", project, namespace, user, joined.access_level, at);
        await recordDomainEvent(tx, added);
      });
    } catch (error) {
      if (!(error instanceof UniqueViolation)) throw error; // added meanwhile: same outcome
    }
    return (await stores.projectMembers.findMember(project.id, input.user_id)) as Member;
  }),

  /** Changes a member's level. */
  update: mutation("signed_in", SetMemberInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_project_member");
    checkProjectLevel(input.access_level as AccessLevel);
    const { stores } = ctx.runtime;
    if (
      !(await stores.projectMembers.setLevel(project.id, input.user_id, input.access_level as AccessLevel))
    ) {
      throw notFound();
    }
    return (await stores.projectMembers.findMember(project.id, input.user_id)) as Member;
  }),

  /**
   * Removes a member (masters and owners; anyone may leave). Removing someone who is not a member
   * counts as success.
   */
  remove: mutation("signed_in", MemberRefInput, async (ctx, input) => {
    const leaving = input.user_id === ctx.actor.user.id;
    const { project, namespace } = await requireProject(
      ctx,
      input.id,
      leaving ? "read_project" : "admin_project_member",
    );
    const { stores } = ctx.runtime;
    const member = await stores.projectMembers.findMember(project.id, input.user_id);
    if (!member) return null;
    await stores.transaction(async (tx) => {
      if (!(await tx.projectMembers.remove(project.id, input.user_id))) return;
      await recordEvent(tx, { projectId: project.id, authorId: input.user_id, action: EventAction.LEFT });
      const { user, membership } = member;
      const at = { created_at: membership.created_at, updated_at: new Date().toISOString() };
      const removed = teamSystemEvent(
        "user_remove_from_team",
        project,
        namespace,
        user,
        membership.access_level,
        at,
      );
      await recordDomainEvent(tx, removed);
    });
    return member;
  }),
};
