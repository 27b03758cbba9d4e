import { createWriteStream, openAsBlob } from "node:fs";
import { arch, platform } from "node:process";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { type BuildDetails, buildDetailsSchema, registeredRunnerSchema } from "./api-schema.js";

/** The runner's name and version, as it tells the server in `info`. */
export const RUNNER_NAME = "kiln-runner";
export const RUNNER_VERSION = "0.1.0";

/**
 * GitLab 8.12+ answers an empty `builds/register` with 204 only to a User-Agent that matches
 * `gitlab-ci-multi-runner X.Y.Z ` (404 to anyone else), so the runner names the protocol version
 * it speaks (that of runner 1.11) before its own name.
 */
const USER_AGENT = `gitlab-ci-multi-runner 1.11.0 (${RUNNER_NAME} ${RUNNER_VERSION}; node ${process.version}; ${platform}/${arch})`;

/**
 * The server could not be reached (refused, reset, DNS) or cannot answer now (5xx, 408, 429):
 * worth trying again later, as after a restart.
 */
export class UnavailableError extends Error {}

/** What `runners/register` answered. */
export type RegisterAnswer =
  | { kind: "registered"; id: number; token: string }
  | { kind: "forbidden" }
  | { kind: "failed"; status: number; message: string };

/** What `builds/register` answered. */
export type BuildRequestAnswer =
  | { kind: "build"; build: BuildDetails }
  | { kind: "none" }
  | { kind: "forbidden" }
  | { kind: "failed"; status: number; message: string };

/** What `PATCH builds/:id/trace.txt` answered. */
export type TracePatchAnswer =
  | { kind: "appended"; length: number; canceled: boolean }
  | { kind: "range_mismatch"; length: number }
  | { kind: "unsupported" }
  | { kind: "forbidden" }
  | { kind: "failed"; status: number };

/** What `PUT builds/:id` answered: `gone` means the build is no longer this runner's to update. */
export type UpdateAnswer =
  | { kind: "ok" }
  | { kind: "gone"; status: number }
  | { kind: "failed"; status: number };

/** Every method throws {@link UnavailableError} when the answer is worth waiting for. */

/** What an artifacts upload or download answered. */
export type TransferAnswer = { kind: "ok" } | { kind: "refused"; status: number; message: string };

/** A 5xx or a throttle: the server is there but cannot answer now. */
function isTransientStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** The server's base URL as the user may write it: `http://host`, `http://host/`, `http://host/ci`. */
export function normalizeServerUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new TypeError(`--url must be an http(s) URL, got "${url}"`);
  return parsed.href.replace(/\/+$/, "").replace(/\/ci$/, "");
}

/** The client of the runner-facing API `/ci/api/v1` of GitLab 8.x, and nothing else. */
export class RunnerApi {
  private readonly base: string;

  constructor(serverUrl: string) {
    this.base = `${normalizeServerUrl(serverUrl)}/ci/api/v1`;
  }

  /** Registers a runner with the instance's registration token or a project's runners token. */
  async register(input: { token: string; description: string; tags: string[] }): Promise<RegisterAnswer> {
    const response = await this.send("POST", "/runners/register", {
      json: {
        token: input.token,
        description: input.description,
        tag_list: input.tags.join(","),
        info: runnerInfo(),
      },
    });
    if (response.status === 201) {
      const registered = registeredRunnerSchema.parse(await response.json());
      return { kind: "registered", ...registered };
    }
    if (response.status === 403) return drained(response, { kind: "forbidden" });
    return { kind: "failed", status: response.status, message: await response.text() };
  }

  /** Asks for a build; the server may hold the request open until one is ready. */
  async requestBuild(runnerToken: string, signal?: AbortSignal): Promise<BuildRequestAnswer> {
    const response = await this.send("POST", "/builds/register", {
      json: { token: runnerToken, info: runnerInfo() },
      ...(signal ? { signal } : {}),
    });
    if (response.status === 201) {
      const build = buildDetailsSchema.parse(await response.json());
      return { kind: "build", build };
    }
    // 404 is "nothing" too: what 8.5–8.11 answer, and 8.12+ to an unknown User-Agent.
    if (response.status === 204 || response.status === 404) return drained(response, { kind: "none" });
    if (response.status === 403) return drained(response, { kind: "forbidden" });
    return { kind: "failed", status: response.status, message: await response.text() };
  }

