import { existsSync, readdirSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { beforeAll, beforeEach, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";

// A client that stops sending a body (it declared more than it sent and closed, or broke the
// chunked framing) is at fault or gone: the request is a 400 in the access log, never a 500, and
// nothing is logged as an internal error. JSON, forms, multipart fields and uploaded files alike.

const BOUNDARY = "kilncut";
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** The opening of a multipart part, its content to follow. */
const partHead = (disposition: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n`;

/** A request head with `framing` (`Content-Length: n` or `Transfer-Encoding: chunked`). */
function head(path: string, type: string, framing: string, token?: string): string {
  const auth = token === undefined ? "" : `PRIVATE-TOKEN: ${token}\r\n`;
  return `POST /api/v3${path} HTTP/1.1\r\nHost: kiln\r\n${auth}Content-Type: ${type}\r\n${framing}\r\n\r\n`;
}

/**
 * Sends `bytes` on a new connection and ends its side (or resets it, when `reset`), reading
 * whatever comes back until the server closes; answers the status line, if any.
 */
function sendAndStop(port: number, bytes: string, reset = false): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    socket.on("error", () => undefined);
    socket.once("close", () => resolve(received.split("\r\n", 1)[0] ?? ""));
    socket.write(bytes, () => (reset ? socket.resetAndDestroy() : socket.end()));
  });
}

onEachDatabase("bodies that never arrive whole", (ctx) => {
  let token: string;
  let projectId: number;

  /** The access log's lines for `POST /api/v3<path>` since `since` (an ISO time). */
  const served = (path: string, since: string) =>
    ctx().server.logs.filter(
      (line) =>
        line["msg"] === "request" &&
        line["method"] === "POST" &&
        line["path"] === `/api/v3${path}` &&
        String(line["time"]) >= since,
    );
  let logsBefore = 0;
  /** The error lines logged since the test began. */
  const errorLines = () =>
    ctx()
      .server.logs.slice(logsBefore)
      .filter((line) => line["level"] === "error");
  beforeEach(() => {
    logsBefore = ctx().server.logs.length;
  });

  /** Sends a cut request to `path` and answers what the client read and the status the server logged. */
  async function cut(path: string, bytes: string, reset = false) {
    const since = new Date().toISOString();
    const answered = await sendAndStop(ctx().server.port, bytes, reset);
    // Log lines are written every 200 ms.
    const deadline = Date.now() + 10_000;
    while (served(path, since).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { answered, logged: served(path, since)[0]?.["status"] };
  }

  beforeAll(async () => {
    token = ctx().root.token;
    const project = await ctx().api({ method: "POST", path: "/projects", token, json: { name: "cut" } });
    projectId = (project.body as { id: number }).id;
  });

  it("answers a JSON or form body cut short with 400 and logs no internal error", async () => {
    const json = `${head("/session", "application/json", "Content-Length: 1000")}{"login":`;
    expect(await cut("/session", json)).toEqual({ answered: "HTTP/1.1 400 Bad Request", logged: 400 });
    expect(await cut("/session", json, true)).toMatchObject({ logged: 400 });
    const form = `${head("/users", "application/x-www-form-urlencoded", "Content-Length: 500", token)}name=a`;
    expect(await cut("/users", form)).toEqual({ answered: "HTTP/1.1 400 Bad Request", logged: 400 });
    expect(errorLines()).toEqual([]);
  });

  it("answers broken chunked framing with 400 and logs no internal error", async () => {
    const chunked = "Transfer-Encoding: chunked";
    expect(await cut("/session", `${head("/session", "application/json", chunked)}zz\r\n`)).toEqual({
      answered: "HTTP/1.1 400 Bad Request",
      logged: 400,
    });
    const uploads = `/projects/${projectId}/uploads`;
    const upload = `${head(uploads, MULTIPART, chunked, token)}40\r\n${partHead('name="file"; filename="a.txt"')}zz\r\n`;
    expect(await cut(uploads, upload)).toEqual({ answered: "HTTP/1.1 400 Bad Request", logged: 400 });
    expect(errorLines()).toEqual([]);
  });

  it("answers multipart fields or an uploaded file cut short with 400 and logs no internal error", async () => {
    const fields = `${head("/session", MULTIPART, "Content-Length: 5000")}${partHead('name="login"')}ro`;
    expect(await cut("/session", fields)).toEqual({ answered: "HTTP/1.1 400 Bad Request", logged: 400 });
    const uploads = `/projects/${projectId}/uploads`;
    const file = `${head(uploads, MULTIPART, "Content-Length: 50000", token)}${partHead('name="file"; filename="a.txt"')}${"x".repeat(1000)}`;
    expect(await cut(uploads, file)).toEqual({ answered: "HTTP/1.1 400 Bad Request", logged: 400 });
    expect(await cut(uploads, file, true)).toMatchObject({ logged: 400 });
    expect(errorLines()).toEqual([]);
    const tempDir = join(ctx().server.dataDir, "tmp", "uploads");
    expect(existsSync(tempDir) ? readdirSync(tempDir) : []).toEqual([]);
    expect((await ctx().api({ path: "/user", token })).status).toBe(200);
  });
});
