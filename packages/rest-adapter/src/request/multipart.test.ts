import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DomainError } from "@kiln/domain";
import { UploadedFile } from "@kiln/schemas";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { v3Message } from "../wording/index.js";
import { BodyError, readBodyParams } from "./body.js";
import { PARAM_LIMITS } from "./limits.js";

const FIELD_LIMIT = 1024;
const FILE_LIMIT = 4096;

let server: Server;
let origin: string;
let tempDir: string;
/** Settles with what the server made of the last request, once it has finished with it. */
let lastOutcome: Promise<Outcome>;
/** Called with the outcome of the next request the server receives (see {@link nextOutcome}). */
let onRequest: ((outcome: Promise<Outcome>) => void) | undefined;

type Outcome = { params: Record<string, unknown>; file: UploadedFile | null } | { error: string };

beforeAll(async () => {
  tempDir = mkdtempSync(join(tmpdir(), "kiln-multipart-"));
  server = createServer((req, res) => {
    const intake = { field: "file", maxBytes: FILE_LIMIT, tempDir };
    // `/late` starts reading only once the connection closed, as a route that looks something up
    // first may: the client may be gone by then.
    const closed = new Promise((resolve) => req.once("close", resolve));
    const read =
      req.url === "/late"
        ? closed.then(() => readBodyParams(req, FIELD_LIMIT, intake))
        : readBodyParams(req, FIELD_LIMIT, intake);
    lastOutcome = Promise.resolve(read).then(
      (params) => {
        const file = Object.values(params).find(UploadedFile.is) ?? null;
        return { params, file };
      },
      (error: unknown) => ({
        error:
          error instanceof BodyError
            ? error.message
            : DomainError.is(error)
              ? (v3Message(error.failure) as string)
              : `unexpected: ${String(error)}`,
      }),
    );
    onRequest?.(lastOutcome);
    void lastOutcome.then((outcome) => res.end(JSON.stringify(outcome)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(() => {
  for (const name of readdirSync(tempDir)) rmSync(join(tempDir, name), { force: true });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(tempDir, { recursive: true, force: true });
});

async function post(body: FormData): Promise<Outcome> {
  await fetch(`${origin}/`, { method: "POST", body });
  return lastOutcome;
}

const tempFiles = () => readdirSync(tempDir);

/** What the server makes of the next request it receives. */
const nextOutcome = () =>
  new Promise<Outcome>((resolve) => {
    onRequest = resolve;
  });

describe("multipart bodies of routes that take a file", () => {
  it("streams the declared field's file to a temp file and reads the other fields", async () => {
    const body = new FormData();
    body.append("title", "shot");
    body.append("avatar", new Blob(["skipped"]), "avatar.png");
    body.append("file", new Blob(["hello"], { type: "image/png" }), "../shot.png");
    body.append("file", new Blob(["second part, skipped"]), "two.png");
    const outcome = await post(body);
    if (!("file" in outcome) || !outcome.file) throw new Error(`no file: ${JSON.stringify(outcome)}`);
    expect(outcome.params["title"]).toBe("shot");
    // busboy keeps only the base name; services sanitise it again before using it.
    expect(outcome.file).toMatchObject({ filename: "shot.png", size: 5, mimeType: "image/png" });
    expect(outcome.file.tempPath.startsWith(`${tempDir}/upload-`)).toBe(true);
    expect(readFileSync(outcome.file.tempPath, "utf8")).toBe("hello");
    expect(tempFiles()).toHaveLength(1);
  });

  it("accepts a file of exactly the limit", async () => {
    const body = new FormData();
    body.append("file", new Blob(["x".repeat(FILE_LIMIT)]), "full.bin");
    const outcome = await post(body);
    expect(outcome).toMatchObject({ file: { size: FILE_LIMIT } });
  });

  it("refuses a file over the limit with 413 and keeps no temp file", async () => {
    const body = new FormData();
    body.append("file", new Blob(["x".repeat(FILE_LIMIT + 1)]), "big.bin");
    expect(await post(body)).toEqual({ error: "413 Request Entity Too Large" });
    expect(tempFiles()).toEqual([]);
  });

  it("refuses fields over the body limit after a file, removing the file", async () => {
    const body = new FormData();
    body.append("file", new Blob(["ok"]), "a.txt");
    body.append("description", "d".repeat(FIELD_LIMIT + 1));
    expect(await post(body)).toEqual({ error: "413 Request Entity Too Large" });
    expect(tempFiles()).toEqual([]);
  });

  it("removes the temp file of a body that ends without its closing boundary", async () => {
    const boundary = "kilnboundary";
    const text = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="cut.txt"',
      "Content-Type: text/plain",
      "",
      "partial content",
    ].join("\r\n");
    await fetch(`${origin}/`, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: text,
    });
    expect(await lastOutcome).toEqual({ error: "400 (Bad request) malformed multipart body" });
    expect(tempFiles()).toEqual([]);
  });

  it("removes the temp file when the client goes away in the middle of the file", async () => {
    const boundary = "kilnboundary";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gone.bin"\r\n\r\n`;
    const req = request(`${origin}/`, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": "50000" },
    });
    req.on("error", () => undefined);
    req.write(head);
    req.write("x".repeat(1000));
    // Wait for the server to have opened the temp file (a fixed sleep was too short under CI's load).
    const deadline = Date.now() + 5000;
    while (tempFiles().length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(tempFiles()).toHaveLength(1);
    req.destroy();
    expect(await lastOutcome).toEqual({ error: "400 (Bad request) malformed multipart body" });
    expect(tempFiles()).toEqual([]);
  });

  it("refuses a body whose client was gone before the body was read", async () => {
    const boundary = "kilnboundary";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gone.bin"\r\n\r\n`;
    const outcome = nextOutcome();
    const req = request(`${origin}/late`, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": "50000" },
    });
    req.on("error", () => undefined);
    req.end(head, () => req.destroy());
    expect(await outcome).toEqual({ error: "400 (Bad request) malformed multipart body" });
    expect(tempFiles()).toEqual([]);
  });
});

const BOUNDARY = "kilnboundary";

/** A multipart body of parts given as their header lines and content. */
const multipart = (parts: { headers: string[]; content?: string }[]) =>
  `${parts.map((part) => `--${BOUNDARY}\r\n${[...part.headers, ""].join("\r\n")}\r\n${part.content ?? ""}\r\n`).join("")}--${BOUNDARY}--\r\n`;

const field = (name: string, content: string) => ({
  headers: [`Content-Disposition: form-data; name="${name}"`],
  content,
});

async function postMultipart(body: string): Promise<Outcome> {
  await fetch(`${origin}/`, {
    method: "POST",
    headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  });
  return lastOutcome;
}

describe("multipart parts that are odd or too many", () => {
  it("skips parts without a name or with an empty one, as Rack does, and reads the others", async () => {
    const body = multipart([
      { headers: ["Content-Disposition: form-data"], content: "no name" },
      { headers: ['Content-Disposition: form-data; name=""'], content: "empty name" },
      { headers: ['Content-Disposition: form-data; filename="a.txt"'], content: "file without a name" },
      field("title", "kept"),
    ]);
    expect(await postMultipart(body)).toEqual({ params: { title: "kept" }, file: null });
    expect(tempFiles()).toEqual([]);
  });

  it("skips parts without Content-Disposition or not form-data", async () => {
    const body = multipart([
      { headers: ["Content-Type: text/plain"], content: "no disposition" },
      { headers: ['Content-Disposition: attachment; name="other"'], content: "not form-data" },
      field("title", "kept"),
    ]);
    expect(await postMultipart(body)).toEqual({ params: { title: "kept" }, file: null });
  });

  it("refuses a field name nested too deeply with 400", async () => {
    const body = multipart([field(`a${"[a]".repeat(PARAM_LIMITS.depth)}`, "1")]);
    expect(await postMultipart(body)).toEqual({ error: "400 (Bad request) parameters nested too deeply" });
  });

  it("reads as many fields as the limit and refuses one more with 400", async () => {
    // One-byte names and empty values, so that the fields stay within this server's 1 KiB.
    const fields = (count: number) => Array.from({ length: count }, () => field("k", ""));
    const outcome = await postMultipart(multipart(fields(PARAM_LIMITS.values)));
    expect(outcome).toEqual({ params: { k: "" }, file: null });
    expect(await postMultipart(multipart(fields(PARAM_LIMITS.values + 1)))).toEqual({
      error: "400 (Bad request) too many parameters",
    });
  });

  it("refuses more parts than fields and files allowed, even nameless ones, with 400", async () => {
    const nameless = Array.from({ length: PARAM_LIMITS.values + 101 }, () => ({ headers: ["X: y"] }));
    expect(await postMultipart(multipart(nameless))).toEqual({
      error: "400 (Bad request) too many parameters",
    });
  });
});
