import { auth } from "./operations/auth.js";
import { projectLinks } from "./operations/project-links.js";
import { projectMembers } from "./operations/project-members.js";
import { projects } from "./operations/projects.js";
import { session } from "./operations/session.js";
import { settings } from "./operations/settings.js";
import { sshKeys } from "./operations/ssh-keys.js";
import { tokens } from "./operations/tokens.js";
import { users } from "./operations/users.js";
import { createCallerFactory, proceduresOf, router } from "./trpc.js";

/** Every use case of Kiln as a tRPC router, one procedure per operation. */
export const appRouter = router({
  auth: router(proceduresOf(auth)),
  projects: router(proceduresOf(projects)),
  projectLinks: router(proceduresOf(projectLinks)),
  projectMembers: router(proceduresOf(projectMembers)),
  session: router(proceduresOf(session)),
  settings: router(proceduresOf(settings)),
  sshKeys: router(proceduresOf(sshKeys)),
  tokens: router(proceduresOf(tokens)),
  users: router(proceduresOf(users)),
});

/** The router's type, for typed clients. */
export type AppRouter = typeof appRouter;

/** Makes a server-side caller bound to one context. */
export const createCaller = createCallerFactory(appRouter);

/** A caller of every procedure, bound to one context. */
export type Caller = ReturnType<typeof createCaller>;
