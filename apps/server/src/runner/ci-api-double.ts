import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { BuildDetails } from "./api-schema.js";

/**
 * A TEST DOUBLE OF THE GITLAB 8.x RUNNER API CONTRACT (`/ci/api/v1`, gitlab-8x.md §3.18), not of
 * Kiln: for the runner package's own unit tests only, where a real server cannot reach the state
 * a test needs (a PATCH that is not supported, a 416, a server that is down for a while). It
 * answers each request the way 8.x's `lib/ci/api/*.rb` documents, keeps what it was sent, and
 * nothing more. The end-to-end test (`apps/server/test/runner.test.ts`) uses the real server.
 */
export class CiApiDouble {
  readonly registrationToken = "registration-token";
  readonly runnerToken = "runner-token";
  /** Builds waiting for a runner, handed out in order. */
  readonly queue: BuildDetails[] = [];
  readonly traces = new Map<number, Buffer>();
  readonly states = new Map<number, string>();
  readonly artifacts = new Map<number, { filename: string; bytes: Buffer; expireIn: string | null }>();
  /** Every trace PATCH: its Content-Range and how many bytes it carried. */
  readonly patches: { id: number; range: string; bytes: number }[] = [];
  /** Every `PUT builds/:id`: its state and whether it carried the trace. */
  readonly updates: { id: number; state: string; withTrace: boolean }[] = [];
  /** As a server of 8.6 and older: no `PATCH trace.txt` (404). */
  patchSupported = true;
  /** Answer every request with this status while set (a server restarting behind a proxy). */
  outage: number | null = null;
  /** How many requests the outage answered. */
  refused = 0;
  private server: Server | null = null;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Queues a build for the runner; answers it. */
  enqueue(build: BuildDetails): BuildDetails {
    this.queue.push(build);
    this.states.set(build.id, "pending");
    return build;
  }

  /** Cancels a build, as a user's cancel in the UI does. */
  cancel(id: number): void {
    this.states.set(id, "canceled");
  }

  trace(id: number): string {
    return (this.traces.get(id) ?? Buffer.alloc(0)).toString();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (this.outage !== null) {
      this.refused++;
      return void res.writeHead(this.outage).end();
    }
    const url = new URL(req.url ?? "/", "http://double");
    const path = url.pathname.replace(/^\/ci\/api\/v1/, "");
    const json = () => JSON.parse(body.toString() || "{}") as Record<string, unknown>;
    const send = (status: number, value?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": "application/json", ...headers });
      res.end(value === undefined ? undefined : JSON.stringify(value));
    };
    if (req.method === "POST" && path === "/runners/register") {
      return json()["token"] === this.registrationToken
        ? send(201, { id: 1, token: this.runnerToken })
        : send(403, { message: "403 Forbidden" });
    }
    if (req.method === "POST" && path === "/builds/register") {
      if (json()["token"] !== this.runnerToken) return send(403, { message: "403 Forbidden" });
      const build = this.queue.shift();
      if (!build) return send(204);
      this.states.set(build.id, "running");
      return send(201, build);
    }
    const match = /^\/builds\/(\d+)(\/trace\.txt|\/artifacts)?$/.exec(path);
    const id = Number(match?.[1]);
    const state = this.states.get(id);
    if (!match || state === undefined) return send(404, { message: "404 Not found" });
    const tokenOk = req.headers["build-token"] === this.buildToken(id);
    if (req.method === "PUT" && !match[2]) {
      const params = json();
      if (params["token"] !== this.runnerToken) return send(403, { message: "403 Forbidden" });
      if (state !== "running") return send(404, { message: "404 Not found" });
      if (typeof params["trace"] === "string") this.traces.set(id, Buffer.from(params["trace"]));
      this.updates.push({
        id,
        state: String(params["state"]),
        withTrace: typeof params["trace"] === "string",
      });
      if (params["state"] === "success" || params["state"] === "failed")
        this.states.set(id, String(params["state"]));
      return send(200, { id });
    }
    if (req.method === "PATCH" && match[2] === "/trace.txt") {
      if (!this.patchSupported) return send(404, { message: "404 Not found" });
      if (!tokenOk) return send(403, { message: "403 Forbidden" });
      const range = req.headers["content-range"];
      if (typeof range !== "string") return send(400, { message: "400 Missing header Content-Range" });
      const current = this.traces.get(id) ?? Buffer.alloc(0);
      this.patches.push({ id, range, bytes: body.length });
      if (Number(range.split("-")[0]) !== current.length)
        return send(416, { message: "416 Range Not Satisfiable" }, { Range: `0-${current.length}` });
      const appended = Buffer.concat([current, body]);
      this.traces.set(id, appended);
      return send(202, undefined, { "Build-Status": state, Range: `0-${appended.length}` });
    }
    if (req.method === "POST" && match[2] === "/artifacts") {
      if (!tokenOk || state !== "running") return send(403, { message: "403 Forbidden" });
      const form = await new Request("http://double", {
        method: "POST",
        headers: { "content-type": String(req.headers["content-type"]) },
        body: body as BodyInit,
      }).formData();
      const file = form.get("file");
      if (!(file instanceof File))
        return send(400, { message: '400 (Bad request) "Missing artifacts file!" not given' });
      this.artifacts.set(id, {
        filename: file.name,
        bytes: Buffer.from(await file.arrayBuffer()),
        expireIn: url.searchParams.get("expire_in"),
      });
      return send(201, { id });
    }
    if (req.method === "GET" && match[2] === "/artifacts") {
      if (!tokenOk) return send(403, { message: "403 Forbidden" });
      const stored = this.artifacts.get(id);
      if (!stored) return send(404, { message: "404 Not found" });
      res.writeHead(200, { "Content-Type": "application/zip" });
      return void res.end(stored.bytes);
    }
    return send(404, { message: "404 Not found" });
  }

  /** The doubles' builds carry the token `build-token-<id>`. */
  buildToken(id: number): string {
    return `build-token-${id}`;
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
