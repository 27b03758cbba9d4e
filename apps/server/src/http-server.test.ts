import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mountTable } from "./app.js";
import { createHttpServer, type Mount, type MountHandler, under } from "./http-server.js";

/** A handler that answers its mount's name and the path it was given, as JSON. */
const answering =
  (name: string): MountHandler =>
  async (req, res) => {
    const body = JSON.stringify({ mount: name, url: req.url });
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
    return { status: 200, userId: 7 };
  };

const logLines: Record<string, unknown>[] = [];
const log = pino({ base: null }, { write: (line: string) => logLines.push(JSON.parse(line)) });

let server: Server;
let origin: string;

beforeAll(async () => {
  const mounts: Mount[] = [
    ...mountTable({
      api: answering("api_v3"),
      trpc: answering("trpc"),
      runner: answering("runner_api"),
      uploads: answering("uploads"),
      git: answering("git"),
      web: answering("web"),
    }),
    {
      name: "throws",
      matches: under("/throws"),
      handler: () => {
        throw new Error("thrown, not rejected");
      },
    },
    {
      name: "half",
      matches: under("/half"),
      handler: async (_req, res) => {
        res.writeHead(200, { "Content-Type": "text/plain", "Content-Length": 100 });
        res.write("the first part");
        throw new Error("failed mid-answer");
      },
    },
  ];
  server = createHttpServer(mounts, log);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Which mount served a request: its name, or the front door's status when none did. */
async function servedBy(method: string, path: string): Promise<string | number> {
  const res = await fetch(`${origin}${path}`, { method });
  if (res.status !== 200) return res.status;
  if (method === "HEAD") return "head";
  return ((await res.json()) as { mount: string }).mount;
}

describe("the front door's mount table", () => {
  it("gives each mount its paths, tRPC's beside the API's", async () => {
    const cases: [string, string, string | number][] = [
      ["GET", "/api/trpc", "trpc"],
      ["POST", "/api/trpc/issues.list?batch=1", "trpc"],
      ["GET", "/api/trpcx", 404],
      ["GET", "/api/v3", "api_v3"],
      ["GET", "/api/v3?private_token=x", "api_v3"],
      ["DELETE", "/api/v3/projects/1", "api_v3"],
      ["GET", "/api/v3x/user", 404],
      ["GET", "/api/v4/user", 404],
      ["POST", "/ci/api/v1/builds/register", "runner_api"],
      ["PATCH", "/ci/api/v1/builds/1/trace.txt", "runner_api"],
      ["GET", "/ci/api/v2/builds", 404],
      ["GET", "/alice/app/uploads/0123abcd/a.png", "uploads"],
      ["HEAD", "/alice/app/uploads/0123abcd/a.png", "head"],
      ["POST", "/alice/app/uploads/0123abcd/a.png", 404],
      ["GET", "/alice/app.git/info/refs?service=git-upload-pack", "git"],
      ["POST", "/alice/app.git/git-receive-pack", "git"],
      ["GET", "/alice/app.git/git-receive-pack", 404],
      ["GET", "/", "web"],
      ["GET", "/nowhere", 404],
    ];
    for (const [method, path, expected] of cases) {
      expect(await servedBy(method, path), `${method} ${path}`).toBe(expected);
    }
  });

  it("hands the mount the request as it came, query string included", async () => {
    const res = await fetch(`${origin}/api/trpc/a?b=c`);
    expect(await res.json()).toEqual({ mount: "trpc", url: "/api/trpc/a?b=c" });
  });

  it("answers the v3 404 where no mount matches", async () => {
    const res = await fetch(`${origin}/nowhere`, { method: "POST", body: "x".repeat(10_000) });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.text()).toBe('{"message":"404 Not Found"}');
  });

  it("answers 500 for a handler that throws, and cuts off an answer failing halfway", async () => {
    const thrown = await fetch(`${origin}/throws`);
    expect(thrown.status).toBe(500);
    expect(await thrown.text()).toBe('{"message":"500 Internal Server Error"}');
    const half = await fetch(`${origin}/half`);
    expect(half.status).toBe(200);
    await expect(half.text()).rejects.toThrow();
    expect(await servedBy("GET", "/api/v3/user")).toBe("api_v3");
  });

  it("logs one request line per request, naming the mount that served it", async () => {
    logLines.length = 0;
    await servedBy("GET", "/api/trpc/x?private_token=secret");
    await servedBy("GET", "/nowhere");
    await fetch(`${origin}/throws`);
    const requests = logLines.filter((line) => line["msg"] === "request");
    expect(
      requests.map((line) => [line["method"], line["path"], line["status"], line["user_id"], line["mount"]]),
    ).toEqual([
      ["GET", "/api/trpc/x", 200, 7, "trpc"],
      ["GET", "/nowhere", 404, null, null],
      ["GET", "/throws", 500, null, "throws"],
    ]);
    expect(logLines.filter((line) => line["msg"] === "request failed")).toHaveLength(1);
    expect(JSON.stringify(logLines)).not.toContain("secret");
  });
});
