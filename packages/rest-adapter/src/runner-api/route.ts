import type { ServiceRuntime } from "@kiln/services";
import type { z } from "zod";
import type { Params } from "../request/params.js";
import type { FileField, Reply } from "../route.js";

/** One request to the runner API, as its routes see it. */
export interface RunnerRequest {
  runtime: ServiceRuntime;
  /** `KILN_BASE_URL` without a trailing slash (repository URLs handed to runners). */
  baseUrl: string;
  /** The query string, body and path parameters merged (path last), not yet decoded. */
  params: Params;
  /**
   * The parameters decoded with `schema`: a missing or bad one is a 400, but a path parameter
   * that fails (`/builds/abc`) means no such resource, a 404, as 8.x answers.
   */
  decode<S extends z.ZodObject>(schema: S): z.output<S>;
  /** A request header's value. */
  header(name: string): string | undefined;
  /** The body's bytes, for routes that take them raw ({@link RunnerRoute.rawBody}); else empty. */
  body: Buffer;
  /** Aborted when the client went away (a long poll stops waiting). */
  signal: AbortSignal;
  /** How long a runner's request for a build may wait, in ms. */
  buildWaitMs: number;
}

/** A row of the runner API's table. */
export interface RunnerRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Relative to `/ci/api/v1`, with `:name` segments. */
  path: string;
  /** The uploaded file the route takes (artifacts), received into the data dir's temp dir. */
  files?: FileField;
  /** The largest raw body the route takes as bytes (a trace chunk), instead of parameters. */
  rawBody?: number;
  run(request: RunnerRequest): Promise<Reply>;
}
