// A plain node:http git server for the clone benchmark. MODE=kiln serves through @kiln/git
// (upload-pack/receive-pack --stateless-rpc, push gate); MODE=cgi spawns `git http-backend` per
// request. Both serve every `<name>.git` under REPOS and count, per request, the wall time from
// arrival to the end of the answer; GET /__stats answers the totals with the CPU time of this
// process and of the git processes it reaped (from /proc/self/stat).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { advertiseRefs, gitEnvironment, PushGate, parseGitService, serviceRpc } from "../dist/index.js";

const MODE = process.env.MODE ?? "kiln";
const REPOS = process.env.REPOS;
const ROUTE = /^\/([A-Za-z0-9_-]+\.git)\/(info\/refs|git-upload-pack|git-receive-pack)$/;
const gate = new PushGate({ runtimeDir: process.env.RUNTIME_DIR ?? REPOS });
const stats = { requests: 0, wallMs: 0 };

function cpuMs() {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = (i) => Number(fields[i]) * 10; // CLK_TCK = 100
  return { node: ticks(11) + ticks(12), children: ticks(13) + ticks(14) };
}

function kiln(req, res, repo, action, url) {
  const gitDir = join(REPOS, repo);
  if (action === "info/refs") {
    const service = parseGitService(url.searchParams.get("service"));
    if (!service) return res.writeHead(403).end();
    return advertiseRefs(gitDir, service, res, { gitProtocol: req.headers["git-protocol"] });
  }
  const service = parseGitService(action);
  const push = { gate, authorize: () => [] };
  return serviceRpc(gitDir, service, req, res, service === "git-receive-pack" ? { push } : {});
}

function cgi(req, res, repo, action, url) {
  const env = gitEnvironment({
    GIT_PROJECT_ROOT: REPOS,
    GIT_HTTP_EXPORT_ALL: "1",
    REMOTE_USER: "bench", // enables receive-pack
    REMOTE_ADDR: "127.0.0.1",
    REQUEST_METHOD: req.method,
    PATH_INFO: `/${repo}/${action}`,
    QUERY_STRING: url.search.slice(1),
    CONTENT_TYPE: req.headers["content-type"],
    CONTENT_LENGTH: req.headers["content-length"],
    HTTP_CONTENT_ENCODING: req.headers["content-encoding"],
    HTTP_GIT_PROTOCOL: req.headers["git-protocol"],
  });
  const child = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "ignore"] });
  req.pipe(child.stdin);
  child.stdin.on("error", () => undefined);
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
  return new Promise((resolve) => {
    child.on("close", () => {
      res.end();
      resolve();
    });
  });
}

const server = createServer((req, res) => {
  const started = process.hrtime.bigint();
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname === "/__stats") {
    res.writeHead(200, { "Content-Type": "application/json" });
    return res.end(JSON.stringify({ ...stats, cpu: cpuMs() }));
  }
  const match = ROUTE.exec(url.pathname);
  if (!match) return res.writeHead(404).end();
  res.on("close", () => {
    stats.requests += 1;
    stats.wallMs += Number(process.hrtime.bigint() - started) / 1e6;
  });
  (MODE === "cgi" ? cgi : kiln)(req, res, match[1], match[2], url);
});
server.requestTimeout = 0;
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
process.on("SIGTERM", () => {
  server.close();
  gate.close().then(() => process.exit(0));
});
