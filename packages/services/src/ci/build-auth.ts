import { forbidden, notFound } from "@kiln/domain";
import type { CiBuild } from "@kiln/storage-kysely";
import type { ServiceRuntime } from "../runtime.js";
import { constantTimeEqual, tokenDigest } from "../security/tokens.js";

/**
 * The build a runner API request names, when `token` is its token (8.x's `authenticate_build!`):
 * 404 when there is no such build, 403 for a wrong token (a finished build's token is gone) or a
 * deleted project. With `sameProject`, a token of another running build of the same project is
 * enough: that is how a build fetches the artifacts of the builds it depends on (only digests of
 * tokens are kept, so a build cannot be handed its dependencies' own tokens).
 */
export async function requireBuildByToken(
  runtime: ServiceRuntime,
  buildId: number,
  token: string | undefined,
  options: { sameProject?: boolean } = {},
): Promise<CiBuild> {
  const build = await runtime.stores.ciBuilds.find(buildId);
  if (!build) throw notFound("build");
  if (!token) throw forbidden();
  const digest = tokenDigest(token);
  if (build.token_digest === null || !constantTimeEqual(build.token_digest, digest)) {
    const bearer = options.sameProject ? await runtime.stores.ciBuilds.findByTokenDigest(digest) : undefined;
    if (bearer?.project_id !== build.project_id || bearer.status !== "running") throw forbidden();
  }
  if (!(await runtime.stores.projects.findById(build.project_id))) throw forbidden();
  return build;
}

/** The running build whose token this is, for git over HTTP as `gitlab-ci-token`; null for none. */
export async function runningBuildOfToken(runtime: ServiceRuntime, token: string): Promise<CiBuild | null> {
  if (token === "") return null;
  const build = await runtime.stores.ciBuilds.findByTokenDigest(tokenDigest(token));
  return build?.status === "running" ? build : null;
}
