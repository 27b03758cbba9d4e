import { auth } from "./auth/operations.js";
import { session } from "./auth/session.operations.js";
import { twoFactor } from "./auth/two-factor.operations.js";
import { builds } from "./ci/builds.operations.js";
import { pipelines } from "./ci/pipelines.operations.js";
import { runners } from "./ci/runners.operations.js";
import { commitStatuses } from "./ci/statuses.operations.js";
import { triggers } from "./ci/triggers.operations.js";
import { variables } from "./ci/variables.operations.js";
import { groupMembers } from "./groups/members.operations.js";
import { groups } from "./groups/operations.js";
import { projectHooks } from "./hooks/operations.js";
import { systemHooks } from "./hooks/system.operations.js";
import { issues } from "./issues/operations.js";
import { labels } from "./labels/operations.js";
import { mergeRequests } from "./merge-requests/operations.js";
import { milestones } from "./milestones/operations.js";
import { namespaces } from "./namespaces/operations.js";
import { issueNotes, mergeRequestComments, mergeRequestNotes } from "./notes/operations.js";
import { oauthApplications } from "./oauth/applications.operations.js";
import { oauth, oauthAuthorizations } from "./oauth/authorize.operations.js";
import { projectLinks } from "./projects/links.operations.js";
import { projectMembers } from "./projects/members.operations.js";
import { projects } from "./projects/operations.js";
import { repositoryBranches } from "./repositories/branches.operations.js";
import { repositoryCommits } from "./repositories/commits.operations.js";
import { repositoryFiles } from "./repositories/files.operations.js";
import { repository } from "./repositories/operations.js";
import { repositoryTags } from "./repositories/tags.operations.js";
import { settings } from "./settings/operations.js";
import { sshKeys } from "./ssh-keys/operations.js";
import { todos } from "./todos/operations.js";
import { tokens } from "./tokens/operations.js";
import { createCallerFactory, proceduresOf, router } from "./trpc.js";
import { uploads } from "./uploads/operations.js";
import { account } from "./users/account.operations.js";
import { users } from "./users/operations.js";
import { webSessions } from "./web-sessions/operations.js";

/** Every use case of Kiln as a tRPC router, one procedure per operation. */
export const appRouter = router({
  account: router(proceduresOf(account)),
  auth: router(proceduresOf(auth)),
  builds: router(proceduresOf(builds)),
  pipelines: router(proceduresOf(pipelines)),
  runners: router(proceduresOf(runners)),
  triggers: router(proceduresOf(triggers)),
  commitStatuses: router(proceduresOf(commitStatuses)),
  groups: router(proceduresOf(groups)),
  groupMembers: router(proceduresOf(groupMembers)),
  namespaces: router(proceduresOf(namespaces)),
  mergeRequests: router(proceduresOf(mergeRequests)),
  issueNotes: router(proceduresOf(issueNotes)),
  mergeRequestNotes: router(proceduresOf(mergeRequestNotes)),
  mergeRequestComments: router(proceduresOf(mergeRequestComments)),
  oauth: router(proceduresOf(oauth)),
  oauthApplications: router(proceduresOf(oauthApplications)),
  oauthAuthorizations: router(proceduresOf(oauthAuthorizations)),
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
  systemHooks: router(proceduresOf(systemHooks)),
  tokens: router(proceduresOf(tokens)),
  twoFactor: router(proceduresOf(twoFactor)),
  todos: router(proceduresOf(todos)),
  uploads: router(proceduresOf(uploads)),
  users: router(proceduresOf(users)),
  variables: router(proceduresOf(variables)),
  webSessions: router(proceduresOf(webSessions)),
});

/** The router's type, for typed clients. */
export type AppRouter = typeof appRouter;

/** Makes a server-side caller bound to one context. */
export const createCaller = createCallerFactory(appRouter);

/** A caller of every procedure, bound to one context. */
export type Caller = ReturnType<typeof createCaller>;
