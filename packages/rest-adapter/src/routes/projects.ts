import { projectLinks, projectMembers, projects } from "@kiln/services";
import { presentEvent, presentMember, presentProject } from "../presenters/projects.js";
import { listRoute, type Route, route } from "../route.js";

const withAccess = presentProject;
/** GitLab's plain Project entity: no permissions, no runners token, whoever asks. */
const plain = (view: Parameters<typeof presentProject>[0], context: Parameters<typeof presentProject>[1]) =>
  presentProject(view, context, false);
const asIs = <T>(value: T) => value;

/** The projects routes: lists, one project, its stars, archive, forks, shares, members and events. */
export const projectRoutes: Route[] = [
  listRoute({ method: "GET", path: "/projects", operation: projects.list, present: withAccess }),
  listRoute({ method: "GET", path: "/projects/visible", operation: projects.visible, present: withAccess }),
  listRoute({ method: "GET", path: "/projects/owned", operation: projects.owned, present: withAccess }),
  listRoute({ method: "GET", path: "/projects/starred", operation: projects.starred, present: plain }),
  listRoute({ method: "GET", path: "/projects/all", operation: projects.all, present: withAccess }),
  listRoute({ method: "GET", path: "/projects/search/:query", operation: projects.search, present: plain }),
  route({ method: "GET", path: "/projects/:id", operation: projects.get, present: withAccess }),
  route({ method: "POST", path: "/projects", operation: projects.create, present: withAccess }),
  route({
    method: "POST",
    path: "/projects/user/:user_id",
    operation: projects.createForUser,
    present: withAccess,
  }),
  route({ method: "PUT", path: "/projects/:id", operation: projects.update, present: withAccess }),
  route({ method: "DELETE", path: "/projects/:id", operation: projects.remove, present: asIs }),
  route({ method: "POST", path: "/projects/:id/star", operation: projects.star, present: plain }),
  route({ method: "DELETE", path: "/projects/:id/star", operation: projects.unstar, present: plain }),
  route({ method: "POST", path: "/projects/:id/archive", operation: projects.archive, present: withAccess }),
  route({
    method: "POST",
    path: "/projects/:id/unarchive",
    operation: projects.unarchive,
    present: withAccess,
  }),
  listRoute({
    method: "GET",
    path: "/projects/:id/events",
    operation: projects.events,
    present: presentEvent,
  }),

  route({ method: "POST", path: "/projects/fork/:id", operation: projectLinks.fork, present: withAccess }),
  route({
    method: "POST",
    path: "/projects/:id/fork/:forked_from_id",
    operation: projectLinks.linkFork,
    present: withAccess,
  }),
  route({
    method: "DELETE",
    path: "/projects/:id/fork",
    operation: projectLinks.unlinkFork,
    present: withAccess,
  }),
  route({ method: "POST", path: "/projects/:id/share", operation: projectLinks.share, present: asIs }),
  route({
    method: "DELETE",
    path: "/projects/:id/share/:group_id",
    operation: projectLinks.unshare,
    status: 204,
    present: () => undefined,
  }),

  listRoute({
    method: "GET",
    path: "/projects/:id/members",
    operation: projectMembers.list,
    present: presentMember,
  }),
  route({
    method: "GET",
    path: "/projects/:id/members/:user_id",
    operation: projectMembers.get,
    present: presentMember,
  }),
  route({
    method: "POST",
    path: "/projects/:id/members",
    operation: projectMembers.add,
    present: presentMember,
  }),
  route({
    method: "PUT",
    path: "/projects/:id/members/:user_id",
    operation: projectMembers.update,
    present: presentMember,
  }),
  route({
    method: "DELETE",
    path: "/projects/:id/members/:user_id",
    operation: projectMembers.remove,
    present: (member, context) => (member ? presentMember(member, context) : {}),
  }),
];
