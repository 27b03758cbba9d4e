import { createReadStream } from "node:fs";
import { Id, UploadedFileParam } from "@kiln/schemas";
import { artifactsLimitBytes, removeRunnerArtifacts, runnerArtifacts, storeArtifacts } from "@kiln/services";
import { z } from "zod";
import { artifactsFile } from "./build-details.js";
import { buildToken } from "./builds.js";
import type { RunnerRoute } from "./route.js";

const BuildRef = z.object({ id: Id });
const AuthorizeParams = BuildRef.extend({ filesize: z.number().int().nonnegative().optional() });
const UploadParams = BuildRef.extend({
  file: UploadedFileParam.optional(),
  expire_in: z.string().optional(),
});

/** A file name as a `Content-Disposition` parameter (quotes and controls dropped). */
const dispositionName = (name: string): string => name.replace(/["\\\r\n]/g, "_");

/**
 * `/builds/:id/artifacts`: a build's runner uploads its archive (multipart `file`, no Workhorse in
 * front: Kiln receives it itself), and builds fetch the archives of the builds they depend on.
 */
export const artifactRoutes: RunnerRoute[] = [
  {
    method: "POST",
    path: "/builds/:id/artifacts/authorize",
    run: async (request) => {
      const input = request.decode(AuthorizeParams);
      await runnerArtifacts(request.runtime, input.id, buildToken(request)).catch((error: unknown) => {
        // No archive yet is the usual case: only the token matters here.
        if ((error as { kind?: string }).kind !== "not_found") throw error;
      });
      if ((input.filesize ?? 0) > (await artifactsLimitBytes(request.runtime)))
        return { status: 413, body: { message: "413 Request Entity Too Large" } };
      return { status: 200, body: {} };
    },
  },
  {
    method: "POST",
    path: "/builds/:id/artifacts",
    files: { field: "file", maxBytes: artifactsLimitBytes },
    run: async (request) => {
      const input = request.decode(UploadParams);
      if (!input.file)
        return { status: 400, body: { message: '400 (Bad request) "Missing artifacts file!" not given' } };
      const build = await storeArtifacts(
        request.runtime,
        input.id,
        buildToken(request),
        input.file,
        input.expire_in,
      );
      return {
        status: 201,
        body: { id: build.id, status: build.status, artifacts_file: artifactsFile(build) },
      };
    },
  },
  {
    method: "GET",
    path: "/builds/:id/artifacts",
    run: async (request) => {
      const { id } = request.decode(BuildRef);
      const { build, path } = await runnerArtifacts(request.runtime, id, buildToken(request));
      return {
        status: 200,
        body: undefined,
        raw: {
          headers: {
            "Content-Type": "application/zip",
            "Content-Disposition": `attachment; filename="${dispositionName(build.artifacts_file ?? "artifacts.zip")}"`,
            "Content-Length": build.artifacts_size ?? 0,
          },
          content: createReadStream(path),
        },
      };
    },
  },
  {
    method: "DELETE",
    path: "/builds/:id/artifacts",
    run: async (request) => {
      const { id } = request.decode(BuildRef);
      await removeRunnerArtifacts(request.runtime, id, buildToken(request));
      return { status: 200, body: undefined };
    },
  },
];
