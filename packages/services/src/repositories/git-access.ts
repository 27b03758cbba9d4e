import { DomainError, type PushRefusal, pathProblem, scopesAllow } from "@kiln/domain";
import { actorOf, type Credentials, FULL_SCOPES, identifyActor } from "../auth/credentials.js";
import type { Identity } from "../auth/identify.js";
import { runningBuildOfToken } from "../ci/build-auth.js";
import type { Context } from "../context.js";
import { accessTo } from "../projects/access.js";
import type { ServiceRuntime } from "../runtime.js";
import { type RepositoryAccess, repositoryOf } from "./access.js";

/** What a git client asks of a repository: to read it (clone, fetch) or to push to it. */
export type GitAction = "pull" | "push";

/** One git request over HTTP, as the transport read it. */
export interface GitRequest {
  /** The namespace path and the project path of the URL (without `.git`), decoded. */
  namespace: string;
  project: string;
  action: GitAction;
  /** The credentials the client sent (git sends HTTP Basic ones), or null when it sent none. */
  credentials: Credentials | null;
  /** The client's network address, for the throttle of git passwords. */
  address: string;
}

/**
 * Why a git request is refused. `credentials_required`: anonymous, and only a signed-in user may
 * get further (the transport asks git to prompt). `bad_credentials`: the credentials name nobody.
 * `throttled`: a password while its account is locked or its address banned (see
 * {@link GitThrottle}). `not_found`: no such project, or one the user may not see. `forbidden`:
 * the user sees the project but may not do this to its repository.
 */
export type GitDenial = "credentials_required" | "bad_credentials" | "throttled" | "not_found" | "forbidden";

/**
 * Why a git password is refused unchecked: its account is locked after failed sign-ins, or the
 * client's address is banned after failed git passwords.
 */
export type GitThrottle = "sign_in_account_locked" | "git_address_banned";

/** A request let through: who asks (null for anonymous), the project and its repository. */
export interface GitGrant {
  identity: Identity | null;
  access: RepositoryAccess;
}

/**
 * What a git client is told when a request or a push is refused, as codes the transport words
 * (GitLab 8.x's texts, shown after `remote:`): no or bad credentials, a project it may not see,
 * code it may not download, an archived project, or one of the push rules.
 */
export type GitRefusal =
  | "credentials"
  | GitThrottle
  | "project_not_found"
  | "download_denied"
  | "archived_project"
  | PushRefusal;

/** The answer to a {@link GitRequest}; a throttled one says how many seconds to wait. */
export type GitDecision =
  | { granted: true; grant: GitGrant }
  | { granted: false; denial: GitDenial; refusal: GitRefusal; retryAfterSeconds?: number };

const deny = (denial: GitDenial, refusal: GitRefusal): GitDecision => ({ granted: false, denial, refusal });

/** The services context of a git request's user. */
export function gitContext(runtime: ServiceRuntime, identity: Identity | null): Context {
  return {
    runtime,
    actor: identity ? actorOf(identity) : null,
    system: false,
  };
}

/**
 * Decides a clone, fetch or push over HTTP before git runs, as GitLab 8.x did: anonymous clients
 * read public projects only; internal projects need any signed-in (non-external) user; private
 * ones reporter or above; pushing needs `push_code` (developer or above) on a project that is not
 * archived. Which refs a push may change is decided later, inside the push, by
 * {@link gitPushAuthorizer}.
 *
 * An anonymous client that cannot get further is asked for credentials, never told whether the
 * project exists (so a private or missing project both answer `credentials_required`); a signed-in
 * user who may not see a project gets `not_found`, as the API answers. A user who sees the project
 * but may not read its code (a guest of a private project) gets `forbidden` with GitLab's message,
 * which git shows, rather than a misleading "not found". Archived projects refuse every push,
 * administrators' too, as in GitLab 8.x.
 */
export async function decideGitAccess(runtime: ServiceRuntime, request: GitRequest): Promise<GitDecision> {
  if (request.credentials?.kind === "build_token")
    return decideBuildAccess(runtime, request, request.credentials.token);
  let identity: Identity | null = null;
  if (request.credentials) {
    try {
      identity = await identifyActor(runtime, request.credentials, request.address);
    } catch (error) {
      const throttled = throttleOf(error);
      if (!throttled) throw error;
      return { granted: false, denial: "throttled", ...throttled };
    }
    // Git needs the api scope, as GitLab's git access does: a read_user token names nobody here.
    if (!identity || !scopesAllow(identity.scopes, FULL_SCOPES))
      return deny("bad_credentials", "credentials");
  }
  const user = identity?.user ?? null;
  const hidden = () =>
    user ? deny("not_found", "project_not_found") : deny("credentials_required", "credentials");
  if (pathProblem(request.namespace) !== null || pathProblem(request.project) !== null) return hidden();
  const project = await runtime.stores.projects.findByFullPath(request.namespace, request.project);
  if (!project) return hidden();
  if (request.action === "push" && !user) return hidden();
  const access = await accessTo(gitContext(runtime, identity), project);
  if (!access.allows("read_project")) return hidden();
  if (request.action === "pull" && !access.allows("download_code")) {
    return user ? deny("forbidden", "download_denied") : hidden();
  }
  if (request.action === "push") {
    if (project.archived) return deny("forbidden", "archived_project");
    if (!access.allows("push_code")) return deny("forbidden", "push_code");
  }
  return {
    granted: true,
    grant: { identity, access: { ...access, gitDir: await repositoryOf(runtime, project) } },
  };
}

/** The throttle that refused a git password, from the error identifying it threw, or null. */
function throttleOf(error: unknown): { refusal: GitThrottle; retryAfterSeconds: number } | null {
  if (!DomainError.is(error) || error.failure.kind !== "rate_limited") return null;
  const { reason, retryAfterSeconds } = error.failure;
  if (reason === "sign_in_address_throttled") return null;
  return { refusal: reason, retryAfterSeconds };
}

/**
 * A build fetching its project as `gitlab-ci-token` with its token (the runner's clone): only that
 * project, only to read it, only while the build runs. Anything else is told its credentials are
 * wrong, as for an unknown token.
 */
async function decideBuildAccess(
  runtime: ServiceRuntime,
  request: GitRequest,
  token: string,
): Promise<GitDecision> {
  const build = await runningBuildOfToken(runtime, token);
  if (!build || request.action !== "pull") return deny("bad_credentials", "credentials");
  const project = await runtime.stores.projects.findByFullPath(request.namespace, request.project);
  if (project?.id !== build.project_id) return deny("bad_credentials", "credentials");
  const access = await accessTo({ runtime, actor: null, system: true }, project);
  return {
    granted: true,
    grant: { identity: null, access: { ...access, gitDir: await repositoryOf(runtime, project) } },
  };
}
