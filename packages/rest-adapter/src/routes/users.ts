import {
  AddSshKeyInput,
  CreateUserInput,
  ListUsersInput,
  SshKeyIdInput,
  UpdateUserInput,
  UserIdInput,
} from "@kiln/schemas";
import type { UserView } from "@kiln/services";
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
    call: (api) => api.users.me(),
    present: ({ user, privateToken }, context) =>
      privateToken
        ? presentUserWithPrivateToken(user, privateToken, context)
        : presentUserPublic(user, context),
  }),
  listRoute({
    method: "GET",
    path: "/users",
    params: ListUsersInput,
    call: (api, input) => api.users.list(input),
    present: presentListedUser,
  }),
  route({
    method: "GET",
    path: "/users/:id",
    params: UserIdInput,
    call: (api, input) => api.users.get(input),
    present: ({ user, full }, context) =>
      full ? presentUserPublic(user, context) : presentUser(user, context),
  }),
  route({
    method: "POST",
    path: "/users",
    params: CreateUserInput,
    call: (api, input) => api.users.create(input),
    present: presentUserPublic,
  }),
  route({
    method: "PUT",
    path: "/users/:id",
    params: UpdateUserInput,
    call: (api, input) => api.users.update(input),
    present: presentUserPublic,
  }),
  route({
    method: "DELETE",
    path: "/users/:id",
    params: UserIdInput,
    call: (api, input) => api.users.remove(input),
    present: presentUserPublic,
  }),
  route({
    method: "PUT",
    path: "/users/:id/block",
    params: UserIdInput,
    call: (api, input) => api.users.block(input),
    present: asIs,
  }),
  route({
    method: "PUT",
    path: "/users/:id/unblock",
    params: UserIdInput,
    call: (api, input) => api.users.unblock(input),
    present: asIs,
  }),

  route({
    method: "GET",
    path: "/user/keys",
    params: NoParams,
    call: (api) => api.sshKeys.listMine(),
    present: (keys) => keys.map(presentSshKey),
  }),
  route({
    method: "GET",
    path: "/user/keys/:key_id",
    params: SshKeyIdInput,
    call: (api, input) => api.sshKeys.getMine(input),
    present: presentSshKey,
  }),
  route({
    method: "POST",
    path: "/user/keys",
    params: AddSshKeyInput,
    call: (api, input) => api.sshKeys.addMine(input),
    present: presentSshKey,
  }),
  route({
    method: "DELETE",
    path: "/user/keys/:key_id",
    params: SshKeyIdInput,
    call: (api, input) => api.sshKeys.removeMine(input),
    present: presentSshKey,
  }),
  route({
    method: "GET",
    path: "/users/:id/keys",
    params: UserIdInput,
    call: (api, input) => api.sshKeys.listFor(input),
    present: (keys) => keys.map(presentSshKey),
  }),
  route({
    method: "POST",
    path: "/users/:id/keys",
    params: UserIdInput.extend(AddSshKeyInput.shape),
    call: (api, input) => api.sshKeys.addFor(input),
    present: presentSshKey,
  }),
  route({
    method: "DELETE",
    path: "/users/:id/keys/:key_id",
    params: UserIdInput.extend(SshKeyIdInput.shape),
    call: (api, input) => api.sshKeys.removeFor(input),
    present: presentSshKey,
  }),
];
