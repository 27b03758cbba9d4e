import type { ProjectJson } from "@kiln/schemas";
import { createUser, type TestUser } from "@kiln/testkit";
import { expect } from "vitest";
import type { Served } from "./support.js";

/** Everyone whose rights on a project differ: its owner, a member at each level, an outsider and an administrator. */
export const ROLES = ["owner", "master", "developer", "reporter", "guest", "outsider", "admin"] as const;

/** One of {@link ROLES}. */
export type Role = (typeof ROLES)[number];

/** The access level each member role is given. */
const MEMBER_LEVELS = { master: 40, developer: 30, reporter: 20, guest: 10 } as const;

/** A private and a public project of `owner`, each with a member at every level. */
export interface RoleCast {
  people: Record<Role, TestUser>;
  private: ProjectJson;
  public: ProjectJson;
}

/**
 * Creates the cast over HTTP. Usernames start with `prefix` so that several suites can share a
 * server; the projects are named `<prefix>-private` and `<prefix>-public`.
 */
export async function createRoleCast(served: Served, prefix: string): Promise<RoleCast> {
  const make = (role: Role) =>
    createUser(served.server, served.root, `${prefix}-${role}`, role === "admin" ? { admin: true } : {});
  const people = {} as Record<Role, TestUser>;
  for (const role of ROLES) people[role] = await make(role);
  const project = async (visibility_level: number, suffix: string) => {
    const res = await served.api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: people.owner.token,
      json: { name: `${prefix}-${suffix}`, visibility_level },
    });
    expect(res.status).toBe(201);
    for (const [role, access_level] of Object.entries(MEMBER_LEVELS)) {
      const added = await served.api({
        method: "POST",
        path: `/projects/${res.body.id}/members`,
        token: people.owner.token,
        json: { user_id: people[role as Role].id, access_level },
      });
      expect(added.status).toBe(201);
    }
    return res.body;
  };
  return { people, private: await project(0, "private"), public: await project(20, "public") };
}
