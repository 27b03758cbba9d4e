import type { BuildVariable } from "./types.js";

/** What {@link predefinedVariables} needs to know of a build. */
export interface BuildForVariables {
  id: number;
  /** The build's token (`CI_BUILD_TOKEN`, not public); left out when not given. */
  token?: string;
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  stage: string;
  name: string;
  projectId: number;
  /** `namespace/path`. */
  projectPath: string;
  /** The project's web page. */
  projectUrl: string;
  /** Where the runner checks the project out (`CI_PROJECT_DIR`; 8.x's runner sets it itself). */
  projectDir?: string;
  /** `CI_SERVER_NAME` (8.x: `GitLab`). */
  serverName: string;
  serverVersion: string;
  /** `CI_SERVER_REVISION`: empty when not given. */
  serverRevision?: string;
  /** The server's address; 8.x sent no variable for it (`CI_SERVER_URL` came later), nor does Kiln. */
  serverUrl: string;
  /** Started by a trigger (`CI_BUILD_TRIGGERED`). */
  triggered: boolean;
  /** A `when: manual` build (`CI_BUILD_MANUAL`). */
  manual?: boolean;
  pipelineId?: number;
  /** The runner that took the build (`CI_RUNNER_*`). */
  runner?: { id: number; description: string; tags: string[] };
  /** The job's variables from the file (its plan's `variables`), put where 8.x puts them. */
  yamlVariables?: BuildVariable[];
  /** Who started the build (`GITLAB_USER_ID`, `GITLAB_USER_EMAIL`). */
  userId?: number;
  userEmail?: string;
}

/** `CI_BUILD_REF_SLUG`: the ref lower-cased, every other character than a-z and 0-9 a `-`, at most 63. */
export function refSlug(ref: string): string {
  return [...ref.replace(/[A-Z]/g, (letter) => letter.toLowerCase()).replace(/[^a-z0-9]/gu, "-")]
    .slice(0, 63)
    .join("");
}

/**
 * The GitLab `CI_*` variables of a build (gitlab-8x.md §3.18 and §7.3), in the order 8.x sends them
 * (`Ci::Build#simple_variables`): the build's, the project's, the pipeline's, the runner's, then
 * the file's variables when given, then the user's. The project's secret variables and a trigger's
 * come after all of these, from the caller.
 */
export function predefinedVariables(build: BuildForVariables): BuildVariable[] {
  const variables: [string, string, boolean?][] = [
    ["CI", "true"],
    ["GITLAB_CI", "true"],
    ["CI_BUILD_ID", String(build.id)],
  ];
  if (build.token !== undefined) variables.push(["CI_BUILD_TOKEN", build.token, false]);
  variables.push(
    ["CI_BUILD_REF", build.sha],
    ["CI_BUILD_BEFORE_SHA", build.beforeSha],
    ["CI_BUILD_REF_NAME", build.ref],
    ["CI_BUILD_REF_SLUG", refSlug(build.ref)],
    ["CI_BUILD_NAME", build.name],
    ["CI_BUILD_STAGE", build.stage],
    ["CI_SERVER_NAME", build.serverName],
    ["CI_SERVER_VERSION", build.serverVersion],
    ["CI_SERVER_REVISION", build.serverRevision ?? ""],
  );
  if (build.tag) variables.push(["CI_BUILD_TAG", build.ref]);
  if (build.triggered) variables.push(["CI_BUILD_TRIGGERED", "true"]);
  if (build.manual) variables.push(["CI_BUILD_MANUAL", "true"]);
  const slash = build.projectPath.lastIndexOf("/");
  variables.push(
    ["CI_PROJECT_ID", String(build.projectId)],
    ["CI_PROJECT_NAME", build.projectPath.slice(slash + 1)],
    ["CI_PROJECT_PATH", build.projectPath],
    ["CI_PROJECT_NAMESPACE", slash < 0 ? "" : build.projectPath.slice(0, slash)],
    ["CI_PROJECT_URL", build.projectUrl],
  );
  if (build.projectDir !== undefined) variables.push(["CI_PROJECT_DIR", build.projectDir]);
  if (build.pipelineId !== undefined) variables.push(["CI_PIPELINE_ID", String(build.pipelineId)]);
  if (build.runner) {
    variables.push(
      ["CI_RUNNER_ID", String(build.runner.id)],
      ["CI_RUNNER_DESCRIPTION", build.runner.description],
      ["CI_RUNNER_TAGS", build.runner.tags.join(", ")],
    );
  }
  const predefined = variables.map(([key, value, isPublic = true]) => ({ key, value, public: isPublic }));
  const user: BuildVariable[] = [];
  if (build.userId !== undefined)
    user.push({ key: "GITLAB_USER_ID", value: String(build.userId), public: true });
  if (build.userEmail !== undefined)
    user.push({ key: "GITLAB_USER_EMAIL", value: build.userEmail, public: true });
  return [...predefined, ...(build.yamlVariables ?? []), ...user];
}
