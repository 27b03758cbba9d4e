import { beforeAll, describe, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";

onEachDatabase("v3 request conventions", (ctx) => {
  let token: string;
  beforeAll(() => {
    token = ctx().root.token;
  });

  it("merges parameters from the query string, urlencoded and JSON bodies, and multipart forms", async () => {
    const viaQuery = await ctx().api({
      method: "POST",
      path: "/users",
      token,
      query: { username: "q1", email: "q1@example.com", name: "Q", password: "password123" },
    });
    expect(viaQuery.status).toBe(201);
    const mixed = await ctx().api({
      method: "POST",
      path: "/users",
      token,
      query: { username: "q2", name: "from-query" },
      form: { password: "password123", email: "q2@example.com", name: "from-body" },
    });
    expect(mixed).toMatchObject({ status: 201, body: { username: "q2", name: "from-body" } });
    const form = new FormData();
    for (const [k, v] of Object.entries({
      username: "q3",
      email: "q3@example.com",
      name: "M",
      password: "password123",
      admin: "0",
    })) {
      form.append(k, v);
    }
    const encoded = new Request("http://x/", { method: "POST", body: form });
    const multipart = await ctx().api({
      method: "POST",
      path: "/users",
      token,
      body: Buffer.from(await encoded.arrayBuffer()),
      headers: { "Content-Type": encoded.headers.get("content-type") as string },
    });
    expect(multipart).toMatchObject({ status: 201, body: { username: "q3", is_admin: false } });
  });

  it("tolerates JSON bodies on GET and DELETE and ignores unknown keys", async () => {
    const res = await ctx().api<{ username: string }[]>({
      path: "/users",
      token,
      json: { username: "root", nonsense: { deeply: ["ignored"] } },
    });
    expect(res.body.map((u) => u.username)).toEqual(["root"]);
  });

  it("reads booleans written 1/0/true/false", async () => {
    const blocked = await ctx().api<unknown[]>({ path: "/users", token, query: { blocked: "1" } });
    expect(blocked.body).toEqual([]);
    const notBlocked = await ctx().api<unknown[]>({ path: "/users", token, query: { blocked: "false" } });
    expect(notBlocked.body.length).toBeGreaterThan(0);
  });

  it("answers unknown routes under /api/v3 with 404 and a wrong method with 405", async () => {
    expect(await ctx().api({ path: "/no/such/thing", token })).toMatchObject({
      status: 404,
      body: { message: "404 Not Found" },
    });
    expect(await ctx().api({ path: "/no/such/thing" })).toMatchObject({ status: 404 });
    expect(await ctx().api({ method: "PATCH", path: "/user", token })).toMatchObject({
      status: 405,
      body: { message: "405 Method Not Allowed" },
    });
  });

  it("refuses a body over 1 MiB with 413 and keeps serving", async () => {
    const huge = await ctx().api({
      method: "POST",
      path: "/users",
      token,
      json: { username: "big", bio: "x".repeat(2 * 1024 * 1024) },
    });
    expect(huge).toMatchObject({ status: 413, body: { message: "413 Request Entity Too Large" } });
    expect((await ctx().api({ path: "/user", token })).status).toBe(200);
  });

  it("refuses malformed JSON with a 400, not a 500", async () => {
    const res = await ctx().api({
      method: "POST",
      path: "/users",
      token,
      body: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(res).toMatchObject({ status: 400, body: { message: "400 (Bad request) body is not valid JSON" } });
  });

  it("answers paths outside the API with a JSON 404", async () => {
    expect(await ctx().api({ path: "/api/v4/user", token })).toMatchObject({ status: 404 });
    expect(await ctx().api({ path: `${ctx().server.url}/nowhere`, token })).toMatchObject({ status: 404 });
  });
});

describe("request log", () => {
  it("writes one line per request with method, path, status, ms and user id, and never secrets", async () => {
    const { start } = await import("./support.js");
    const { signInAsRoot, call } = await import("@kiln/testkit");
    const server = await start();
    try {
      const root = await signInAsRoot(server);
      await call(server.url, { path: "/user", query: { private_token: root.token } });
      await call(server.url, { path: "/users", token: root.token });
      // lines are buffered for up to 200 ms
      const requestLines = () => server.logs.filter((line) => line["msg"] === "request");
      for (let waited = 0; requestLines().length < 3 && waited < 2000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const requests = requestLines();
      expect(requests.map((line) => [line["method"], line["path"], line["status"], line["user_id"]])).toEqual(
        [
          ["POST", "/api/v3/session", 201, null],
          ["GET", "/api/v3/user", 200, root.id],
          ["GET", "/api/v3/users", 200, root.id],
        ],
      );
      for (const line of requests) expect(typeof line["ms"]).toBe("number");
      const everything = JSON.stringify(server.logs);
      expect(everything).not.toContain(root.token);
      expect(everything).not.toContain(server.rootPassword);
    } finally {
      await server.stop();
    }
  });
});
