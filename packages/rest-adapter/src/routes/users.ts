import { sshKeys, type UserView, users } from "@kiln/services";
import {
  presentSshKey,
  presentUser,
  presentUserBasic,
  presentUserPublic,
  presentUserWithPrivateToken,
} from "../presenters/users.js";
import { listRoute, type PresentContext, type Route, route } from "../route.js";

const asIs = <T>(value: T) => value;

const presentListedUser = ({ user, full }: UserView, context: PresentContext) =>
  full ? presentUserPublic(user, context) : presentUserBasic(user, context);

/** The users, keys and session routes. */
export const userRoutes: Route[] = [
  route({
    method: "GET",
    path: "/user",
    operation: users.me,
    present: ({ user, privateToken }, context) =>
      privateToken
        ? presentUserWithPrivateToken(user, privateToken, context)
        : presentUserPublic(user, context),
  }),
  listRoute({
    method: "GET",
    path: "/users",
    operation: users.list,
    present: presentListedUser,
  }),
  route({
    method: "GET",
    path: "/users/:id",
    operation: users.get,
    present: ({ user, full }, context) =>
      full ? presentUserPublic(user, context) : presentUser(user, context),
  }),
  route({
    method: "POST",
    path: "/users",
    operation: users.create,
    present: presentUserPublic,
  }),
  route({
    method: "PUT",
    path: "/users/:id",
    operation: users.update,
    present: presentUserPublic,
  }),
  route({
    method: "DELETE",
    path: "/users/:id",
    operation: users.remove,
    present: presentUserPublic,
  }),
  route({
    method: "PUT",
    path: "/users/:id/block",
    operation: users.block,
    present: asIs,
  }),
  route({
    method: "PUT",
    path: "/users/:id/unblock",
    operation: users.unblock,
    present: asIs,
  }),

  route({
    method: "GET",
    path: "/user/keys",
    operation: sshKeys.listMine,
    present: (keys) => keys.map(presentSshKey),
  }),
  route({
    method: "GET",
    path: "/user/keys/:key_id",
    operation: sshKeys.getMine,
    present: presentSshKey,
  }),
  route({
    method: "POST",
    path: "/user/keys",
    operation: sshKeys.addMine,
    present: presentSshKey,
  }),
  route({
    method: "DELETE",
    path: "/user/keys/:key_id",
    operation: sshKeys.removeMine,
    present: presentSshKey,
  }),
  route({
    method: "GET",
    path: "/users/:id/keys",
    operation: sshKeys.listFor,
    present: (keys) => keys.map(presentSshKey),
  }),
  route({
    method: "POST",
    path: "/users/:id/keys",
    operation: sshKeys.addFor,
    present: presentSshKey,
  }),
  route({
    method: "DELETE",
    path: "/users/:id/keys/:key_id",
    operation: sshKeys.removeFor,
    present: presentSshKey,
  }),
];
