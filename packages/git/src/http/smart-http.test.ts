import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdir } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { createGzip, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bareRepo,
  git,
  gitOk,
  processesIn,
  type Sandbox,
  sandbox,
  startServer,
  type TestServer,
  workTree,
} from "./__tests__/harness.js";
import { PKT_FLUSH, pktLine } from "./pkt-line.js";
import type { ServiceRpcResult } from "./rpc.js";

let box: Sandbox;
let server: TestServer;
let source: string;
let head: string;

beforeAll(async () => {
  box = await sandbox();
  server = await startServer(box, { cacheRefListings: true }); // as Kiln's server runs it
  await bareRepo(box, "project");
  source = await workTree(box, "source", 5);
  head = await gitOk(box, ["rev-parse", "HEAD"], source);
  await gitOk(box, ["push", "--quiet", `${server.url}/project.git`, "main"], source);
});

afterAll(async () => {
  await server?.close();
  await box?.remove();
});

/** Sends one raw POST and answers the status, headers and body. */
function post(path: string, headers: Record<string, string>, body: Buffer) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(`${server.url}${path}`, { method: "POST", headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    },
  );
}

const uploadPackRequest = { "Content-Type": "application/x-git-upload-pack-request" };

describe("clone and fetch over smart HTTP", () => {
  for (const version of [2, 0]) {
    it(`clones with protocol v${version} and gets every commit`, async () => {
      const dest = join(box.root, `clone-v${version}`);
      await gitOk(box, [
        "-c",
        `protocol.version=${version}`,
        "clone",
        "--quiet",
        `${server.url}/project.git`,
        dest,
      ]);
      expect(await gitOk(box, ["rev-parse", "HEAD"], dest)).toBe(head);
      expect(await gitOk(box, ["rev-list", "--count", "HEAD"], dest)).toBe("5");
      const refs = server.requests.filter((seen) => seen.path === "/project.git/info/refs").at(-1);
      expect(refs?.headers["git-protocol"]).toBe(version === 2 ? "version=2" : undefined);
    });
  }

  it("fetches new commits, then a no-op fetch", async () => {
    const dest = join(box.root, "fetcher");
    await gitOk(box, ["clone", "--quiet", `${server.url}/project.git`, dest]);
    await writeCommit(source, "more.txt");
    await gitOk(box, ["push", "--quiet", `${server.url}/project.git`, "main"], source);
    const newHead = await gitOk(box, ["rev-parse", "HEAD"], source);
    for (const version of [0, 2]) {
      await gitOk(box, ["-c", `protocol.version=${version}`, "fetch", "--quiet", "origin"], dest);
      expect(await gitOk(box, ["rev-parse", "origin/main"], dest)).toBe(newHead);
    }
    head = newHead;
  });

  it("answers the advertisement with the service header (v0) and no-cache headers", async () => {
    const res = await fetch(`${server.url}/project.git/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-git-upload-pack-advertisement");
    expect(res.headers.get("cache-control")).toBe("no-cache, max-age=0, must-revalidate");
    const text = await res.text();
    expect(text.startsWith("001e# service=git-upload-pack\n0000")).toBe(true);
    expect(text).toContain(`${head} refs/heads/main`);

    const v2 = await fetch(`${server.url}/project.git/info/refs?service=git-upload-pack`, {
      headers: { "Git-Protocol": "version=2" },
    });
    expect((await v2.text()).startsWith("000eversion 2\n")).toBe(true);
    const push = await fetch(`${server.url}/project.git/info/refs?service=git-receive-pack`);
    expect(push.headers.get("content-type")).toBe("application/x-git-receive-pack-advertisement");
    expect((await push.text()).startsWith("001f# service=git-receive-pack\n0000")).toBe(true);
  });

  it("reads gzip request bodies, from git and by hand", async () => {
    // 40 new branches make the client's want list longer than 1 KiB, which git gzips.
    for (let i = 0; i < 40; i++) await gitOk(box, ["branch", `topic-${i}`, `HEAD~${i % 5}`], source);
    await gitOk(box, ["push", "--quiet", `${server.url}/project.git`, "--all"], source);
    const dest = join(box.root, "gzip-fetch");
    await gitOk(box, ["init", "--quiet", dest]);
    const before = server.requests.length;
    await gitOk(
      box,
      [
        "-c",
        "protocol.version=0",
        "fetch",
        "--quiet",
        `${server.url}/project.git`,
        "+refs/heads/*:refs/remotes/o/*",
      ],
      dest,
    );
    const posts = server.requests.slice(before).filter((seen) => seen.method === "POST");
    expect(posts.some((seen) => seen.headers["content-encoding"] === "gzip")).toBe(true);
    expect(await gitOk(box, ["rev-parse", "refs/remotes/o/topic-39"], dest)).toBe(
      await gitOk(box, ["rev-parse", "topic-39"], source),
    );

    const lsRefs = Buffer.concat([pktLine("command=ls-refs\n"), Buffer.from("0001"), Buffer.from(PKT_FLUSH)]);
    const res = await post(
      "/project.git/git-upload-pack",
      { ...uploadPackRequest, "Content-Encoding": "gzip", "Git-Protocol": "version=2" },
      gzipSync(lsRefs),
    );
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/x-git-upload-pack-result");
    expect(res.body.toString()).toContain(`${head} refs/heads/main`);
  });
});

describe("a disconnect or a bad request", () => {
  // Builds a repository big enough to be mid-pack when the client leaves: slow under CI's load.
  it("kills git's whole process group when the client goes away mid-clone", { timeout: 90_000 }, async () => {
    const { repo, want } = await bigRepo();
    const before = server.requests.length;
    await new Promise<void>((resolve, reject) => {
      const req = request(`${server.url}/big.git/git-upload-pack`, {
        method: "POST",
        headers: { ...uploadPackRequest, "Git-Protocol": "version=2" },
      });
      req.on("response", (res) => {
        res.once("data", () => {
          req.destroy(); // the client stops reading and hangs up after the first bytes of the pack
          resolve();
        });
      });
      req.on("error", () => undefined);
      req.on("close", resolve);
      req.end(fetchRequest(want));
      setTimeout(() => reject(new Error("no answer")), 10_000);
    });
    await server.settled();
    const result = server.requests[before]?.result as ServiceRpcResult;
    expect(result.failure).toBe("disconnected");
    expect(result.pid).toBeTypeOf("number");
    // SIGKILLed helpers (pack-objects) are reaped by init a moment later.
    expect(await groupGone(result.pid!)).toBe(true);
    expect(await processesIn(repo)).toEqual([]);
  });

  it("kills git and cuts the answer at the time limit", async () => {
    const { repo, want } = await bigRepo();
    server.rpcOptions = { timeoutMs: 300 };
    try {
      const before = server.requests.length;
      const received = await new Promise<number>((resolve) => {
        const req = request(`${server.url}/big.git/git-upload-pack`, {
          method: "POST",
          headers: { ...uploadPackRequest, "Git-Protocol": "version=2" },
        });
        let bytes = 0;
        req.on("response", (res) => {
          res.pause(); // a client too slow to read: git blocks on a full pipe until the limit
          res.on("error", () => undefined);
          res.on("close", () => resolve(bytes));
          setTimeout(() => {
            res.on("data", (chunk: Buffer) => {
              bytes += chunk.length;
            });
          }, 600);
        });
        req.on("error", () => resolve(-1));
        req.end(fetchRequest(want));
      });
      await server.settled();
      const result = server.requests[before]?.result as ServiceRpcResult;
      expect(result.failure).toBe("timeout");
      expect(received).toBeLessThan(24 * 1024 * 1024);
      expect(await groupGone(result.pid!)).toBe(true);
      expect(await processesIn(repo)).toEqual([]);
    } finally {
      server.rpcOptions = {};
    }
  });

  it("answers 415 to a POST of the wrong content type", async () => {
    const res = await post(
      "/project.git/git-upload-pack",
      { "Content-Type": "text/plain" },
      Buffer.from("0000"),
    );
    expect(res.status).toBe(415);
  });

  it("answers 400 to a body that claims gzip and is not, and keeps serving", async () => {
    const res = await post(
      "/project.git/git-upload-pack",
      { ...uploadPackRequest, "Content-Encoding": "gzip" },
      randomBytes(4096),
    );
    expect(res.status).toBe(400);
    expect((await fetch(`${server.url}/project.git/info/refs?service=git-upload-pack`)).status).toBe(200);
  });

  it("answers 400 to a request that is not git's protocol, for both services", async () => {
    const cases: [string, Buffer][] = [
      ["a length over the largest pkt-line", Buffer.from("ffff")],
      ["garbage", Buffer.from("zzzz garbage ".repeat(500))],
      ["a request that ends inside a pkt-line", Buffer.from("0032want 0123")],
      ["a request that ends early", pktLine(`want ${head}\n`)],
      ["lines git cannot read", Buffer.concat([pktLine("hello world\n"), Buffer.from(PKT_FLUSH)])],
    ];
    for (const service of ["git-upload-pack", "git-receive-pack"]) {
      for (const protocol of service === "git-upload-pack" ? [{ "Git-Protocol": "version=2" }, {}] : [{}]) {
        for (const [what, body] of cases) {
          const before = server.requests.length;
          const res = await post(
            `/project.git/${service}`,
            { "Content-Type": `application/x-${service}-request`, ...protocol },
            body,
          );
          const label = `${service} ${JSON.stringify(protocol)}: ${what}`;
          expect(res.status, label).toBe(400);
          expect(res.headers["content-type"], label).toBe("text/plain; charset=utf-8");
          expect(res.body.toString(), label).toMatch(/protocol error|hung up|unknown capability/);
          await server.settled();
          expect(server.requests[before]?.result?.failure, label).toBe("bad_body");
        }
      }
    }
    const gzipped = await post(
      "/project.git/git-upload-pack",
      { ...uploadPackRequest, "Content-Encoding": "gzip" },
      gzipSync(Buffer.from("ffff garbage")),
    );
    expect(gzipped.status).toBe(400);
    expect((await fetch(`${server.url}/project.git/info/refs?service=git-upload-pack`)).status).toBe(200);
  });

  it("answers 500 when git fails for the server's reasons, whatever the request", async () => {
    const broken = join(box.repos, "broken.git");
    await mkdir(broken);
    await writeFileBytes(join(broken, "HEAD"), Buffer.from("not a ref\n"));
    const before = server.requests.length;
    const res = await post(
      "/broken.git/git-upload-pack",
      uploadPackRequest,
      Buffer.concat([pktLine(`want ${head}\n`), Buffer.from(PKT_FLUSH), pktLine("done\n")]),
    );
    expect(res.status).toBe(500);
    expect(res.body.toString()).toBe("git failed\n");
    await server.settled();
    expect(server.requests[before]?.result?.failure).toBe("git_failed");
  });

  it("survives git hanging up on a large body (EPIPE on its stdin)", async () => {
    const before = server.requests.length;
    // Well-formed pkt-lines that git refuses at the first one, leaving megabytes unread.
    const line = pktLine(`${"z".repeat(1000)}\n`);
    const res = await post(
      "/project.git/git-upload-pack",
      uploadPackRequest,
      Buffer.concat(Array.from({ length: 8 * 1024 }, () => line)),
    ).catch(() => ({ status: 0 }));
    expect([0, 400]).toContain(res.status);
    await server.settled();
    expect(server.requests[before]?.result?.failure).toBe("bad_body");
    expect((await fetch(`${server.url}/project.git/info/refs?service=git-upload-pack`)).status).toBe(200);
  });

  it("decompresses a gzip bomb only as far as git reads, and keeps serving", async () => {
    const bomb = await gzipBomb(512);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const heap = process.memoryUsage().rss;
    const res = await post(
      "/project.git/git-upload-pack",
      { ...uploadPackRequest, "Content-Encoding": "gzip", "Git-Protocol": "version=2" },
      bomb,
    ).catch(() => ({ status: 0 }));
    expect([0, 200, 400, 413, 500]).toContain(res.status);
    expect(process.memoryUsage().rss - heap).toBeLessThan(200 * 1024 * 1024);
    const dest = join(box.root, "after-bomb");
    await gitOk(box, ["clone", "--quiet", `${server.url}/project.git`, dest]);
  });

  it("answers 413 when the decompressed body passes the cap", async () => {
    server.rpcOptions = { maxBodyBytes: 64 * 1024 };
    try {
      const work = await workTree(box, "toolarge", 0);
      await writeFileBytes(join(work, "big.bin"), randomBytes(512 * 1024));
      await gitOk(box, ["add", "."], work);
      await gitOk(box, ["commit", "--quiet", "-m", "too large"], work);
      const before = server.requests.length;
      const run = await git(box, ["push", `${server.url}/project.git`, "main:refs/heads/too-large"], work);
      expect(run.code).not.toBe(0);
      await server.settled();
      const results = server.requests.slice(before).map((seen) => seen.result?.failure);
      expect(results).toContain("too_large");
      const remote = await git(box, ["ls-remote", `${server.url}/project.git`, "refs/heads/too-large"]);
      expect(remote.stdout).toBe("");
    } finally {
      server.rpcOptions = {};
    }
  });
});

let big: Promise<{ repo: string; want: string }> | undefined;

/** A repository with one 24 MiB incompressible blob: a clone of it takes a while to stream. */
function bigRepo() {
  big ??= (async () => {
    const work = await workTree(box, "big", 0);
    await writeFileBytes(join(work, "blob.bin"), randomBytes(24 * 1024 * 1024));
    await gitOk(box, ["add", "."], work);
    await gitOk(box, ["commit", "--quiet", "-m", "big"], work);
    const repo = await bareRepo(box, "big");
    await gitOk(box, ["push", "--quiet", `${server.url}/big.git`, "main"], work);
    return { repo, want: await gitOk(box, ["rev-parse", "HEAD"], work) };
  })();
  return big;
}

/** A protocol v2 fetch request for one commit. */
function fetchRequest(want: string): Buffer {
  return Buffer.concat([
    pktLine("command=fetch\n"),
    Buffer.from("0001"),
    pktLine(`want ${want}\n`),
    pktLine("done\n"),
    Buffer.from(PKT_FLUSH),
  ]);
}

/** `mebibytes` MiB of "0" characters, gzipped without holding them in memory. */
async function gzipBomb(mebibytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => chunks.push(chunk));
  const zeros = Buffer.alloc(1024 * 1024, "0");
  for (let i = 0; i < mebibytes; i++) gzip.write(zeros);
  gzip.end();
  await once(gzip, "end");
  return Buffer.concat(chunks);
}

async function groupGone(pgid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function writeCommit(dir: string, file: string): Promise<void> {
  await writeFileBytes(join(dir, file), Buffer.from(`${file} ${Date.now()}\n`));
  await gitOk(box, ["add", "."], dir);
  await gitOk(box, ["commit", "--quiet", "-m", `add ${file}`], dir);
}

async function writeFileBytes(path: string, data: Buffer): Promise<void> {
  const { writeFile } = await import("node:fs/promises");
  await writeFile(path, data);
}
