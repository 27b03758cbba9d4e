import type { ProjectJson } from "@kiln/schemas";
import { type ApiRequest, type ApiResponse, createUser, type TestUser } from "@kiln/testkit";
import type { Served } from "../support.js";
import {
  DEVELOPER,
  GUEST,
  MASTER,
  REPORTER,
  ROLES,
  type Role,
  VISIBILITIES,
  type Visibility,
} from "./rules.js";

/**
 * Where a fixture project lives and where its members' access comes from: the owner's personal
 * namespace with project members, a group with group members, or the owner's personal namespace
 * shared with a group of the members (at most master through the share).
 */
export type Source = "personal" | "group" | "shared";
export const SOURCES: readonly Source[] = ["personal", "group", "shared"];

/** A group as the matrix uses it. */
export interface MatrixGroup {
  id: number;
  path: string;
  visibility: Visibility;
}

/** The users, projects and groups every cell of the matrix works on. */
export interface Cast {
  users: Record<Exclude<Role, "anonymous">, TestUser>;
  /** A guest member of every fixture project and group: the target of member reads, edits and removals. */
  victim: TestUser;
  /** A user in nothing, who may create neither projects nor groups: the target of member additions. */
  newbie: TestUser;
  /** The fixture projects (named `mxfix-<source>-<visibility>`), one per source and visibility. */
  projects: Record<Source, Record<Visibility, ProjectJson>>;
  /** The fixture groups (`mxg-<visibility>`), each holding its fixture project and `inner`. */
  groups: Record<Visibility, MatrixGroup>;
  /** A private project (`mxfix-inner-<visibility>`) of each fixture group whose only own member is `projmember`. */
  inner: Record<Visibility, ProjectJson>;
  /** A public group where fresh group projects are made, with the same members as the fixture groups. */
  freshGroup: MatrixGroup;
  /** A public group of root's, which projects are shared with. */
  shareGroup: MatrixGroup;
  /** A private group of root's with the members of the shared fixture projects. */
  membersGroup: MatrixGroup;
  /** A private group of root's with no other member: no one of the cast but `admin` may read it. */
  secretGroup: MatrixGroup;
  /** A public project of root's, the source of fork relations. */
  forkSource: ProjectJson;
  /** A hook of each fixture project, by project id. */
  hooks: Map<number, number>;
}

/** The roles that are members, at the level each holds. */
export const MEMBER_LEVELS = [
  ["master", MASTER],
  ["developer", DEVELOPER],
  ["reporter", REPORTER],
  ["guest", GUEST],
  ["extguest", GUEST],
] as const;

let counter = 0;
/** A name no other fixture uses (fresh fixtures never contain `mxfix`, `mxstar` or `mxg-`). */
export const freshName = (kind: string) => `mxnew-${kind}-${++counter}`;

/** Requests that build the cast and fresh fixtures, each checked for the status it must answer. */
export class Builder {
  constructor(private readonly served: Served) {}

  /** Sends a request and fails unless it answers one of `statuses`. */
  async must<T>(statuses: number[], request: ApiRequest): Promise<ApiResponse<T>> {
    const res = await this.served.api<T>(request);
    if (!statuses.includes(res.status)) {
      throw new Error(
        `${request.method ?? "GET"} ${request.path} answered ${res.status}, not ${statuses}: ${res.text}`,
      );
    }
    return res;
  }

  /** The same request as root. */
  asRoot<T>(statuses: number[], request: Omit<ApiRequest, "token">): Promise<ApiResponse<T>> {
    return this.must<T>(statuses, { ...request, token: this.served.root.token });
  }

  async user(username: string, extra: Record<string, unknown>): Promise<TestUser> {
    return createUser(this.served.server, this.served.root, username, extra);
  }

  async project(by: TestUser, name: string, visibility: Visibility, namespaceId?: number) {
    const json: Record<string, unknown> = { name, visibility_level: visibility };
    if (namespaceId !== undefined) json["namespace_id"] = namespaceId;
    return (await this.must<ProjectJson>([201], { method: "POST", path: "/projects", token: by.token, json }))
      .body;
  }

  async group(by: TestUser, path: string, visibility: Visibility): Promise<MatrixGroup> {
    const res = await this.must<{ id: number }>([201], {
      method: "POST",
      path: "/groups",
      token: by.token,
      json: { name: `Matrix ${path}`, path, visibility_level: visibility },
    });
    return { id: res.body.id, path, visibility };
  }

  async addProjectMember(projectId: number, user: TestUser, level: number) {
    await this.asRoot([201], {
      method: "POST",
      path: `/projects/${projectId}/members`,
      json: { user_id: user.id, access_level: level },
    });
  }

  async addGroupMember(groupId: number, user: TestUser, level: number) {
    await this.asRoot([201], {
      method: "POST",
      path: `/groups/${groupId}/members`,
      json: { user_id: user.id, access_level: level },
    });
  }

  /** Shares a project with a group, its members capped at master. */
  async share(projectId: number, groupId: number) {
    await this.asRoot([201], {
      method: "POST",
      path: `/projects/${projectId}/share`,
      json: { group_id: groupId, group_access: MASTER },
    });
  }

  async hook(projectId: number): Promise<number> {
    const res = await this.asRoot<{ id: number }>([201], {
      method: "POST",
      path: `/projects/${projectId}/hooks`,
      json: { url: "http://hooks.example.com/matrix" },
    });
    return res.body.id;
  }
}

