import { execFileSync, spawnSync } from "node:child_process";
import { chmod, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  bareRepo,
  commits,
  gitOk,
  type Sandbox,
  sandbox,
  startServer,
  type TestServer,
  workTree,
} from "./__tests__/harness.js";
import { PKT_FLUSH, pktLine } from "./pkt-line.js";
import {
  MAX_LISTING_BYTES,
  MAX_REF_DIRECTORIES,
  RefListingCache,
  refListingCache,
  refsFingerprint,
} from "./ref-listings.js";
import { startsWithLsRefs } from "./request-start.js";

let box: Sandbox;
let server: TestServer;
let repo: string;
let work: string;
let spawnLog: string;
let realGit: string;
const originalPath = process.env.PATH;

beforeAll(async () => {
  box = await sandbox();
  // The server's git (spawnGit reads PATH at each spawn) goes through a wrapper that logs its
  // arguments, then execs the real git: a spawn observer that mocks nothing. The client's git,
  // run with the sandbox's environment, does not.
  realGit = execFileSync("sh", ["-c", "command -v git"], { env: box.env }).toString().trim();
  const bin = join(box.root, "bin");
  spawnLog = join(box.root, "spawned.log");
  await mkdir(bin);
  await writeFile(spawnLog, "");
  await writeFile(join(bin, "git"), `#!/bin/sh\necho "$*" >> '${spawnLog}'\nexec '${realGit}' "$@"\n`);
  await chmod(join(bin, "git"), 0o755);
  process.env.PATH = `${bin}:${originalPath}`;
  server = await startServer(box, { cacheRefListings: true });
  repo = await bareRepo(box, "listed");
  work = await workTree(box, "listed-work", 3);
  await gitOk(box, ["tag", "v1", "HEAD~1"], work);
  await gitOk(box, ["push", "--quiet", `${server.url}/listed.git`, "main", "v1"], work);
});

afterAll(async () => {
  process.env.PATH = originalPath;
  await server?.close();
  await box?.remove();
});

beforeEach(() => {
  refListingCache.clear();
});

/** How many `ls-refs`/`fetch` upload-packs (not advertisements) the server started so far. */
async function uploadPacks(): Promise<number> {
  const lines = (await readFile(spawnLog, "utf8")).split("\n");
  return lines.filter((line) => / upload-pack --stateless-rpc --strict /.test(` ${line} `)).length;
}

/**
 * Makes the repository's ref files look untouched for a while, as they are between the pushes
 * of a real repository: a listing is only remembered once its refs' mtimes are older than the
 * file system's timestamp granularity (two seconds). Every ref change after this stamps "now".
 */
async function settle(gitDir: string): Promise<void> {
  const past = new Date(Date.now() - 10_000);
  const touch = async (path: string) => utimes(path, past, past).catch(() => undefined);
  for (const name of ["HEAD", "packed-refs", "config", "shallow"]) await touch(join(gitDir, name));
  const walk = async (dir: string): Promise<void> => {
    await touch(dir);
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(join(dir, entry.name));
    }
  };
  await walk(join(gitDir, "refs"));
}

/** A protocol v2 `ls-refs` request as git 2.39's `git fetch` sends it. */
function lsRefsBody(prefixes = ["HEAD", "refs/heads/", "refs/tags/"]): Buffer {
  return Buffer.concat([
    pktLine("command=ls-refs\n"),
    pktLine("agent=git/2.39.5\n"),
    pktLine("object-format=sha1\n"),
    Buffer.from("0001"),
    pktLine("peel\n"),
    pktLine("symrefs\n"),
    pktLine("unborn\n"),
    ...prefixes.map((prefix) => pktLine(`ref-prefix ${prefix}\n`)),
    Buffer.from(PKT_FLUSH),
  ]);
}

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
}

