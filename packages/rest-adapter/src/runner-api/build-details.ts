import type { ClaimedBuild } from "@kiln/services";

/** A build as the services answer it. */
export type CiBuild = ClaimedBuild["build"];

/** The repository URL a build fetches from: the server's, as `gitlab-ci-token` with the build's token. */
export function repoUrl(baseUrl: string, projectPath: string, token: string): string {
  const url = new URL(`${baseUrl}/${projectPath}.git`);
  url.username = "gitlab-ci-token";
  url.password = token;
  return url.toString();
}

/** `artifacts_file` of a build, when it has artifacts. */
export function artifactsFile(build: CiBuild): { filename: string; size: number } | null {
  return build.artifacts_file === null
    ? null
    : { filename: build.artifacts_file, size: build.artifacts_size ?? 0 };
}

/** 8.x's `Ci::API::Entities::Build`: a build as the runner API shows one. */
function buildEntity(build: CiBuild, token: string, projectName: string) {
  const artifacts = artifactsFile(build);
  return {
    id: build.id,
    ref: build.ref,
    tag: build.tag,
    sha: build.sha,
    status: build.status,
    name: build.name,
    token,
    stage: build.stage,
    project_id: build.project_id,
    project_name: projectName,
    ...(artifacts ? { artifacts_file: artifacts } : {}),
  };
}

/**
 * 8.x's `BuildDetails`: what a runner is handed with a build. The builds it depends on carry the
 * build's own token: only digests of tokens are kept, and the server takes a running build's
 * token for its project's artifacts.
 */
export function presentBuildDetails(claimed: ClaimedBuild, baseUrl: string) {
  const { build, token, project, projectPath, pipeline } = claimed;
  return {
    ...buildEntity(build, token, project.name),
    commands: build.commands,
    repo_url: repoUrl(baseUrl, projectPath, token),
    before_sha: pipeline.before_sha ?? "0".repeat(40),
    allow_git_fetch: true,
    ...(build.artifacts_expire_at ? { artifacts_expire_at: build.artifacts_expire_at } : {}),
    options: build.options,
    timeout: claimed.timeout,
    variables: claimed.variables,
    depends_on_builds: claimed.dependsOn.map((other) => buildEntity(other, token, project.name)),
    credentials: [],
  };
}
