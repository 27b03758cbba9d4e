// Baseline (h): `git http-backend`, git's own smart-HTTP CGI, run per request by the thinnest
// node:http server, on the repositories under GIT_PROJECT_ROOT (Kiln's data dir). No
// authentication; receive-pack is on (REMOTE_USER is set). GET /__stats answers the number of git
// requests and their summed wall time (arrival to the end of the answer). Prints its port as a
// JSON line.
import { spawn } from "node:child_process";
import { createServer } from "node:http";

const ROOT = process.env.GIT_PROJECT_ROOT;
if (!ROOT) throw new Error("GIT_PROJECT_ROOT is required");
const ROUTE = /^\/([1-9]\d*\.git)\/(info\/refs|git-upload-pack|git-receive-pack)$/;
const stats = { requests: 0, wallMs: 0 };

// Git without the machine's configuration, as Kiln runs it.
const baseEnv = {
  PATH: process.env.PATH,
  HOME: ROOT,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_PROJECT_ROOT: ROOT,
  GIT_HTTP_EXPORT_ALL: "1",
  REMOTE_USER: "bench",
  REMOTE_ADDR: "127.0.0.1",
};

function backend(req, res, path, search) {
  const env = { ...baseEnv, REQUEST_METHOD: req.method, PATH_INFO: path, QUERY_STRING: search };
  const optional = {
    CONTENT_TYPE: req.headers["content-type"],
    CONTENT_LENGTH: req.headers["content-length"],
    HTTP_CONTENT_ENCODING: req.headers["content-encoding"],
    HTTP_GIT_PROTOCOL: req.headers["git-protocol"],
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) env[key] = value;
  const child = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "ignore"] });
  req.pipe(child.stdin);
  child.stdin.on("error", () => undefined);
  res.on("close", () => {
    if (!res.writableFinished) child.kill("SIGKILL");
  });
  let head = Buffer.alloc(0);
  let streaming = false;
  child.stdout.on("data", (chunk) => {
    if (streaming) {
      if (!res.write(chunk)) {
        child.stdout.pause();
        res.once("drain", () => child.stdout.resume());
      }
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) return;
    let status = 200;
    const headers = {};
    for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    streaming = true;
    res.write(head.subarray(end + 4));
  });
  child.on("close", () => res.end());
}

const server = createServer((req, res) => {
  const started = process.hrtime.bigint();
  const [path = "/", search = ""] = (req.url ?? "/").split("?", 2);
  if (path === "/__stats") {
    res.writeHead(200, { "Content-Type": "application/json" });
    return res.end(JSON.stringify(stats));
  }
  if (!ROUTE.test(path)) return res.writeHead(404).end();
  res.on("close", () => {
    stats.requests += 1;
    stats.wallMs += Number(process.hrtime.bigint() - started) / 1e6;
  });
  backend(req, res, path, search);
});
server.requestTimeout = 0;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  process.stdout.write(`${JSON.stringify({ msg: "listening", port })}\n`);
});
process.once("SIGTERM", () => process.exit(0));