  /** `PUT builds/:id`: the build's state, and the whole trace when given (it replaces the stored one). */
  async updateBuild(
    runnerToken: string,
    buildId: number,
    state: "running" | "success" | "failed",
    trace?: string,
  ): Promise<UpdateAnswer> {
    const response = await this.send("PUT", `/builds/${buildId}`, {
      json: { token: runnerToken, state, ...(trace === undefined ? {} : { trace }), info: runnerInfo() },
    });
    await response.arrayBuffer();
    if (response.status === 200) return { kind: "ok" };
    if (response.status === 403 || response.status === 404) return { kind: "gone", status: response.status };
    return { kind: "failed", status: response.status };
  }

  /** `PATCH builds/:id/trace.txt`: appends `bytes` at `offset`; the answer says the stored length and state. */
  async patchTrace(
    buildId: number,
    buildToken: string,
    offset: number,
    bytes: Uint8Array,
  ): Promise<TracePatchAnswer> {
    const response = await this.send("PATCH", `/builds/${buildId}/trace.txt`, {
      body: bytes,
      headers: {
        "BUILD-TOKEN": buildToken,
        "Content-Range": `${offset}-${offset + bytes.length}`,
        "Content-Type": "text/plain",
      },
    });
    await response.arrayBuffer();
    const canceled = response.headers.get("build-status") === "canceled";
    const storedLength = rangeEnd(response.headers.get("range"));
    if (response.status === 202)
      return { kind: "appended", length: storedLength ?? offset + bytes.length, canceled };
    if (canceled || response.status === 403) return { kind: "forbidden" };
    if (response.status === 416 && storedLength !== null)
      return { kind: "range_mismatch", length: storedLength };
    // A server without the PATCH (8.6 and older) or a build that is gone: the caller falls back to PUT.
    if (response.status === 404 || response.status === 405) return { kind: "unsupported" };
    return { kind: "failed", status: response.status };
  }

  /** `POST builds/:id/artifacts`: uploads a zip as the multipart field `file`. */
  async uploadArtifacts(
    buildId: number,
    buildToken: string,
    input: { file: string; filename: string; expireIn?: string },
  ): Promise<TransferAnswer> {
    const form = new FormData();
    form.set("file", await openAsBlob(input.file, { type: "application/zip" }), input.filename);
    const query = input.expireIn ? `?expire_in=${encodeURIComponent(input.expireIn)}` : "";
    const response = await this.send("POST", `/builds/${buildId}/artifacts${query}`, {
      body: form,
      headers: { "BUILD-TOKEN": buildToken },
    });
    return transferAnswer(response, 201);
  }

  /** `GET builds/:id/artifacts` into `file`. */
  async downloadArtifacts(buildId: number, buildToken: string, file: string): Promise<TransferAnswer> {
    const response = await this.send("GET", `/builds/${buildId}/artifacts`, {
      headers: { "BUILD-TOKEN": buildToken },
    });
    if (response.status !== 200 || !response.body) return transferAnswer(response, 200);
    try {
      await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(file));
    } catch (error) {
      throw new UnavailableError(`artifacts of build ${buildId} cut off: ${(error as Error).message}`);
    }
    return { kind: "ok" };
  }

  private async send(
    method: string,
    path: string,
    request: {
      json?: unknown;
      body?: Uint8Array | FormData;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    },
  ): Promise<Response> {
    const headers: Record<string, string> = { "User-Agent": USER_AGENT, Accept: "application/json" };
    let body: string | Uint8Array | FormData | undefined = request.body;
    if (request.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(request.json);
    }
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: { ...headers, ...request.headers },
        // As BodyInit: type-checked with the DOM's lib too (the web pages' JSX), whose BodyInit
        // takes no Uint8Array over a SharedArrayBuffer; ours never is one.
        body: (body ?? null) as BodyInit | null,
        signal: request.signal ?? null,
      });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new UnavailableError(
        `${method} ${path}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      );
    }
    if (isTransientStatus(response.status)) {
      await response.arrayBuffer().catch(() => undefined);
      throw new UnavailableError(`${method} ${path}: answered ${response.status}`);
    }
    return response;
  }
}

function runnerInfo() {
  return {
    name: RUNNER_NAME,
    version: RUNNER_VERSION,
    revision: "",
    platform,
    architecture: arch,
    executor: "shell",
  };
}

async function drained<T>(response: Response, answer: T): Promise<T> {
  await response.arrayBuffer();
  return answer;
}

async function transferAnswer(response: Response, success: number): Promise<TransferAnswer> {
  const message = (await response.text()).slice(0, 500);
  if (response.status === success) return { kind: "ok" };
  return { kind: "refused", status: response.status, message };
}

/** The `<end>` of a `Range: 0-<end>` header (the stored trace's length), or null. */
function rangeEnd(header: string | null): number | null {
  const match = header ? /^\s*\d+-(\d+)\s*$/.exec(header) : null;
  return match ? Number(match[1]) : null;
}
