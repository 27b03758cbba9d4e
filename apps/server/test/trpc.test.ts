import type { UserPublic } from "@kiln/schemas";
import { createUser, type TestUser } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";
import { dataOf, type TrpcBody, trpcCall } from "./trpc-support.js";

onEachDatabase("tRPC over HTTP", (ctx) => {
  let alice: TestUser;
  beforeAll(async () => {
    alice = await createUser(ctx().server, ctx().root, "trpc-alice");
  });

  it("names the caller by the PRIVATE-TOKEN header or Authorization: Bearer, as GET /user does", async () => {
    const v3 = await ctx().api<UserPublic>({ path: "/user", token: alice.token });
    expect(v3.status).toBe(200);
    const byHeader = await trpcCall(ctx(), "query", "users.me", undefined, { token: alice.token });
    const byBearer = await trpcCall(ctx(), "query", "users.me", undefined, { bearer: alice.token });
    expect(byHeader.status).toBe(200);
    expect(dataOf(byHeader)).toEqual(v3.body);
    expect(dataOf(byBearer)).toEqual(v3.body);
  });

  it("refuses credentials that name nobody, and anonymous callers, as UNAUTHORIZED with the failure", async () => {
    for (const auth of [{ bearer: "not-a-token" }, { token: "not-a-token" }, {}]) {
      const res = await trpcCall(ctx(), "query", "users.me", undefined, auth);
      expect(res.status).toBe(401);
      expect(res.body.error?.data).toMatchObject({
        code: "UNAUTHORIZED",
        failure: { kind: "unauthenticated" },
      });
    }
    const malformed = await ctx().api<TrpcBody<unknown>>({
      path: "/api/trpc/users.me",
      headers: { Authorization: "Bearer two words" },
    });
    expect(malformed.status).toBe(401);
  });

  it("answers a batch of calls in one request, each with its own result or error", async () => {
    const res = await ctx().api<TrpcBody<unknown>[]>({
      path: "/api/trpc/users.me,projects.get,todos.list",
      token: alice.token,
      query: { batch: 1, input: JSON.stringify({ 1: { id: 999_999 }, 2: {} }) },
    });
    expect(res.body).toHaveLength(3);
    const [me, project, todos] = res.body as [TrpcBody<UserPublic>, TrpcBody<unknown>, TrpcBody<unknown>];
    expect(me.result?.data.username).toBe("trpc-alice");
    expect(project.error?.data).toMatchObject({
      code: "NOT_FOUND",
      failure: { kind: "not_found", subject: "project" },
    });
    expect(todos.result?.data).toMatchObject({ items: [], page: 1, per_page: 20, total: 0, next_page: null });
  });

  it("refuses a batch of more than 32 calls", async () => {
    const paths = Array.from({ length: 33 }, () => "users.me").join(",");
    const res = await ctx().api({ path: `/api/trpc/${paths}`, token: alice.token, query: { batch: 1 } });
    expect(res.status).toBe(400);
  });

  it("serves only the public procedures: the in-process ones are not found", async () => {
    // auth.identify answers internal rows (a password digest among them) to in-process callers.
    for (const path of ["auth.identify", "tokens.list", "users.list", "session.signIn"]) {
      const res = await trpcCall(ctx(), "query", path, {}, { token: ctx().root.token });
      expect(res.status, path).toBe(404);
      expect(res.body.error?.data.code).toBe("NOT_FOUND");
    }
  });

  it("refuses a body over 1 MiB with PAYLOAD_TOO_LARGE, read to its end, then closes", async () => {
    const res = await ctx().api<TrpcBody<unknown>>({
      method: "POST",
      path: "/api/trpc/todos.markAllDone",
      token: alice.token,
      json: { filler: "x".repeat(2 * 1024 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.body.error?.data.code).toBe("PAYLOAD_TOO_LARGE");
    expect(res.headers.get("connection")).toBe("close");
  });

  it("never answers a stack trace or a bug's own message", async () => {
    const bodies = [
      await trpcCall(ctx(), "query", "projects.get", { id: "not a project ref/" }, { token: alice.token }),
      await trpcCall(ctx(), "query", "users.me", undefined, {}),
      await trpcCall(ctx(), "mutation", "todos.markDone", { id: "x" }, { token: alice.token }),
    ];
    for (const res of bodies) {
      expect(res.body.error).toBeDefined();
      expect(res.text).not.toMatch(/stack|at .*\.(ts|js):\d+/);
    }
  });
});
