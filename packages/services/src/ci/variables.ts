import type { Project } from "@kiln/domain";
import type { CiBuild, CiPipeline } from "@kiln/storage-kysely";
import type { ServiceRuntime } from "../runtime.js";
import { predefinedVariables } from "./contract.js";

/** What the runner API says the server is (`CI_SERVER_NAME`, `CI_SERVER_VERSION`). */
export const CI_SERVER = { name: "GitLab", version: "8.15.0" } as const;

type Variable = { key: string; value: string; public: boolean };

const ZERO_SHA = "0".repeat(40);

/**
 * The variables of a build, in 8.x's order: the predefined `CI_*` ones, then `CI_PIPELINE_ID`, the
 * file's (`public`), the project's secret variables (not public), and a trigger's. A fork has its
 * own secret variables only: nothing of the project it was forked from.
 */
export async function buildVariables(
  runtime: ServiceRuntime,
  facts: { build: CiBuild; pipeline: CiPipeline; project: Project; projectPath: string; token: string },
): Promise<Variable[]> {
  const { build, pipeline, project, projectPath, token } = facts;
  const user = build.user_id === null ? undefined : await runtime.stores.users.findById(build.user_id);
  const predefined = predefinedVariables({
    id: build.id,
    token,
    ref: build.ref,
    tag: build.tag,
    sha: build.sha,
    beforeSha: pipeline.before_sha ?? ZERO_SHA,
    stage: build.stage,
    name: build.name,
    projectId: project.id,
    projectPath,
    projectUrl: `${runtime.baseUrl}/${projectPath}`,
    serverName: CI_SERVER.name,
    serverVersion: CI_SERVER.version,
    serverUrl: runtime.baseUrl,
    triggered: pipeline.trigger_variables !== null,
    ...(user ? { userId: user.id, userEmail: user.email } : {}),
  });
  const secrets = (await runtime.stores.ciVariables.list(project.id)).map((variable) => ({
    key: variable.key,
    value: runtime.secrets.open(variable.value_sealed),
    public: false,
  }));
  const triggered = (
    pipeline.trigger_variables === null
      ? []
      : (JSON.parse(pipeline.trigger_variables) as Omit<Variable, "public">[])
  ).map((variable) => ({ ...variable, public: false }));
  return [
    ...predefined,
    { key: "CI_PIPELINE_ID", value: String(pipeline.id), public: true },
    ...build.yaml_variables,
    ...secrets,
    ...triggered,
  ];
}
