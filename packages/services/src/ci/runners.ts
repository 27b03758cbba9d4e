import { forbidden, notFound } from "@kiln/domain";
import type { CiRunner } from "@kiln/storage-kysely";
import type { ServiceRuntime } from "../runtime.js";
import { constantTimeEqual, generateToken, tokenDigest } from "../security/tokens.js";

/** The registration token of shared runners (instance-wide), made on first use. */
export async function registrationToken(runtime: ServiceRuntime): Promise<string> {
  const { ciRunners, settings } = runtime.stores;
  const sealed = await ciRunners.registrationToken();
  if (sealed !== null) return runtime.secrets.open(sealed);
  await settings.stamps(); // the settings row holds it
  return runtime.secrets.open(await ciRunners.keepRegistrationToken(runtime.secrets.seal(generateToken(20))));
}

/** What a runner says of itself when it registers (8.x's `info`). */
export interface RunnerInfo {
  name?: string | undefined;
  version?: string | undefined;
  revision?: string | undefined;
  platform?: string | undefined;
  architecture?: string | undefined;
}

/** A registration: the token (instance-wide or a project's runners token) and the runner's settings. */
export interface RunnerRegistration {
  token: string;
  description?: string | undefined;
  tagList?: string[] | undefined;
  runUntagged?: boolean | undefined;
  locked?: boolean | undefined;
  info?: RunnerInfo | undefined;
}

/**
 * Registers a runner, as 8.x's `POST /ci/api/v1/runners/register`: the instance registration
 * token makes a shared runner, a project's runners token a specific runner of that project.
 * Another token is 403. A runner that may run no build (untagged builds refused, no tags) is 404,
 * as 8.x answers a runner that fails validation. Answers the runner and its token (shown once).
 */
export async function registerRunner(
  runtime: ServiceRuntime,
  registration: RunnerRegistration,
): Promise<{ runner: CiRunner; token: string }> {
  const shared = constantTimeEqual(registration.token, await registrationToken(runtime));
  const project = shared
    ? undefined
    : await runtime.stores.projects.findByRunnersTokenDigest(tokenDigest(registration.token));
  if (!shared && !project) throw forbidden();
  const tags = [
    ...new Set((registration.tagList ?? []).map((tag) => tag.trim()).filter((tag) => tag !== "")),
  ];
  const runUntagged = registration.runUntagged ?? true;
  if (!runUntagged && tags.length === 0) throw notFound();
  const token = generateToken(20);
  const info = registration.info ?? {};
  const runner = await runtime.stores.ciRunners.create(
    {
      token_digest: tokenDigest(token),
      token_sealed: runtime.secrets.seal(token),
      description: registration.description ?? null,
      is_shared: shared,
      run_untagged: runUntagged,
      locked: registration.locked ?? false,
      tag_list: tags,
      name: info.name ?? null,
      version: info.version ?? null,
      revision: info.revision ?? null,
      platform: info.platform ?? null,
      architecture: info.architecture ?? null,
      contacted_at: new Date().toISOString(),
    },
    project?.id ?? null,
  );
  return { runner, token };
}

/** The runner a token names; 403 (8.x's `authenticate_runner!`) for none. */
export async function requireRunner(runtime: ServiceRuntime, token: string | undefined): Promise<CiRunner> {
  if (!token) throw forbidden();
  const runner = await runtime.stores.ciRunners.findByTokenDigest(tokenDigest(token));
  if (!runner) throw forbidden();
  return runner;
}

/** Deletes the runner the token names (`DELETE /ci/api/v1/runners/delete`). */
export async function unregisterRunner(runtime: ServiceRuntime, token: string | undefined): Promise<void> {
  const runner = await requireRunner(runtime, token);
  await runtime.stores.ciRunners.delete(runner.id);
}

/** Records that the runner asked for work now, with what it says of itself. */
export async function touchRunner(
  runtime: ServiceRuntime,
  runner: CiRunner,
  info: RunnerInfo = {},
): Promise<void> {
  const defined = Object.fromEntries(Object.entries(info).filter(([, value]) => typeof value === "string"));
  await runtime.stores.ciRunners.update(runner.id, { ...defined, contacted_at: new Date().toISOString() });
}
