import { connect } from "node:net";
import type { ApiRequest } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { onEachDatabase, type Served, start } from "./support.js";

// What one request may do to the server: bounded parameters (count, nesting, array length) answer
// 400, a malformed multipart part is skipped, and refused requests are answered even while their
// body is still arriving. After each attack the server must still answer a normal request.

/** The limits the README promises (rest-adapter's PARAM_LIMITS). */
const VALUES = 1000;
const DEPTH = 32;
const ARRAY_LENGTH = 500;

const TOO_MANY = { message: "400 (Bad request) too many parameters" };
const TOO_DEEP = { message: "400 (Bad request) parameters nested too deeply" };
const tooManyValues = (name: string) => ({ message: `400 (Bad request) "${name}" has too many values` });

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

/** `count` label titles, `prefix0,prefix1,…`. */
const titles = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(",");

/** `iid[]=1&…&iid[]=count`. */
const iids = (count: number) => Array.from({ length: count }, (_, index) => `iid[]=${index + 1}`).join("&");

/** A multipart body of raw parts (header lines, then the content). */
function multipart(boundary: string, parts: { headers: string[]; content: string }[]): string {
  const encoded = parts.map(
    (part) => `--${boundary}\r\n${part.headers.join("\r\n")}\r\n\r\n${part.content}\r\n`,
  );
  return `${encoded.join("")}--${boundary}--\r\n`;
}

onEachDatabase("request limits", (ctx) => {
  let token: string;
  const api = (request: ApiRequest) => ctx().api(request);
  /** The server still serves a normal request. */
  const stillServing = async () => {
    expect(await api({ path: "/user", token })).toMatchObject({ status: 200, body: { username: "root" } });
  };

  beforeAll(() => {
    token = ctx().root.token;
  });

  it("skips multipart parts without a name or with an empty one instead of dying", async () => {
    const boundary = "XX";
    const headers = { "Content-Type": `multipart/form-data; boundary=${boundary}` };
    const nameless = multipart(boundary, [{ headers: ["Content-Disposition: form-data"], content: "value" }]);
    expect(await api({ method: "POST", path: "/session", headers, body: nameless })).toMatchObject({
      status: 400,
      body: { message: '400 (Bad request) "password" not given' },
    });
    const signIn = multipart(boundary, [
      { headers: ["Content-Disposition: form-data"], content: "no name" },
      { headers: ['Content-Disposition: form-data; name=""'], content: "empty name" },
      { headers: ['Content-Disposition: form-data; filename="x.txt"'], content: "a file without a name" },
      { headers: ['Content-Disposition: form-data; name="login"'], content: "root" },
      { headers: ['Content-Disposition: form-data; name="password"'], content: ctx().server.rootPassword },
    ]);
    expect(await api({ method: "POST", path: "/session", headers, body: signIn })).toMatchObject({
      status: 201,
      body: { username: "root" },
    });
    await stillServing();
  });

  it("refuses parameters nested too deeply in every source with 400", async () => {
    const name = (levels: number) => `a${"[a]".repeat(levels - 1)}`;
    // Within the limit, an unknown parameter is just ignored.
    expect(await api({ path: `/user?${name(DEPTH)}=1`, token })).toMatchObject({ status: 200 });
    expect(await api({ path: `/user?${name(DEPTH + 1)}=1`, token })).toMatchObject({
      status: 400,
      body: TOO_DEEP,
    });
    expect(await api({ path: `/user?${name(4000)}=1`, token })).toMatchObject({
      status: 400,
      body: TOO_DEEP,
    });
    // A few hundred thousand levels, still under the 1 MiB body limit.
    const form = `${name(300_000)}=1`;
    expect(await api({ method: "POST", path: "/users", token, headers: FORM, body: form })).toMatchObject({
      status: 400,
      body: TOO_DEEP,
    });
    const json = `{"a":${'{"a":'.repeat(150_000)}1${"}".repeat(150_000)}}`;
    const jsonHeaders = { "Content-Type": "application/json" };
    expect(
      await api({ method: "POST", path: "/users", token, headers: jsonHeaders, body: json }),
    ).toMatchObject({
      status: 400,
      body: TOO_DEEP,
    });
    const parts = multipart("XX", [
      { headers: [`Content-Disposition: form-data; name="${name(2000)}"`], content: "1" },
    ]);
    const multipartHeaders = { "Content-Type": "multipart/form-data; boundary=XX" };
    expect(
      await api({ method: "POST", path: "/users", token, headers: multipartHeaders, body: parts }),
    ).toMatchObject({ status: 400, body: TOO_DEEP });
    await stillServing();
  });

  it("refuses 240 KB of repeated key[] parameters with 400 and keeps serving", async () => {
    const body = "key[]=1&".repeat(30_000);
    expect(await api({ method: "POST", path: "/users", token, headers: FORM, body })).toMatchObject({
      status: 400,
      body: TOO_MANY,
    });
    const json = { key: Array.from({ length: 30_000 }, () => 1) };
    expect(await api({ path: "/user", token, json })).toMatchObject({ status: 400, body: TOO_MANY });
    expect(await api({ path: `/user?${"k[]=1&".repeat(VALUES + 1)}`, token })).toMatchObject({
      status: 400,
      body: TOO_MANY,
    });
    await stillServing();
  });

  describe("list filters", () => {
    let groupId: number;
    let projectId: number;
    let issue: { id: number; iid: number; labels: string[] };

    beforeAll(async () => {
      const group = await api({
        method: "POST",
        path: "/groups",
        token,
        json: { name: "limits", path: "limits" },
      });
      groupId = (group.body as { id: number }).id;
      const project = await api({
        method: "POST",
        path: "/projects",
        token,
        json: { name: "limits", namespace_id: groupId },
      });
      projectId = (project.body as { id: number }).id;
      // As many labels as one parameter may hold: every one of them is created with the issue.
      const created = await api({
        method: "POST",
        path: `/projects/${projectId}/issues`,
        token,
        json: { title: "labelled", labels: titles(ARRAY_LENGTH, "l") },
      });
      expect(created.status, created.text).toBeLessThan(300);
      issue = created.body as typeof issue;
    });

    it("take as many values as an array parameter may hold, in every list that filters by them", async () => {
      expect(issue.labels).toHaveLength(ARRAY_LENGTH);
      const labels = titles(ARRAY_LENGTH, "l");
      for (const path of [`/projects/${projectId}/issues`, `/groups/${groupId}/issues`, "/issues"]) {
        const res = await api({ path: `${path}?labels=${labels}`, token });
        expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
        expect((res.body as { id: number }[]).map((item) => item.id)).toEqual([issue.id]);
      }
      const byIid = await api({ path: `/projects/${projectId}/issues?${iids(ARRAY_LENGTH)}`, token });
      expect((byIid.body as { id: number }[]).map((item) => item.id)).toEqual([issue.id]);
      for (const path of [`/projects/${projectId}/merge_requests`, `/projects/${projectId}/milestones`]) {
        expect(await api({ path: `${path}?${iids(ARRAY_LENGTH)}`, token })).toMatchObject({
          status: 200,
          body: [],
        });
      }
      const relabelled = await api({
        method: "PUT",
        path: `/projects/${projectId}/issues/${issue.id}`,
        token,
        json: { labels: titles(ARRAY_LENGTH, "m") },
      });
      expect(relabelled.status, relabelled.text.slice(0, 200)).toBe(200);
      expect((relabelled.body as { labels: string[] }).labels).toHaveLength(ARRAY_LENGTH);
    });

    it("refuse a huge array parameter with 400, not a 500", async () => {
      const issues = `/projects/${projectId}/issues`;
      expect(await api({ path: `${issues}?${iids(ARRAY_LENGTH + 1)}`, token })).toMatchObject({
        status: 400,
        body: tooManyValues("iid"),
      });
      const hugeJson = { iid: Array.from({ length: 100_000 }, (_, index) => index + 1) };
      expect(await api({ path: issues, token, json: hugeJson })).toMatchObject({
        status: 400,
        body: TOO_MANY,
      });
      expect(await api({ path: issues, token, headers: FORM, body: iids(70_000) })).toMatchObject({
        status: 400,
        body: TOO_MANY,
      });
      for (const path of [issues, `/groups/${groupId}/issues`, "/issues"]) {
        const res = await api({ path, token, headers: FORM, body: `labels=${titles(100_000, "x")}` });
        expect(res).toMatchObject({ status: 400, body: tooManyValues("labels") });
      }
      const create = await api({
        method: "POST",
        path: issues,
        token,
        json: { title: "too many labels", labels: titles(ARRAY_LENGTH + 1, "n") },
      });
      expect(create).toMatchObject({ status: 400, body: tooManyValues("labels") });
      await stillServing();
    });
  });
});

