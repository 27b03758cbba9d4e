import { join } from "node:path";
import type { RunnerApi, TransferAnswer } from "./api-client.js";
import type { ArtifactsOptions, BuildDependency } from "./api-schema.js";
import type { RunnerLog } from "./log.js";
import { collectPaths } from "./project-paths.js";
import { type RetryPolicy, untilAvailable } from "./retry.js";
import { extractZip } from "./zip-read.js";
import { writeZip } from "./zip-write.js";

/** A step of a build that failed for a reason the trace states (no stack, no token). */
export class BuildStepError extends Error {}

/** Waiting out a server restart during a transfer, but not for ever: the build must end. */
const TRANSFER_RETRY: RetryPolicy = { minMs: 1000, maxMs: 10_000, attempts: 12 };

/** What the artifact and cache steps need of the build they serve. */
export interface StepContext {
  api: RunnerApi;
  build: { id: number; token: string };
  projectDir: string;
  /** A scratch folder of this build, outside the project folder. */
  tmpDir: string;
  say(line: string): void;
  log: RunnerLog;
  retry?: RetryPolicy;
}

/** Whether `artifacts:when` asks for an upload after a script that succeeded (or not). */
export function artifactsWanted(options: ArtifactsOptions, scriptSucceeded: boolean): boolean {
  const when = options.when ?? "on_success";
  return when === "always" || (when === "on_success") === scriptSucceeded;
}

/**
 * Zips what `artifacts:` names and uploads it (`POST builds/:id/artifacts`, field `file`).
 * Nothing to upload is a warning, as with GitLab runner; a refused upload fails the build.
 */
export async function uploadArtifacts(
  context: StepContext,
  options: ArtifactsOptions,
  name: string,
): Promise<void> {
  context.say("Uploading artifacts...");
  const collected = await collectPaths(context.projectDir, options.paths ?? [], options.untracked ?? false);
  for (const warning of collected.warnings) context.say(`WARNING: ${warning}`);
  if (collected.paths.length === 0) {
    context.say("WARNING: no files to upload");
    return;
  }
  const file = join(context.tmpDir, "artifacts.zip");
  const entries = await writeZip(context.projectDir, collected.paths, file);
  const answer = await untilAvailable(
    "artifacts upload",
    () =>
      context.api.uploadArtifacts(context.build.id, context.build.token, {
        file,
        filename: `${name}.zip`,
        ...(options.expire_in ? { expireIn: options.expire_in } : {}),
      }),
    { log: context.log, policy: context.retry ?? TRANSFER_RETRY },
  );
  if (answer.kind === "refused")
    throw new BuildStepError(
      `Uploading artifacts to coordinator... ${answer.status} ${answer.message}`.trim(),
    );
  context.say(`Uploading artifacts to coordinator... ok (${entries} entries)`);
}

/**
 * Downloads and unpacks, into the project folder, the artifacts of the builds this one depends
 * on. Each is fetched with that build's token as 8.x hands it, or this build's own when the
 * server gives none or refuses it. A build that the server says has artifacts but that cannot be
 * had fails this one; a build without (a 404 where the server said nothing) is passed over.
 */
export async function downloadDependencies(
  context: StepContext,
  dependencies: readonly BuildDependency[],
): Promise<void> {
  for (const dependency of dependencies) {
    const announced = Boolean(dependency.artifacts_file?.filename);
    if (dependency.artifacts_file && !announced) continue;
    const file = join(context.tmpDir, `dependency-${dependency.id}.zip`);
    const tokens = [
      ...new Set([dependency.token, context.build.token].filter((token): token is string => !!token)),
    ];
    let answer: TransferAnswer = { kind: "refused", status: 403, message: "" };
    for (const token of tokens) {
      answer = await untilAvailable(
        "artifacts download",
        () => context.api.downloadArtifacts(dependency.id, token, file),
        { log: context.log, policy: context.retry ?? TRANSFER_RETRY },
      );
      if (answer.kind === "ok" || answer.status !== 403) break;
    }
    if (answer.kind === "refused") {
      if (answer.status === 404 && !announced) continue;
      throw new BuildStepError(
        `Downloading artifacts for ${dependency.name} (${dependency.id}) from coordinator... ${answer.status}`,
      );
    }
    context.say(`Downloading artifacts for ${dependency.name} (${dependency.id})...`);
    try {
      await extractZip(file, context.projectDir);
    } catch (error) {
      throw new BuildStepError(
        `Artifacts of ${dependency.name} (${dependency.id}): ${(error as Error).message}`,
      );
    }
  }
}