/** One raw POST to a repository's git-upload-pack. */
function post(name: string, body: Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/${name}.git/git-upload-pack`,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/x-git-upload-pack-request",
          "Git-Protocol": "version=2",
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** What git itself answers to `body`, run directly on the repository (not through the observer). */
function gitAnswer(gitDir: string, body: Buffer): Buffer {
  const run = spawnSync(realGit, ["upload-pack", "--stateless-rpc", "--strict", gitDir], {
    input: body,
    env: { ...box.env, GIT_PROTOCOL: "version=2" },
  });
  if (run.status !== 0) throw new Error(`git upload-pack exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

/** The real client's `git ls-remote --symref` (protocol v2: info/refs, then one ls-refs). */
async function lsRemote(name = "listed"): Promise<string> {
  return gitOk(box, ["-c", "protocol.version=2", "ls-remote", "--symref", `${server.url}/${name}.git`]);
}

/** Runs `ls-remote` and answers its output and whether the server started git for the ls-refs. */
async function listed(name = "listed"): Promise<{ output: string; ranGit: boolean }> {
  const before = await uploadPacks();
  const output = await lsRemote(name);
  return { output, ranGit: (await uploadPacks()) > before };
}

const serverGit = (args: string[]) => gitOk(box, ["--git-dir", repo, ...args]);

describe("ls-refs served from memory", () => {
  it("answers a second identical ls-refs without git, byte for byte what git answers", async () => {
    await settle(repo);
    const body = lsRefsBody();
    const before = await uploadPacks();
    const first = await post("listed", body);
    await server.settled();
    expect(server.requests.at(-1)?.result?.pid).toBeTypeOf("number");
    expect(await uploadPacks()).toBe(before + 1);

    const second = await post("listed", body);
    await server.settled();
    expect(await uploadPacks()).toBe(before + 1);
    expect(server.requests.at(-1)?.result).toEqual({ ok: true, exitCode: 0, stderr: "" });
    expect(second.status).toBe(200);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.body.equals(gitAnswer(repo, body))).toBe(true);
    for (const header of ["content-type", "cache-control", "expires", "pragma"]) {
      expect(second.headers[header]).toBe(first.headers[header]);
    }
    expect(second.headers["content-length"]).toBe(String(first.body.length));
    expect(second.body.toString()).toContain(`${await serverGit(["rev-parse", "main"])} refs/heads/main`);
    expect(refListingCache.size().entries).toBe(1);
  });

  it("serves the real client's ls-remote and a no-op fetch from memory", async () => {
    await settle(repo);
    expect((await listed()).ranGit).toBe(true);
    const again = await listed();
    expect(again.ranGit).toBe(false);
    expect(again.output).toContain("ref: refs/heads/main\tHEAD");
    expect(again.output).toContain(`${await serverGit(["rev-parse", "v1"])}\trefs/tags/v1`);

    const dest = join(box.root, "noop-fetch");
    await gitOk(box, ["clone", "--quiet", `${server.url}/listed.git`, dest]);
    await gitOk(box, ["fetch", "--quiet", "origin"], dest); // its ref-prefixes are not the clone's
    const before = await uploadPacks();
    await gitOk(box, ["fetch", "--quiet", "origin"], dest);
    await gitOk(box, ["fetch", "--quiet", "origin"], dest);
    expect(await uploadPacks()).toBe(before); // no-op fetches: one ls-refs each, from memory
  });

  it("shows every change of the refs, whatever made it", async () => {
    const changes: [string, () => Promise<void>, (output: string) => Promise<void>][] = [
      [
        "a push",
        async () => {
          await commits(box, work, 1, "pushed");
          await gitOk(box, ["push", "--quiet", `${server.url}/listed.git`, "main"], work);
        },
        async (output) => {
          expect(output).toContain(`${await gitOk(box, ["rev-parse", "main"], work)}\trefs/heads/main`);
        },
      ],
      [
        "a branch made with update-ref",
        () => serverGit(["update-ref", "refs/heads/feature", "main~1"]).then(() => undefined),
        async (output) => {
          expect(output).toContain(`${await serverGit(["rev-parse", "main~1"])}\trefs/heads/feature`);
        },
      ],
      [
        "a nested branch made",
        () => serverGit(["update-ref", "refs/heads/a/b", "main~2"]).then(() => undefined),
        async (output) => {
          expect(output).toContain(`${await serverGit(["rev-parse", "main~2"])}\trefs/heads/a/b`);
        },
      ],
      [
        "a nested branch moved (only refs/heads/a changes)",
        () => serverGit(["update-ref", "refs/heads/a/b", "main"]).then(() => undefined),
        async (output) => {
          expect(output).toContain(`${await serverGit(["rev-parse", "main"])}\trefs/heads/a/b`);
        },
      ],
      [
        "a deletion",
        () => serverGit(["update-ref", "-d", "refs/heads/feature"]).then(() => undefined),
        async (output) => {
          expect(output).not.toContain("refs/heads/feature");
        },
      ],
      [
        "git pack-refs --all (the same refs, packed)",
        () => serverGit(["pack-refs", "--all"]).then(() => undefined),
        async (output) => {
          expect(output).toContain("refs/heads/a/b");
          expect(output).toContain("refs/tags/v1");
        },
      ],
      [
        "a deletion of a packed ref (only packed-refs changes)",
        () => serverGit(["update-ref", "-d", "refs/tags/v1"]).then(() => undefined),
        async (output) => {
          expect(output).not.toContain("refs/tags/v1");
        },
      ],
      [
        "a packed ref moved (a new loose ref over it)",
        () => serverGit(["update-ref", "refs/heads/a/b", "main~1"]).then(() => undefined),
        async (output) => {
          expect(output).toContain(`${await serverGit(["rev-parse", "main~1"])}\trefs/heads/a/b`);
        },
      ],
      [
        "HEAD pointed elsewhere with symbolic-ref",
        () => serverGit(["symbolic-ref", "HEAD", "refs/heads/a/b"]).then(() => undefined),
        async (output) => {
          expect(output).toContain("ref: refs/heads/a/b\tHEAD");
        },
      ],
    ];
    try {
      for (const [what, change, check] of changes) {
        await settle(repo);
        await listed();
        const before = await listed();
        expect(before.ranGit, `cached before ${what}`).toBe(false);
        await change();
        const after = await listed();
        expect(after.ranGit, `git asked again after ${what}`).toBe(true);
        await check(after.output);
        expect(after.output, what).toBe(await gitOk(box, ["ls-remote", "--symref", repo]));
      }
    } finally {
      await serverGit(["symbolic-ref", "HEAD", "refs/heads/main"]);
      await serverGit(["tag", "v1", "main~1"]);
    }
  }, 90_000); // many git runs in one test: slow when CI runs every package at once

  it("remembers nothing while the refs' last change is too recent to be sure of the next", async () => {
    await settle(repo);
    await serverGit(["update-ref", "refs/heads/fresh", "main"]);
    const changed = Number((await stat(join(repo, "refs/heads"), { bigint: true })).mtimeNs / 1_000_000n);
    expect((await refsFingerprint(repo, changed + 1_000))?.settled).toBe(false);
    expect((await refsFingerprint(repo, changed + 2_500))?.settled).toBe(true);
    // "Just changed", whatever the time the test takes: stamped in the future.
    const soon = new Date(Date.now() + 60_000);
    await utimes(join(repo, "refs/heads"), soon, soon);
    expect((await listed()).ranGit).toBe(true);
    expect((await listed()).ranGit).toBe(true);
    expect(refListingCache.size().entries).toBe(0);
    await serverGit(["update-ref", "-d", "refs/heads/fresh"]);
    await settle(repo);
  });

  it("keeps a listing per request: ref-prefixes, gzip, Git-Protocol, repository", async () => {
    const other = await bareRepo(box, "other");
    await gitOk(box, ["push", "--quiet", `${server.url}/other.git`, "main~1:refs/heads/main"], work);
    await settle(repo);
    await settle(other);
    const heads = lsRefsBody(["refs/heads/"]);
    const tags = lsRefsBody(["refs/tags/"]);
    const before = await uploadPacks();
    const answers: Answer[] = [];
    for (let round = 0; round < 2; round++) {
      answers.push(await post("listed", heads), await post("listed", tags), await post("other", heads));
    }
    expect(await uploadPacks()).toBe(before + 3);
    const [listedHeads, listedTags, otherHeads] = answers as [Answer, Answer, Answer];
    expect(answers.slice(3).map((answer) => answer.body)).toEqual([
      listedHeads.body,
      listedTags.body,
      otherHeads.body,
    ]);
    expect(listedHeads.body.equals(gitAnswer(repo, heads))).toBe(true);
    expect(listedTags.body.equals(gitAnswer(repo, tags))).toBe(true);
    expect(otherHeads.body.equals(gitAnswer(other, heads))).toBe(true);
    expect(listedHeads.body.toString()).not.toContain("refs/tags/");
    expect(listedTags.body.toString()).toContain("refs/tags/v1");
    expect(otherHeads.body.equals(listedHeads.body)).toBe(false);

    // The same request gzipped decodes to the same bytes: the same listing.
    const gzipped = await post("listed", gzipSync(heads), { "Content-Encoding": "gzip" });
    expect(gzipped.body.equals(listedHeads.body)).toBe(true);
    expect(await uploadPacks()).toBe(before + 3);

    // Another Git-Protocol value is another key.
    const withFormat = await post("listed", heads, { "Git-Protocol": "version=2:object-format=sha1" });
    expect(withFormat.body.equals(listedHeads.body)).toBe(true);
    expect(await uploadPacks()).toBe(before + 4);
  });

  it("streams an ls-refs larger than 64 KiB to git, and remembers nothing of it", async () => {
    await settle(repo);
    const prefixes = Array.from({ length: 3000 }, (_, i) => `refs/heads/prefix-${i}/`);
    const body = lsRefsBody(["refs/tags/", ...prefixes]);
    expect(body.length).toBeGreaterThan(64 * 1024);
    const before = await uploadPacks();
    const first = await post("listed", body);
    const second = await post("listed", body);
    expect(await uploadPacks()).toBe(before + 2);
    expect(first.status).toBe(200);
    expect(second.body.equals(first.body)).toBe(true);
    expect(first.body.toString()).toContain("refs/tags/v1");
    expect(refListingCache.size().entries).toBe(0);
  });

  it("runs git for every fetch, with the bytes it read first", async () => {
    await settle(repo);
    const want = await serverGit(["rev-parse", "main"]);
    const fetch = Buffer.concat([
      pktLine("command=fetch\n"),
      pktLine("object-format=sha1\n"),
      Buffer.from("0001"),
      pktLine("no-progress\n"),
      pktLine(`want ${want}\n`),
      pktLine("done\n"),
      Buffer.from(PKT_FLUSH),
    ]);
    const before = await uploadPacks();
    for (const headers of [{}, { "Content-Encoding": "gzip" }]) {
      const answer = await post("listed", "Content-Encoding" in headers ? gzipSync(fetch) : fetch, headers);
      expect(answer.status).toBe(200);
      expect(answer.body.toString("latin1")).toContain("packfile\n");
      expect(answer.body.toString("latin1")).toContain("PACK");
    }
    expect(await uploadPacks()).toBe(before + 2);

    const dest = join(box.root, "fetch-after-ls-refs");
    await gitOk(box, ["clone", "--quiet", "--bare", `${server.url}/listed.git`, dest]);
    expect(await gitOk(box, ["--git-dir", dest, "rev-parse", "main"])).toBe(want);
  });

  it("runs git for protocol v0, and for a first pkt-line that only looks like ls-refs", async () => {
    await settle(repo);
    const body = lsRefsBody();
    const before = await uploadPacks();
    await post("listed", body);
    const v0 = await gitOk(box, ["-c", "protocol.version=0", "ls-remote", `${server.url}/listed.git`]);
    await gitOk(box, ["-c", "protocol.version=0", "ls-remote", `${server.url}/listed.git`]);
    expect(v0).toContain("refs/heads/main");
    expect(await uploadPacks()).toBe(before + 1); // v0 lists refs in info/refs: no upload-pack POST

    const lookalike = Buffer.concat([pktLine("command=ls-refsx\n"), Buffer.from(PKT_FLUSH)]);
    for (let i = 0; i < 2; i++) await post("listed", lookalike);
    expect(await uploadPacks()).toBe(before + 3);
    const empty = await post("listed", Buffer.alloc(0));
    expect([200, 500]).toContain(empty.status);
    expect(await uploadPacks()).toBe(before + 4);
  });

  it("answers 400 to a bad gzip body, 504 to a request that stalls, and keeps serving", async () => {
    const bad = await post("listed", Buffer.from("not gzip at all"), { "Content-Encoding": "gzip" });
    expect(bad.status).toBe(400);

    server.rpcOptions = { timeoutMs: 300 };
    try {
      const before = server.requests.length;
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${server.url}/listed.git/git-upload-pack`, {
          method: "POST",
          headers: { "Content-Type": "application/x-git-upload-pack-request", "Git-Protocol": "version=2" },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.write(lsRefsBody().subarray(0, 30)); // and never the rest
      });
      expect(status).toBe(504);
      await server.settled();
      expect(server.requests[before]?.result).toMatchObject({ ok: false, failure: "timeout" });
    } finally {
      server.rpcOptions = {};
    }

    // A client that goes away in the middle of its request.
    const before = server.requests.length;
    await new Promise<void>((resolve) => {
      const req = request(`${server.url}/listed.git/git-upload-pack`, {
        method: "POST",
        headers: { "Content-Type": "application/x-git-upload-pack-request", "Git-Protocol": "version=2" },
      });
      req.on("error", () => resolve());
      req.write(lsRefsBody().subarray(0, 30), () => setTimeout(() => req.destroy(), 50));
    });
    await server.settled();
    expect(server.requests[before]?.result?.ok).toBe(false);
    expect(server.requests[before]?.result?.pid).toBeUndefined();
    expect((await post("listed", lsRefsBody())).status).toBe(200);
  });

  it("remembers nothing for a request that names its session", async () => {
    await settle(repo);
    const body = Buffer.concat([
      pktLine("command=ls-refs\n"),
      pktLine("session-id=abc\n"),
      Buffer.from("0001"),
      Buffer.from(PKT_FLUSH),
    ]);
    await post("listed", body);
    await post("listed", body);
    expect(refListingCache.size().entries).toBe(0);
  });
});

describe("the refs fingerprint", () => {
  it("stamps HEAD, packed-refs, config, shallow and every directory under refs/", async () => {
    const fingerprint = await refsFingerprint(repo);
    const names = fingerprint?.value.split("\n").map((item) => item.split("\0")[0]);
    expect(names).toEqual(
      expect.arrayContaining(["HEAD", "packed-refs", "config", "shallow", "refs", "refs/heads"]),
    );
    expect(names).toContain("refs/tags");
    expect(await refsFingerprint(join(box.root, "not-a-repository"))).toBeUndefined();
  });

  it("gives up past 128 directories under refs/ (git then lists the refs itself)", async () => {
    const many = await bareRepo(box, "many-directories");
    await gitOk(box, ["--git-dir", many, "fetch", "--quiet", repo, "main:main"]);
    const main = await gitOk(box, ["--git-dir", many, "rev-parse", "main"]);
    /** Creates refs/merge-requests/<i>/head for i in [from, to): one directory each. */
    const mergeRequests = (from: number, to: number) => {
      const commands = Array.from(
        { length: to - from },
        (_, i) => `create refs/merge-requests/${from + i}/head ${main}\n`,
      );
      const run = spawnSync("git", ["--git-dir", many, "update-ref", "--stdin"], {
        input: commands.join(""),
        env: box.env,
      });
      expect(run.status, String(run.stderr)).toBe(0);
    };
    // refs, refs/heads, refs/tags, refs/merge-requests, then one directory per merge request.
    mergeRequests(0, MAX_REF_DIRECTORIES - 4);
    expect(await refsFingerprint(many)).toBeDefined();
    mergeRequests(MAX_REF_DIRECTORIES - 4, MAX_REF_DIRECTORIES - 3);
    expect(await refsFingerprint(many)).toBeUndefined();
  });

  it("changes with the config and the shallow file", async () => {
    await settle(repo);
    const before = await refsFingerprint(repo);
    await serverGit(["config", "uploadpack.hideRefs", "refs/tags"]);
    const hidden = await refsFingerprint(repo);
    expect(hidden?.value).not.toBe(before?.value);
    await serverGit(["config", "--unset", "uploadpack.hideRefs"]);
    await writeFile(join(repo, "shallow"), `${await serverGit(["rev-parse", "main"])}\n`);
    const shallow = await refsFingerprint(repo);
    await rm(join(repo, "shallow"));
    expect(shallow?.value).not.toBe(hidden?.value);
    expect((await refsFingerprint(repo))?.value).not.toBe(shallow?.value);
  });

  it("recognizes the first pkt-line of ls-refs", () => {
    expect(startsWithLsRefs(pktLine("command=ls-refs\n"))).toBe(true);
    expect(startsWithLsRefs(Buffer.concat([pktLine("command=ls-refs"), Buffer.from("0000")]))).toBe(true);
    expect(startsWithLsRefs(Buffer.from("0014comm"))).toBeUndefined();
    expect(startsWithLsRefs(Buffer.from("00"))).toBeUndefined();
    expect(startsWithLsRefs(pktLine("command=fetch\n"))).toBe(false);
    expect(startsWithLsRefs(Buffer.from("0000"))).toBe(false);
    expect(startsWithLsRefs(pktLine("command=ls-refsx\n"))).toBe(false);
  });
});

describe("RefListingCache", () => {
  const body = (size: number) => Buffer.alloc(size, "x");

  it("forgets a repository's listings when its fingerprint changes, and each after a minute", () => {
    const cache = new RefListingCache();
    cache.set("/r/a.git", "f1", "heads", body(10), 0);
    cache.set("/r/a.git", "f1", "tags", body(20), 0);
    cache.set("/r/b.git", "f1", "heads", body(30), 0);
    expect(cache.get("/r/a.git", "f1", "heads", 1)?.length).toBe(10);
    expect(cache.get("/r/b.git", "f1", "heads", 1)?.length).toBe(30);
    expect(cache.get("/r/c.git", "f1", "heads", 1)).toBeUndefined();
    expect(cache.get("/r/a.git", "f2", "tags", 1)).toBeUndefined();
    expect(cache.get("/r/a.git", "f1", "tags", 1)).toBeUndefined(); // dropped with the old state
    expect(cache.size().entries).toBe(1);
    expect(cache.get("/r/b.git", "f1", "heads", 59_999)?.length).toBe(30);
    expect(cache.get("/r/b.git", "f1", "heads", 60_000)).toBeUndefined();
    expect(cache.size()).toEqual({ entries: 0, bytes: 0 });
  });

  it("keeps listings of at most 1 MiB, 16 MiB in all, 32 per repository, least recently used out first", () => {
    const cache = new RefListingCache();
    cache.set("/r/huge.git", "f", "all", body(MAX_LISTING_BYTES + 1), 0);
    expect(cache.size().entries).toBe(0);
    for (let i = 0; i < 20; i++) {
      cache.set(`/r/${i}.git`, "f", "all", body(MAX_LISTING_BYTES - 100), 0);
      if (i === 10) cache.get("/r/0.git", "f", "all", 0); // used: kept
    }
    expect(cache.size().bytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(cache.get("/r/0.git", "f", "all", 0)).toBeDefined();
    expect(cache.get("/r/1.git", "f", "all", 0)).toBeUndefined();
    expect(cache.get("/r/19.git", "f", "all", 0)).toBeDefined();

    // One repository flooded with distinct requests only pushes out its own listings.
    cache.clear();
    cache.set("/r/quiet.git", "f", "all", body(8), 0);
    for (let i = 0; i < 1500; i++) cache.set("/r/busy.git", "f", `prefix ${i}`, body(8), 0);
    expect(cache.size().entries).toBe(33);
    expect(cache.get("/r/busy.git", "f", "prefix 1499", 0)).toBeDefined();
    expect(cache.get("/r/busy.git", "f", "prefix 1468", 0)).toBeDefined();
    expect(cache.get("/r/busy.git", "f", "prefix 1467", 0)).toBeUndefined();
    expect(cache.get("/r/quiet.git", "f", "all", 0)).toBeDefined();

    // At most 4096 listings in all.
    cache.clear();
    for (let i = 0; i < 200; i++) {
      for (let j = 0; j < 30; j++) cache.set(`/r/${i}.git`, "f", `prefix ${j}`, body(8), 0);
    }
    expect(cache.size().entries).toBeLessThanOrEqual(4096);
    expect(cache.size().entries).toBeGreaterThan(4000);
    expect(cache.get("/r/0.git", "f", "prefix 0", 0)).toBeUndefined();
    expect(cache.get("/r/199.git", "f", "prefix 29", 0)).toBeDefined();
  });
});
