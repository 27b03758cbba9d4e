import {
  AddSshKeyInput,
  CreateUserInput,
  ListUsersInput,
  SshKeyIdInput,
  UpdateUserInput,
  UserIdInput,
} from "@kiln/schemas";
import { invoke, sshKeys, type UserView, users } from "@kiln/services";
import { z } from "zod";
import {
  presentSshKey,
  presentUser,
  presentUserBasic,
  presentUserPublic,
  presentUserWithPrivateToken,
} from "../presenters/users.js";
import { listRoute, type PresentContext, type Route, route } from "../route.js";

const NoParams = z.object({});
const asIs = <T>(value: T) => value;

const presentListedUser = ({ user, full }: UserView, context: PresentContext) =>
  full ? presentUserPublic(user, context) : presentUserBasic(user, context);

/** The users, keys and session routes. */
export const userRoutes: Route[] = [
  route({
    method: "GET",
    path: "/user",
    params: NoParams,
    call: (ctx) => invoke(users.me, ctx, {}),
    present: ({ user, privateToken }, context) =>
      privateToken
        ? presentUserWithPrivateToken(user, privateToken, context)
        : presentUserPublic(user, context),
  }),
  listRoute({
    method: "GET",
    path: "/users",
    params: ListUsersInput,
    call: (ctx, input) => invoke(users.list, ctx, input),
    present: presentListedUser,
  }),
  route({
    method: "GET",
    path: "/users/:id",
    params: UserIdInput,
    call: (ctx, input) => invoke(users.get, ctx, input),
    present: ({ user, full }, context) =>
      full ? presentUserPublic(user, context) : presentUser(user, context),
  }),
  route({
    method: "POST",
    path: "/users",
    params: CreateUserInput,
    call: (ctx, input) => invoke(users.create, ctx, input),
    present: presentUserPublic,
  }),
  route({
    method: "PUT",
    path: "/users/:id",
    params: UpdateUserInput,
    call: (ctx, input) => invoke(users.update, ctx, input),
    present: presentUserPublic,
  }),
  route({
    method: "DELETE",
    path: "/users/:id",
    params: UserIdInput,
    call: (ctx, input) => invoke(users.remove, ctx, input),
    present: presentUserPublic,
  }),
  route({
    method: "PUT",
    path: "/users/:id/block",
    params: UserIdInput,
    call: (ctx, input) => invoke(users.block, ctx, input),
    present: asIs,
  }),
  route({
    method: "PUT",
    path: "/users/:id/unblock",
    params: UserIdInput,
    call: (ctx, input) => invoke(users.unblock, ctx, input),
    present: asIs,
  }),

  route({
    method: "GET",
    path: "/user/keys",
    params: NoParams,
    call: (ctx) => invoke(sshKeys.listMine, ctx, {}),
    present: (keys) => keys.map(presentSshKey),
  }),
  route({
    method: "GET",
    path: "/user/keys/:key_id",
    params: SshKeyIdInput,
    call: (ctx, input) => invoke(sshKeys.getMine, ctx, input),
    present: presentSshKey,
  }),
  route({
    method: "POST",
    path: "/user/keys",
    params: AddSshKeyInput,
    call: (ctx, input) => invoke(sshKeys.addMine, ctx, input),
    present: presentSshKey,
  }),
  route({
    method: "DELETE",
    path: "/user/keys/:key_id",
    params: SshKeyIdInput,
    call: (ctx, input) => invoke(sshKeys.removeMine, ctx, input),
    present: presentSshKey,
  }),
  route({
    method: "GET",
    path: "/users/:id/keys",
    params: UserIdInput,
    call: (ctx, input) => invoke(sshKeys.listFor, ctx, input),
    present: (keys) => keys.map(presentSshKey),
  }),
  route({
    method: "POST",
    path: "/users/:id/keys",
    params: UserIdInput.extend(AddSshKeyInput.shape),
    call: (ctx, input) => invoke(sshKeys.addFor, ctx, input),
    present: presentSshKey,
  }),
  route({
    method: "DELETE",
    path: "/users/:id/keys/:key_id",
    params: UserIdInput.extend(SshKeyIdInput.shape),
    call: (ctx, input) => invoke(sshKeys.removeFor, ctx, input),
    present: presentSshKey,
  }),
];
