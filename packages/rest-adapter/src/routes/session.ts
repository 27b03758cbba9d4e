import { session } from "@kiln/services";
import { presentUserWithPrivateToken } from "../presenters/users.js";
import { type Route, route } from "../route.js";

/** `POST /session`: password sign-in, the one route that needs no token. */
export const sessionRoutes: Route[] = [
  route({
    method: "POST",
    path: "/session",
    operation: session.signIn,
    anonymous: true,
    present: ({ user, privateToken }, context) => presentUserWithPrivateToken(user, privateToken, context),
  }),
];