/**
 * Sends `method path` with `Connection: close` and a 64 KiB body in pieces, as a slow client
 * does, reading nothing before it has sent it all; answers the first line it then reads.
 */
async function statusLineWhileSending(port: number, method: string, path: string): Promise<string> {
  const pieces = 16;
  const piece = "x".repeat(4096);
  const socket = connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.pause();
  let received = "";
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
  });
  socket.on("error", () => undefined);
  const closed = new Promise((resolve) => socket.once("close", resolve));
  socket.write(
    `${method} ${path} HTTP/1.1\r\nHost: kiln\r\nConnection: close\r\n` +
      `Content-Type: application/octet-stream\r\nContent-Length: ${pieces * piece.length}\r\n\r\n${piece}`,
  );
  for (let sent = 1; sent < pieces && !socket.destroyed; sent++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.write(piece);
  }
  socket.resume();
  await closed;
  return received.split("\r\n", 1)[0] ?? "";
}

describe("requests refused before their body is read, on Connection: close", () => {
  let served: Served["server"];
  beforeAll(async () => {
    served = await start();
    return () => served.stop();
  });

  it("answer their 404 and 405 to a client still sending the body", async () => {
    expect(await statusLineWhileSending(served.port, "POST", "/api/v3/no/such/route")).toBe(
      "HTTP/1.1 404 Not Found",
    );
    expect(await statusLineWhileSending(served.port, "PATCH", "/api/v3/user")).toBe(
      "HTTP/1.1 405 Method Not Allowed",
    );
    expect(await statusLineWhileSending(served.port, "POST", "/not/the/api")).toBe("HTTP/1.1 404 Not Found");
  });
});
