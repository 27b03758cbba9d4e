import type { Namespace } from "@kiln/domain";
import type { GroupDetailJson, GroupJson, MemberJson, NamespaceListJson } from "@kiln/schemas";
import type { GroupDetail, Member } from "@kiln/services";
import type { PresentContext } from "../route.js";
import { presentMember, presentProject } from "./projects.js";

/** A group as lists (and the delete answer) show it. */
export function presentGroup(group: Namespace, { baseUrl }: PresentContext): GroupJson {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility_level: group.visibility_level,
    avatar_url: null,
    web_url: `${baseUrl}/groups/${group.path}`,
  };
}

/**
 * A group with its projects and the projects shared with it, each as a plain Project (GitLab's
 * GroupDetail exposes them without the caller's permissions).
 */
export function presentGroupDetail(
  { group, projects, sharedProjects }: GroupDetail,
  context: PresentContext,
): GroupDetailJson {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility_level: group.visibility_level,
    avatar_url: null,
    web_url: `${context.baseUrl}/groups/${group.path}`,
    projects: projects.map((view) => presentProject(view, context, false)),
    shared_projects: sharedProjects.map((view) => presentProject(view, context, false)),
  };
}

/** A group member: a team member without the email. */
export function presentGroupMember(member: Member, context: PresentContext): MemberJson {
  return presentMember(member, context, false);
}

/** An item of `GET /namespaces`: `{id, path, kind}`, as GitLab 8.15 answers it. */
export function presentNamespaceItem(namespace: Namespace): NamespaceListJson {
  return { id: namespace.id, path: namespace.path, kind: namespace.kind };
}