/** Creates the users, groups and projects of the matrix on the suite's server. */
export async function createCast(served: Served): Promise<Cast> {
  const build = new Builder(served);
  const plenty = { projects_limit: 100_000 };
  const roles = ROLES.filter((role): role is Exclude<Role, "anonymous"> => role !== "anonymous");
  const made = await Promise.all([
    ...roles.map((role) =>
      build.user(`mx-${role}`, {
        ...plenty,
        ...(role === "admin" ? { admin: true } : {}),
        ...(role === "external" || role === "extguest" ? { external: true } : {}),
      }),
    ),
    build.user("mx-victim", plenty),
    build.user("mx-newbie", { projects_limit: 0, can_create_group: false }),
  ]);
  const users = Object.fromEntries(roles.map((role, index) => [role, made[index]])) as Cast["users"];
  const victim = made[roles.length] as TestUser;
  const newbie = made[roles.length + 1] as TestUser;
  const { owner } = users;

  /** Gives a group the cast's members: master..guest, the blocked user (a master) and the victim. */
  const staffGroup = async (group: MatrixGroup) => {
    for (const [role, level] of MEMBER_LEVELS) await build.addGroupMember(group.id, users[role], level);
    await build.addGroupMember(group.id, users.blocked, MASTER);
    await build.addGroupMember(group.id, victim, GUEST);
  };

  const rootUser = served.root;
  const membersGroup = await build.group(rootUser, "mxmembers", 0);
  await staffGroup(membersGroup);

  const groups = {} as Record<Visibility, MatrixGroup>;
  const inner = {} as Record<Visibility, ProjectJson>;
  const projects = { personal: {}, group: {}, shared: {} } as Cast["projects"];
  const hooks = new Map<number, number>();
  await Promise.all(
    VISIBILITIES.map(async (visibility) => {
      const group = await build.group(owner, `mxg-${visibility}`, visibility);
      groups[visibility] = group;
      await staffGroup(group);
      const innerProject = await build.project(owner, `mxfix-inner-${visibility}`, 0, group.id);
      await build.addProjectMember(innerProject.id, users.projmember, GUEST);
      inner[visibility] = innerProject;

      const personal = await build.project(owner, `mxfix-personal-${visibility}`, visibility);
      for (const [role, level] of MEMBER_LEVELS)
        await build.addProjectMember(personal.id, users[role], level);
      await build.addProjectMember(personal.id, users.blocked, MASTER);
      await build.addProjectMember(personal.id, victim, GUEST);
      projects.personal[visibility] = personal;

      const inGroup = await build.project(owner, `mxfix-group-${visibility}`, visibility, group.id);
      await build.addProjectMember(inGroup.id, victim, GUEST);
      projects.group[visibility] = inGroup;

      const shared = await build.project(owner, `mxfix-shared-${visibility}`, visibility);
      await build.share(shared.id, membersGroup.id);
      await build.addProjectMember(shared.id, victim, GUEST);
      projects.shared[visibility] = shared;

      for (const project of [personal, inGroup, shared]) hooks.set(project.id, await build.hook(project.id));
    }),
  );
  const freshGroup = await build.group(owner, "mxfresh", 20);
  await staffGroup(freshGroup);
  const shareGroup = await build.group(rootUser, "mxshare", 20);
  const secretGroup = await build.group(rootUser, "mxsecret", 0);
  const forkSource = await build.project(rootUser, "mxsource", 20);

  await build.asRoot([200], { method: "PUT", path: `/users/${users.blocked.id}/block` });
  return {
    users,
    victim,
    newbie,
    projects,
    groups,
    inner,
    freshGroup,
    shareGroup,
    membersGroup,
    secretGroup,
    forkSource,
    hooks,
  };
}

/**
 * Fresh fixtures for cells that change what they act on (delete, archive, rename, leave...), with
 * the same memberships as the fixtures of their kind.
 */
export class Fresh {
  private readonly build: Builder;

  constructor(
    served: Served,
    private readonly cast: Cast,
  ) {
    this.build = new Builder(served);
  }

  /**
   * A new project of `visibility`: personal ones get master..guest as project members; group
   * ones live in the public `mxfresh` group, whose members they are; shared ones are shared with
   * the group of the members.
   */
  async project(source: Source, visibility: Visibility): Promise<ProjectJson> {
    const { users, freshGroup, membersGroup } = this.cast;
    if (source === "group") {
      return this.build.project(users.owner, freshName("p"), visibility, freshGroup.id);
    }
    const project = await this.build.project(users.owner, freshName("p"), visibility);
    if (source === "shared") {
      await this.build.share(project.id, membersGroup.id);
      return project;
    }
    for (const [role, level] of MEMBER_LEVELS)
      await this.build.addProjectMember(project.id, users[role], level);
    return project;
  }

  /** A new group of `visibility` with master..guest as members and a private project of `projmember`'s. */
  async group(visibility: Visibility): Promise<MatrixGroup> {
    const { users } = this.cast;
    const group = await this.build.group(users.owner, freshName("g"), visibility);
    for (const [role, level] of MEMBER_LEVELS) await this.build.addGroupMember(group.id, users[role], level);
    const project = await this.build.project(users.owner, freshName("p"), 0, group.id);
    await this.build.addProjectMember(project.id, users.projmember, GUEST);
    return group;
  }
}
