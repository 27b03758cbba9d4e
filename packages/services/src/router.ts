import { auth } from "./operations/auth.js";
import { repositoryBranches } from "./operations/branches.js";
import { repositoryCommits } from "./operations/commits.js";
import { repositoryFiles } from "./operations/files.js";
import { groupMembers } from "./operations/group-members.js";
import { groups } from "./operations/groups.js";
import { projectHooks } from "./operations/hooks.js";
import { issues } from "./operations/issues.js";
import { labels } from "./operations/labels.js";
import { mergeRequests } from "./operations/merge-requests.js";
import { milestones } from "./operations/milestones.js";
import { namespaces } from "./operations/namespaces.js";
import { issueNotes, mergeRequestComments, mergeRequestNotes } from "./operations/notes.js";
import { projectLinks } from "./operations/project-links.js";
import { projectMembers } from "./operations/project-members.js";
import { projects } from "./operations/projects.js";
import { repository } from "./operations/repository.js";
import { session } from "./operations/session.js";
import { settings } from "./operations/settings.js";
import { sshKeys } from "./operations/ssh-keys.js";
import { repositoryTags } from "./operations/tags.js";
import { todos } from "./operations/todos.js";
import { tokens } from "./operations/tokens.js";
import { uploads } from "./operations/uploads.js";
import { users } from "./operations/users.js";
import { createCallerFactory, proceduresOf, router } from "./trpc.js";

/** Every use case of Kiln as a tRPC router, one procedure per operation. */
export const appRouter = router({
  auth: router(proceduresOf(auth)),
  groups: router(proceduresOf(groups)),
  groupMembers: router(proceduresOf(groupMembers)),
  namespaces: router(proceduresOf(namespaces)),
  mergeRequests: router(proceduresOf(mergeRequests)),
  issueNotes: router(proceduresOf(issueNotes)),
  mergeRequestNotes: router(proceduresOf(mergeRequestNotes)),
  mergeRequestComments: router(proceduresOf(mergeRequestComments)),
  projects: router(proceduresOf(projects)),
  projectHooks: router(proceduresOf(projectHooks)),
  issues: router(proceduresOf(issues)),
  labels: router(proceduresOf(labels)),
  milestones: router(proceduresOf(milestones)),
  projectLinks: router(proceduresOf(projectLinks)),
  projectMembers: router(proceduresOf(projectMembers)),
  repositoryBranches: router(proceduresOf(repositoryBranches)),
  repositoryTags: router(proceduresOf(repositoryTags)),
  repository: router(proceduresOf(repository)),
  repositoryCommits: router(proceduresOf(repositoryCommits)),
  repositoryFiles: router(proceduresOf(repositoryFiles)),
  session: router(proceduresOf(session)),
  settings: router(proceduresOf(settings)),
  sshKeys: router(proceduresOf(sshKeys)),
  tokens: router(proceduresOf(tokens)),
  todos: router(proceduresOf(todos)),
  uploads: router(proceduresOf(uploads)),
  users: router(proceduresOf(users)),
});

/** The router's type, for typed clients. */
export type AppRouter = typeof appRouter;

/** Makes a server-side caller bound to one context. */
export const createCaller = createCallerFactory(appRouter);

/** A caller of every procedure, bound to one context. */
export type Caller = ReturnType<typeof createCaller>;
