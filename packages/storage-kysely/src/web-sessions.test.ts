import { expect, it } from "vitest";
import { createAccount } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import type { NewWebSession } from "./stores/web-sessions.js";

const session = (user_id: number, n: number): NewWebSession => ({
  user_id,
  session_digest: `digest-${user_id}-${n}`,
  csrf_token: `csrf-${n}`,
  address: "127.0.0.1",
  user_agent: "test",
});

describeStores("web sessions", (ctx) => {
  it("are found by the digest of their cookie only, and never show the digest", async () => {
    const { user } = await createAccount(ctx.stores, "alice");
    const created = await ctx.stores.webSessions.create(session(user.id, 1));
    expect(created).toMatchObject({ user_id: user.id, csrf_token: "csrf-1", address: "127.0.0.1" });
    expect(created.last_seen_at).toBe(created.created_at);
    expect(created).not.toHaveProperty("session_digest");
    expect(await ctx.stores.webSessions.findByDigest(`digest-${user.id}-1`)).toEqual(created);
    expect(await ctx.stores.webSessions.findByDigest("digest-unknown")).toBeUndefined();
  });

  it("list a user's sessions used since a time, the latest first, and move with touch", async () => {
    const { user } = await createAccount(ctx.stores, "alice");
    const older = await ctx.stores.webSessions.create(session(user.id, 1));
    const newer = await ctx.stores.webSessions.create(session(user.id, 2));
    await ctx.stores.webSessions.touch(older.id, "2000-01-01T00:00:00.000Z");
    await ctx.stores.webSessions.touch(newer.id, "2100-01-01T00:00:00.000Z");
    const listed = await ctx.stores.webSessions.listForUser(user.id, "1999-01-01T00:00:00.000Z");
    expect(listed.map((s) => s.id)).toEqual([newer.id, older.id]);
    const recent = await ctx.stores.webSessions.listForUser(user.id, "2050-01-01T00:00:00.000Z");
    expect(recent.map((s) => s.id)).toEqual([newer.id]);
    expect(await ctx.stores.webSessions.deleteIdleSince("2050-01-01T00:00:00.000Z")).toBe(1);
    expect(await ctx.stores.webSessions.findByDigest(`digest-${user.id}-1`)).toBeUndefined();
  });

  it("end one of a user's own, all of them, or all but one; another user's stay", async () => {
    const { user: alice } = await createAccount(ctx.stores, "alice");
    const { user: bob } = await createAccount(ctx.stores, "bob");
    const a1 = await ctx.stores.webSessions.create(session(alice.id, 1));
    const a2 = await ctx.stores.webSessions.create(session(alice.id, 2));
    await ctx.stores.webSessions.create(session(alice.id, 3));
    const b1 = await ctx.stores.webSessions.create(session(bob.id, 1));
    expect(await ctx.stores.webSessions.delete(bob.id, a1.id)).toBe(false);
    expect(await ctx.stores.webSessions.delete(alice.id, a1.id)).toBe(true);
    expect(await ctx.stores.webSessions.deleteForUser(alice.id, a2.id)).toBe(1);
    const since = "2000-01-01T00:00:00.000Z";
    expect((await ctx.stores.webSessions.listForUser(alice.id, since)).map((s) => s.id)).toEqual([a2.id]);
    expect(await ctx.stores.webSessions.findByDigest(`digest-${alice.id}-3`)).toBeUndefined();
    expect(await ctx.stores.webSessions.deleteForUser(alice.id)).toBe(1);
    expect((await ctx.stores.webSessions.listForUser(bob.id, since)).map((s) => s.id)).toEqual([b1.id]);
  });

  it("go with their user", async () => {
    const { user } = await createAccount(ctx.stores, "alice");
    await ctx.stores.webSessions.create(session(user.id, 1));
    await ctx.stores.users.delete(user.id);
    expect(await ctx.stores.webSessions.findByDigest(`digest-${user.id}-1`)).toBeUndefined();
  });
});

describeStores("private tokens", (ctx) => {
  it("are replaced, digest and sealed form together", async () => {
    const { user } = await createAccount(ctx.stores, "alice");
    expect(
      await ctx.stores.users.replacePrivateToken(user.id, { digest: "new-digest", sealed: "new-sealed" }),
    ).toBe(true);
    expect((await ctx.stores.users.findByPrivateTokenDigest("new-digest"))?.id).toBe(user.id);
    expect(await ctx.stores.users.sealedPrivateToken(user.id)).toBe("new-sealed");
    expect(await ctx.stores.users.replacePrivateToken(user.id + 100, { digest: "x", sealed: "y" })).toBe(
      false,
    );
  });
});
