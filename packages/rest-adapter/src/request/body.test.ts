import { createServer, request, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { DomainError } from "@kiln/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { v3Message } from "../wording/index.js";
import { BodyError, DEFAULT_BODY_LIMIT, readBodyParams } from "./body.js";
import { PARAM_LIMITS } from "./limits.js";

const LIMIT = 1024;

/** What the test server answers: the params it read, or the BodyError (or 400 DomainError) it got. */
type Outcome = { params: Record<string, unknown> } | { error: { reason: string; message: string } };

let server: Server;
let origin: string;
/** What the server made of the last request, also when its client went away before the answer. */
let lastOutcome: Promise<Outcome | { unexpected: string }>;

/** The outcome of reading a body: its params, or the error as the test server reports it. */
function outcomeOf(read: Promise<unknown>): Promise<Outcome | { unexpected: string }> {
  return read.then(
    (params) => ({ params: params as Record<string, unknown> }),
    (error: unknown) => {
      if (DomainError.is(error))
        return { error: { reason: error.kind, message: v3Message(error.failure) as string } };
      if (error instanceof BodyError) return { error: { reason: error.reason, message: error.message } };
      return { unexpected: String(error) };
    },
  );
}

beforeAll(async () => {
  server = createServer((req, res) => {
    // `/big` reads bodies up to the server's own limit, for the parameter limits.
    lastOutcome = outcomeOf(
      Promise.resolve(readBodyParams(req, req.url === "/big" ? DEFAULT_BODY_LIMIT : LIMIT)),
    );
    void lastOutcome.then((outcome) => {
      if ("unexpected" in outcome) res.statusCode = 500;
      res.end(JSON.stringify(outcome));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function send(init: RequestInit, path = "/"): Promise<Outcome> {
  const response = await fetch(`${origin}${path}`, { method: "POST", ...init });
  expect(response.status).toBe(200);
  return (await response.json()) as Outcome;
}

const json = (body: string, method = "POST") =>
  send({ method, headers: { "Content-Type": "application/json" }, body });

/** A request with a body on any method (fetch refuses bodies on GET). */
function raw(method: string, headers: Record<string, string>, body: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const length = String(Buffer.byteLength(body));
    const req = request(
      `${origin}/`,
      { method, headers: { ...headers, "Content-Length": length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Outcome);
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("readBodyParams", () => {
  it("reads a JSON object body, keeping its types", async () => {
    expect(await json('{"name":"Alice","admin":true,"projects_limit":3,"labels":["a","b"]}')).toEqual({
      params: { name: "Alice", admin: true, projects_limit: 3, labels: ["a", "b"] },
    });
  });

  it("reads JSON with a charset parameter and +json media types", async () => {
    const headers = { "Content-Type": "application/vnd.api+json; charset=utf-8" };
    expect(await send({ headers, body: '{"a":1}' })).toEqual({ params: { a: 1 } });
  });

  it("refuses a JSON array body as malformed", async () => {
    expect(await json('[{"name":"Alice"}]')).toEqual({
      error: { reason: "malformed", message: "400 (Bad request) JSON body must be an object" },
    });
  });

  it("refuses a JSON scalar body as malformed", async () => {
    expect(await json('"name"')).toMatchObject({ error: { reason: "malformed" } });
  });

  it("refuses invalid JSON as malformed", async () => {
    expect(await json('{"name": "Alice"')).toEqual({
      error: { reason: "malformed", message: "400 (Bad request) body is not valid JSON" },
    });
  });

  it("reads an empty JSON body as no params", async () => {
    expect(await json("")).toEqual({ params: {} });
  });

  it("reads a urlencoded form with key[] arrays and nested keys", async () => {
    const body = new URLSearchParams([
      ["title", "my key"],
      ["labels[]", "bug"],
      ["labels[]", "ui"],
      ["user[name]", "Alice"],
    ]);
    expect(await send({ body })).toEqual({
      params: { title: "my key", labels: ["bug", "ui"], user: { name: "Alice" } },
    });
  });

  it("reads multipart/form-data fields and skips files", async () => {
    const body = new FormData();
    body.append("title", "my key");
    body.append("labels[]", "bug");
    body.append("labels[]", "ui");
    body.append("avatar", new Blob(["not read"]), "avatar.png");
    expect(await send({ body })).toEqual({ params: { title: "my key", labels: ["bug", "ui"] } });
  });

  it("refuses a multipart body without a boundary as malformed", async () => {
    const headers = { "Content-Type": "multipart/form-data" };
    expect(await send({ headers, body: "title=x" })).toEqual({
      error: { reason: "malformed", message: "400 (Bad request) malformed multipart body" },
    });
  });

  it("refuses a JSON body over the limit", async () => {
    const big = JSON.stringify({ bio: "x".repeat(LIMIT) });
    expect(await json(big)).toEqual({
      error: { reason: "too_large", message: "413 Request Entity Too Large" },
    });
  });

  it("accepts a JSON body of exactly the limit", async () => {
    const filler = "x".repeat(LIMIT - '{"bio":""}'.length);
    expect(await json(JSON.stringify({ bio: filler }))).toEqual({ params: { bio: filler } });
  });

  it("refuses a chunked body that passes the limit without declaring its length", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(512));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 4) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const outcome = await send({ headers: { "Content-Type": "application/json" }, body, duplex: "half" });
    expect(outcome).toEqual({ error: { reason: "too_large", message: "413 Request Entity Too Large" } });
  });

  it("refuses a body that declares a length over the limit without waiting for it", async () => {
    const outcome = await new Promise<Outcome>((resolve, reject) => {
      const headers = { "Content-Type": "application/json", "Content-Length": String(100 * LIMIT) };
      const req = request(`${origin}/`, { method: "POST", headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          req.destroy();
          resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Outcome);
        });
      });
      req.on("error", reject);
      req.write("{"); // the rest never comes
    });
    expect(outcome).toEqual({ error: { reason: "too_large", message: "413 Request Entity Too Large" } });
  });

  it("refuses a multipart body over the limit", async () => {
    const body = new FormData();
    body.append("bio", "x".repeat(LIMIT * 2));
    expect(await send({ body })).toEqual({
      error: { reason: "too_large", message: "413 Request Entity Too Large" },
    });
  });

  it("refuses a body of an unknown type over the limit", async () => {
    const headers = { "Content-Type": "text/plain" };
    expect(await send({ headers, body: "x".repeat(LIMIT + 1) })).toMatchObject({
      error: { reason: "too_large" },
    });
  });

  it("reads a JSON body sent with GET", async () => {
    const outcome = await raw("GET", { "Content-Type": "application/json" }, '{"private_token":"abc"}');
    expect(outcome).toEqual({ params: { private_token: "abc" } });
  });

  it("ignores a body of an unknown content type", async () => {
    expect(await send({ headers: { "Content-Type": "text/plain" }, body: '{"name":"Alice"}' })).toEqual({
      params: {},
    });
    expect(
      await send({ headers: { "Content-Type": "application/xml" }, body: "<name>Alice</name>" }),
    ).toEqual({
      params: {},
    });
  });

  it("answers no params for a request without a body", async () => {
    expect(await send({ method: "GET" })).toEqual({ params: {} });
  });

  it("keeps a JSON __proto__ key as data without polluting objects", async () => {
    expect(await json('{"__proto__":{"polluted":true},"a":1}')).toEqual({
      params: { ["__proto__"]: { polluted: true }, a: 1 },
    });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

/** Sends raw bytes on a new connection, then closes it; resolves once the server has seen it close. */
async function sendAndClose(bytes: string): Promise<void> {
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  socket.resume();
  const closed = new Promise((resolve) => socket.once("close", resolve));
  socket.end(bytes);
  await closed;
}

describe("readBodyParams of a body that never arrives whole", () => {
  const incomplete = { error: { reason: "malformed", message: "400 (Bad request) incomplete body" } };
  const head = (type: string, framing: string) =>
    `POST / HTTP/1.1\r\nHost: kiln\r\nContent-Type: ${type}\r\n${framing}\r\n\r\n`;

  it("refuses a JSON or form body cut short by a client that closes the connection with 400", async () => {
    await sendAndClose(`${head("application/json", "Content-Length: 1000")}{"login":`);
    expect(await lastOutcome).toEqual(incomplete);
    await sendAndClose(`${head("application/x-www-form-urlencoded", "Content-Length: 1000")}login=ro`);
    expect(await lastOutcome).toEqual(incomplete);
  });

  it("refuses a body whose chunked framing is broken with 400", async () => {
    await sendAndClose(`${head("application/json", "Transfer-Encoding: chunked")}zz\r\n`);
    expect(await lastOutcome).toEqual(incomplete);
    await sendAndClose(`${head("application/json", "Transfer-Encoding: chunked")}5\r\n{"a":`);
    expect(await lastOutcome).toEqual(incomplete);
  });
});

describe("readBodyParams limits", () => {
  const { values, depth } = PARAM_LIMITS;
  const tooDeep = {
    error: { reason: "bad_request", message: "400 (Bad request) parameters nested too deeply" },
  };
  const tooMany = { error: { reason: "bad_request", message: "400 (Bad request) too many parameters" } };
  /** A JSON body whose value `a` is `levels - 1` nested arrays around 1: `levels` levels in all. */
  const deepJson = (levels: number) => `{"a":${"[".repeat(levels - 1)}1${"]".repeat(levels - 1)}}`;
  const big = (body: string, type: string) => send({ headers: { "Content-Type": type }, body }, "/big");
  const form = "application/x-www-form-urlencoded";

  it(`reads JSON nested ${depth} levels and refuses deeper with 400`, async () => {
    expect(await json(deepJson(depth))).toEqual({ params: JSON.parse(deepJson(depth)) });
    expect(await json(deepJson(depth + 1))).toEqual(tooDeep);
    expect(await json(`{"a":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`)).toEqual(tooDeep);
  });

  it("refuses JSON nested hundreds of thousands of levels with 400, not a crash", async () => {
    const body = `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    expect(await big(body, "application/json")).toEqual(tooDeep);
  });

  it("does not count brackets inside strings, escaped quotes included", async () => {
    const text = `\\"${"[{".repeat(depth)}`;
    expect(await json(JSON.stringify({ a: text, b: '"[[[' }))).toEqual({ params: { a: text, b: '"[[[' } });
  });

  it(`reads ${values} JSON leaves and refuses one more with 400`, async () => {
    const leaves = (count: number) =>
      JSON.stringify({ iid: Array.from({ length: count - 2 }, (_, index) => index), a: {}, b: [] });
    expect(await big(leaves(values), "application/json")).toMatchObject({ params: { a: {}, b: [] } });
    expect(await big(leaves(values + 1), "application/json")).toEqual(tooMany);
  });

  it("refuses a form of more values than the limit with 400", async () => {
    const body = "key[]=1&".repeat(values + 1);
    expect(await big(body, form)).toEqual(tooMany);
  });

  it("refuses a form name nested too deeply with 400", async () => {
    const body = `a${"[a]".repeat(depth)}=1`;
    expect(await big(body, form)).toEqual(tooDeep);
  });
});
