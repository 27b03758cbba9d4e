import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGit } from "../exec.js";
import { advertiseRefs } from "./advertise.js";
import type { GitHttpResponse } from "./stream.js";

/** A response that keeps what was written. */
class Capture extends Writable implements GitHttpResponse {
  headersSent = false;
  status = 0;
  readonly chunks: Buffer[] = [];

  writeHead(status: number): this {
    this.headersSent = true;
    this.status = status;
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.chunks.push(chunk);
    callback();
  }
}

let root: string;
let repo: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "kiln-caps-"));
  repo = join(root, "repo.git");
  await runGit(["init", "--quiet", "--bare", repo]);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const advertise = async (options: { cacheCapabilities?: boolean; gitProtocol?: string } = {}) => {
  const res = new Capture();
  const result = await advertiseRefs(repo, "git-upload-pack", res, { gitProtocol: "version=2", ...options });
  return { result, body: Buffer.concat(res.chunks).toString("utf8"), status: res.status };
};

describe("the protocol v2 capability advertisement", () => {
  it("is served from memory once git gave it, byte for byte", async () => {
    const first = await advertise({ cacheCapabilities: true });
    expect(first.result.pid).toBeDefined();
    expect(first.body.startsWith("000eversion 2\n")).toBe(true);
    const second = await advertise({ cacheCapabilities: true });
    expect(second.result).toEqual({ ok: true, exitCode: 0, stderr: "" });
    expect(second.status).toBe(200);
    expect(second.body).toBe(first.body);
    expect((await advertise()).body).toBe(first.body);
  });

  it("asks git again when the repository's configuration changed", async () => {
    const before = await advertise({ cacheCapabilities: true });
    expect(before.body).not.toContain("filter");
    await runGit(["config", "uploadpack.allowFilter", "true"], { gitDir: repo });
    const after = await advertise({ cacheCapabilities: true });
    expect(after.result.pid).toBeDefined();
    expect(after.body).toContain("filter");
  });

  it("never serves protocol v0 (which lists refs) from memory", async () => {
    await advertise({ cacheCapabilities: true, gitProtocol: "version=0" });
    const again = await advertise({ cacheCapabilities: true, gitProtocol: "version=0" });
    expect(again.result.pid).toBeDefined();
    expect(again.body.startsWith("001e# service=git-upload-pack\n")).toBe(true);
  });
});
