import { Id } from "@kiln/schemas";
import { appendTrace, reportBuild, requestBuild } from "@kiln/services";
import { z } from "zod";
import type { Reply } from "../route.js";
import { presentBuildDetails } from "./build-details.js";
import type { RunnerRequest, RunnerRoute } from "./route.js";
import { TokenParams } from "./runners.js";

const RegisterParams = TokenParams.extend({
  info: z
    .object({
      name: z.string().optional(),
      version: z.string().optional(),
      revision: z.string().optional(),
      platform: z.string().optional(),
      architecture: z.string().optional(),
    })
    .optional(),
});

const UpdateParams = TokenParams.extend({
  id: Id,
  state: z.string().optional(),
  trace: z.string().optional(),
});

const BuildRef = z.object({ id: Id, token: z.string().optional() });

/** The largest trace chunk a runner may send at once. */
const TRACE_CHUNK_LIMIT = 8 * 1024 * 1024;

/**
 * Runners of the 8.12+ era (`gitlab-ci-multi-runner`, `gitlab-runner`, Kiln's) are told "no build"
 * with 204; any other client gets 8.x's older 404.
 */
const knowsNoContent = (userAgent: string | undefined): boolean =>
  /\b(gitlab(-ci-multi)?-runner|kiln)\b/i.test(userAgent ?? "");

/** The build token of a request: the `token` parameter or the `BUILD-TOKEN` header. */
export function buildToken(request: RunnerRequest): string | undefined {
  const param = request.params["token"];
  return typeof param === "string" ? param : request.header("build-token");
}

const EMPTY: Reply["raw"] = { headers: {}, content: Buffer.alloc(0) };

/** `/builds`: a runner asks for a build, reports on it, and streams its trace. */
export const buildRoutes: RunnerRoute[] = [
  {
    method: "POST",
    path: "/builds/register",
    run: async (request) => {
      const input = request.decode(RegisterParams);
      const claimed = await requestBuild(request.runtime, input.token, {
        waitMs: request.buildWaitMs,
        signal: request.signal,
        info: input.info,
      });
      if (claimed) return { status: 201, body: presentBuildDetails(claimed, request.baseUrl) };
      return knowsNoContent(request.header("user-agent"))
        ? { status: 204, body: undefined }
        : { status: 404, body: { message: "404 Not Found" } };
    },
  },
  {
    method: "PUT",
    path: "/builds/:id",
    run: async ({ runtime, decode }) => {
      const input = decode(UpdateParams);
      await reportBuild(runtime, input.token, input.id, { state: input.state, trace: input.trace });
      return { status: 200, body: undefined };
    },
  },
  {
    method: "PATCH",
    path: "/builds/:id/trace.txt",
    rawBody: TRACE_CHUNK_LIMIT,
    run: async (request) => {
      const { id } = request.decode(BuildRef);
      const range = /^(\d+)-(\d+)$/.exec(request.header("content-range")?.trim() ?? "");
      if (!range) return { status: 400, body: { message: "400 Missing header Content-Range" } };
      const start = Number(range[1]);
      const result = await appendTrace(request.runtime, id, buildToken(request), start, request.body);
      const headers = { "Build-Status": result.status, Range: `0-${result.size}` };
      return {
        status: result.appended ? 202 : 416,
        body: undefined,
        raw: { ...EMPTY, headers, content: Buffer.alloc(0) },
      };
    },
  },
];
