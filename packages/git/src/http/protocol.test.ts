import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ReportStatusReader } from "../push/report-status.js";
import { BodyError, decodeBody } from "./body.js";
import { PKT_FLUSH, PktLineReader, pktLine } from "./pkt-line.js";
import { parseGitService, sanitizeGitProtocol, wantsProtocolV2 } from "./service.js";

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("service names and the Git-Protocol header", () => {
  it("accepts only the two services", () => {
    expect(parseGitService("git-upload-pack")).toBe("git-upload-pack");
    expect(parseGitService("git-receive-pack")).toBe("git-receive-pack");
    expect(parseGitService("git-upload-archive")).toBeUndefined();
    expect(parseGitService(null)).toBeUndefined();
  });

  it("passes plain key=value lists and drops anything else", () => {
    expect(sanitizeGitProtocol("version=2")).toBe("version=2");
    expect(sanitizeGitProtocol("version=2:object-format=sha1")).toBe("version=2:object-format=sha1");
    expect(sanitizeGitProtocol(["version=2"])).toBe("version=2");
    expect(sanitizeGitProtocol("version=2\nGIT_DIR=/etc")).toBeUndefined();
    expect(sanitizeGitProtocol("version=2 ; rm -rf /")).toBeUndefined();
    expect(sanitizeGitProtocol("")).toBeUndefined();
    expect(sanitizeGitProtocol(`version=${"2".repeat(300)}`)).toBeUndefined();
    expect(wantsProtocolV2("version=2")).toBe(true);
    expect(wantsProtocolV2("version=1")).toBe(false);
    expect(wantsProtocolV2(undefined)).toBe(false);
  });
});

describe("pkt-lines", () => {
  it("writes and reads packets across chunk boundaries", () => {
    const stream = Buffer.concat([
      pktLine("hello\n"),
      Buffer.from("0001"),
      pktLine("x"),
      Buffer.from(PKT_FLUSH),
    ]);
    expect(stream.toString()).toBe("000ahello\n00010005x0000");
    const reader = new PktLineReader();
    const packets = [...stream].flatMap((byte) => reader.push(Buffer.from([byte])));
    expect(
      packets.map((packet) => (packet.type === "data" ? packet.payload.toString() : packet.type)),
    ).toEqual(["hello\n", "delim", "x", "flush"]);
  });

  it("stops at a malformed header", () => {
    const reader = new PktLineReader();
    expect(reader.push(Buffer.from("zzzz0005x"))).toEqual([]);
    expect(reader.failed).toBe(true);
    expect(reader.push(pktLine("ok"))).toEqual([]);
  });
});

describe("receive-pack's report-status", () => {
  const report = Buffer.concat([
    pktLine("unpack ok\n"),
    pktLine("ok refs/heads/side\n"),
    pktLine("ng refs/heads/main non-fast-forward\n"),
    Buffer.from(PKT_FLUSH),
  ]);

  it("reads a plain report", () => {
    const reader = new ReportStatusReader();
    reader.push(report);
    expect(reader.result()).toEqual({
      unpack: "ok",
      ok: new Set(["refs/heads/side"]),
      rejected: new Map([["refs/heads/main", "non-fast-forward"]]),
    });
  });

  it("reads a report multiplexed on side-band 1 among progress, split anywhere", () => {
    const half = Math.floor(report.length / 2);
    const stream = Buffer.concat([
      pktLine(Buffer.concat([Buffer.from([2]), Buffer.from("remote: progress\n")])),
      pktLine(Buffer.concat([Buffer.from([1]), report.subarray(0, half)])),
      pktLine(Buffer.concat([Buffer.from([1]), report.subarray(half)])),
      Buffer.from(PKT_FLUSH),
    ]);
    const reader = new ReportStatusReader();
    for (let i = 0; i < stream.length; i += 7) reader.push(stream.subarray(i, i + 7));
    expect(reader.result()?.ok).toEqual(new Set(["refs/heads/side"]));
    expect(reader.result()?.rejected.get("refs/heads/main")).toBe("non-fast-forward");
  });

  it("has no report when receive-pack sent none, or only part of one", () => {
    const none = new ReportStatusReader();
    none.push(Buffer.from(PKT_FLUSH));
    expect(none.result()).toBeUndefined();
    const cut = new ReportStatusReader();
    cut.push(report.subarray(0, report.length - 4));
    expect(cut.result()).toBeUndefined();
  });
});

describe("request bodies", () => {
  it("passes identity bodies and gunzips gzip ones", async () => {
    expect(
      (await drain(decodeBody(Readable.from([Buffer.from("abc")]), undefined, 10) as Readable)).toString(),
    ).toBe("abc");
    const gzipped = decodeBody(Readable.from([gzipSync("hello")]), "gzip", 10) as Readable;
    expect((await drain(gzipped)).toString()).toBe("hello");
  });

  it("refuses unknown encodings, bad gzip and bodies over the cap", async () => {
    expect(decodeBody(Readable.from([]), "br", 10)).toBeInstanceOf(BodyError);
    const bad = decodeBody(Readable.from([Buffer.from("not gzip at all")]), "gzip", 100) as Readable;
    await expect(drain(bad)).rejects.toMatchObject({ reason: "malformed" });
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const capped = decodeBody(Readable.from([bomb]), "gzip", 1024 * 1024) as Readable;
    await expect(drain(capped)).rejects.toMatchObject({ reason: "too_large" });
  });
});

describe("pkt-line framing of request bodies", () => {
  const bytes = (...parts: (string | Buffer)[]) =>
    Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "latin1") : part)));
  /** The body through the framing check, one byte per chunk (headers split anywhere). */
  const framed = (body: Buffer, framing: "pkt-lines" | "commands") =>
    drain(
      decodeBody(
        Readable.from([...body].map((byte) => Buffer.from([byte]))),
        undefined,
        1 << 20,
        framing,
      ) as Readable,
    );

  it("passes well-framed requests through unchanged, the pack after receive-pack's commands unchecked", async () => {
    const fetch = bytes(pktLine("command=fetch\n"), "0001", pktLine("done\n"), PKT_FLUSH);
    expect((await framed(fetch, "pkt-lines")).equals(fetch)).toBe(true);
    const push = bytes(
      pktLine(`${"0".repeat(40)} ${"1".repeat(40)} refs/heads/x\n`),
      PKT_FLUSH,
      "PACK\0\0\0\x02zz",
    );
    expect((await framed(push, "commands")).equals(push)).toBe(true);
    const gzipped = decodeBody(Readable.from([gzipSync(fetch)]), "gzip", 1 << 20, "pkt-lines") as Readable;
    expect((await drain(gzipped)).equals(fetch)).toBe(true);
  });

  it("fails with a malformed BodyError on what git would not read", async () => {
    for (const [body, framing] of [
      [bytes("zzzz garbage"), "pkt-lines"],
      [bytes("ffff"), "pkt-lines"],
      [bytes("0003"), "commands"],
      [bytes(pktLine("want x\n"), "00"), "pkt-lines"],
      [bytes("0032want 0123"), "commands"],
      [bytes(PKT_FLUSH, "garbage"), "pkt-lines"],
    ] as const) {
      await expect(framed(body, framing), body.toString("latin1")).rejects.toMatchObject({
        name: "BodyError",
        reason: "malformed",
      });
    }
  });
});
