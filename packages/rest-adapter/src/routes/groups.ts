import { groupMembers, groups, namespaces } from "@kiln/services";
import {
  presentGroup,
  presentGroupDetail,
  presentGroupMember,
  presentNamespaceItem,
} from "../presenters/groups.js";
import { presentProject } from "../presenters/projects.js";
import { listRoute, type Route, route } from "../route.js";

/** The groups routes: lists, one group, its life, its projects (and transfers into it) and its members. */
export const groupRoutes: Route[] = [
  listRoute({ method: "GET", path: "/groups", operation: groups.list, present: presentGroup }),
  route({ method: "GET", path: "/groups/:id", operation: groups.get, present: presentGroupDetail }),
  route({ method: "POST", path: "/groups", operation: groups.create, present: presentGroupDetail }),
  route({ method: "PUT", path: "/groups/:id", operation: groups.update, present: presentGroupDetail }),
  route({ method: "DELETE", path: "/groups/:id", operation: groups.remove, present: presentGroup }),

  listRoute({
    method: "GET",
    path: "/groups/:id/projects",
    operation: groups.projects,
    present: presentProject,
  }),
  route({
    method: "POST",
    path: "/groups/:id/projects/:project_id",
    operation: groups.transfer,
    present: presentGroupDetail,
  }),

  listRoute({
    method: "GET",
    path: "/groups/:id/members",
    operation: groupMembers.list,
    present: presentGroupMember,
  }),
  route({
    method: "GET",
    path: "/groups/:id/members/:user_id",
    operation: groupMembers.get,
    present: presentGroupMember,
  }),
  route({
    method: "POST",
    path: "/groups/:id/members",
    operation: groupMembers.add,
    present: presentGroupMember,
  }),
  route({
    method: "PUT",
    path: "/groups/:id/members/:user_id",
    operation: groupMembers.update,
    present: presentGroupMember,
  }),
  route({
    method: "DELETE",
    path: "/groups/:id/members/:user_id",
    operation: groupMembers.remove,
    present: presentGroupMember,
  }),
];

/** `GET /namespaces`: the caller's namespace and groups (all of them for administrators). */
export const namespaceRoutes: Route[] = [
  listRoute({
    method: "GET",
    path: "/namespaces",
    operation: namespaces.list,
    present: presentNamespaceItem,
  }),
];
