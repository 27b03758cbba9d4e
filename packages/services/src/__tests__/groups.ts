import { AccessLevel, type Group, type User, type Visibility } from "@kiln/domain";
import type { Harness } from "./harness.js";

/** The member levels below owner, by the name each team member gets. */
export const MEMBER_LEVELS = {
  guest: AccessLevel.GUEST,
  reporter: AccessLevel.REPORTER,
  developer: AccessLevel.DEVELOPER,
  master: AccessLevel.MASTER,
} as const;

/** A group with an owner, a member at each lower level, an administrator, and two non-members. */
export interface GroupTeam {
  group: Group;
  owner: User;
  guest: User;
  reporter: User;
  developer: User;
  master: User;
  admin: User;
  stranger: User;
  /** A non-member who only sees public things. */
  external: User;
}

/** Creates a group of the given visibility, owned by `owner`, with a member at every other level. */
export async function groupTeam(h: Harness, visibility: Visibility, path = "team"): Promise<GroupTeam> {
  const owner = await h.user("owner");
  const { group } = await h
    .as(owner)
    .groups.create({ name: "The Team", path, description: "builds", visibility_level: visibility });
  const members = {} as Record<keyof typeof MEMBER_LEVELS, User>;
  for (const [name, level] of Object.entries(MEMBER_LEVELS) as [keyof typeof MEMBER_LEVELS, AccessLevel][]) {
    members[name] = await h.user(name);
    await h.as(owner).groupMembers.add({ id: group.id, user_id: members[name].id, access_level: level });
  }
  const external = await h.system.users.create({
    username: "external",
    email: "external@example.com",
    name: "external",
    password: "password123",
    external: true,
  });
  return {
    group,
    owner,
    ...members,
    admin: await h.user("boss", { admin: true }),
    stranger: await h.user("stranger"),
    external,
  };
}

/** Everyone of a team who belongs to the group, at every level. */
export const membersOf = (team: GroupTeam): User[] => [
  team.owner,
  team.guest,
  team.reporter,
  team.developer,
  team.master,
];

/** Creates a project in a namespace, as `creator`. */
export async function projectIn(
  h: Harness,
  creator: User,
  namespaceId: number,
  name: string,
  extra: { visibility_level?: Visibility; builds_enabled?: boolean } = {},
) {
  return (await h.as(creator).projects.create({ name, namespace_id: namespaceId, ...extra })).project;
}
