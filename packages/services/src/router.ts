import { authRouter } from "./routers/auth.js";
import { sessionRouter } from "./routers/session.js";
import { sshKeysRouter } from "./routers/ssh-keys.js";
import { tokensRouter } from "./routers/tokens.js";
import { usersRouter } from "./routers/users.js";
import { createCallerFactory, router } from "./trpc.js";

/** Every use case of Kiln, one procedure per operation. */
export const appRouter = router({
  auth: authRouter,
  session: sessionRouter,
  sshKeys: sshKeysRouter,
  tokens: tokensRouter,
  users: usersRouter,
});

/** The router's type, for typed clients. */
export type AppRouter = typeof appRouter;

/** Makes a server-side caller bound to one context. */
export const createCaller = createCallerFactory(appRouter);

/** A caller of every procedure, bound to one context. */
export type Caller = ReturnType<typeof createCaller>;
