import { SignInInput } from "@kiln/schemas";
import { invoke, session } from "@kiln/services";
import { presentUserWithPrivateToken } from "../presenters/users.js";
import { type Route, route } from "../route.js";

/** `POST /session`: password sign-in, the one route that needs no token. */
export const sessionRoutes: Route[] = [
  route({
    method: "POST",
    path: "/session",
    params: SignInInput,
    anonymous: true,
    call: (ctx, input) => invoke(session.signIn, ctx, input),
    present: ({ user, privateToken }, context) => presentUserWithPrivateToken(user, privateToken, context),
  }),
];
