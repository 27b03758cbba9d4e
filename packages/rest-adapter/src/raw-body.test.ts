import { createServer, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough, Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { sendRaw } from "./raw-body.js";
import type { RawBody } from "./route.js";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves one raw body on loopback; answers what the client received, or how the transfer broke. */
async function fetchRaw(
  body: () => RawBody,
): Promise<{ headers: Record<string, unknown>; bytes: Buffer; error?: string }> {
  server = createServer((_req, res) => void sendRaw(res, 200, body()));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    get({ port, host: "127.0.0.1", path: "/", agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on("error", (error) =>
        resolve({ headers: res.headers, bytes: Buffer.concat(chunks), error: error.message }),
      );
    }).on("error", reject);
  });
}

describe("sendRaw", () => {
  it("sends bytes whole, with their length", async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    const got = await fetchRaw(() => ({
      headers: { "Content-Type": "application/octet-stream" },
      content: bytes,
    }));
    expect(got.bytes.equals(bytes)).toBe(true);
    expect(got.headers["content-length"]).toBe("4");
    expect(got.headers["content-type"]).toBe("application/octet-stream");
  });

  it("streams a body and ends it once its producer finished well", async () => {
    const got = await fetchRaw(() => ({
      headers: { "Content-Type": "application/x-tar" },
      content: Readable.from([Buffer.from("one "), Buffer.from("two")]),
      finished: Promise.resolve(),
    }));
    expect(got.error).toBeUndefined();
    expect(got.bytes.toString()).toBe("one two");
  });

  it("cuts the response off when the producer failed, so a truncated file never looks whole", async () => {
    const got = await fetchRaw(() => {
      const stream = new PassThrough();
      stream.end("partial");
      const finished = Promise.reject(new Error("git failed"));
      finished.catch(() => undefined); // watched later, as @kiln/git's archive does
      return { headers: {}, content: stream, finished };
    });
    expect(got.error).toBe("aborted");
  });
});
