import type { BuildVariable } from "./api-schema.js";

/**
 * The environment of a build's shell: the runner's own (PATH, HOME, locale; the shell executor
 * runs as the runner's user, as GitLab's does) without Kiln's server settings, then the build's
 * variables in the order the server sent them (predefined `CI_*`, project, file, secret,
 * trigger: a later one wins), then `CI_PROJECT_DIR`, which only the runner knows.
 */
export function buildEnvironment(
  variables: readonly BuildVariable[],
  projectDir: string,
  runnerEnv: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(runnerEnv)) {
    if (!isServerSetting(key)) env[key] = value;
  }
  for (const variable of variables) {
    const value = variable.value ?? "";
    if (isEnvironmentName(variable.key) && !value.includes("\0")) env[variable.key] = value;
  }
  env["CI_PROJECT_DIR"] = projectDir;
  return env;
}

/** A server's configuration (its database, data dir, root password) is not the build's business. */
function isServerSetting(key: string): boolean {
  return key.startsWith("KILN_") || key === "DATABASE_URL";
}

function isEnvironmentName(key: string): boolean {
  return key !== "" && !key.includes("=") && !key.includes("\0");
}

/** `$NAME` and `${NAME}` in `text` replaced by the variables' values (unknown ones by nothing). */
export function expandVariables(text: string, variables: readonly BuildVariable[]): string {
  const values = new Map(variables.map((variable) => [variable.key, variable.value ?? ""]));
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_match, braced?: string, bare?: string) => {
    return values.get((braced ?? bare) as string) ?? "";
  });
}
