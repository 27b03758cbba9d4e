import { expect, it } from "vitest";
import { newUser } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import { UniqueViolation } from "./errors.js";

const LATER = "2999-01-01T00:00:00.000Z";

describeStores("oauth stores", (ctx) => {
  async function setUp() {
    const { stores } = ctx;
    const alice = await stores.users.create(newUser("alice"));
    const bob = await stores.users.create(newUser("bob"));
    const app = await stores.oauthApplications.create({
      owner_id: alice.id,
      name: "Tool",
      uid: "uid-1",
      secret_digest: "secret-1",
      redirect_uri: "https://tool.example/cb",
      scopes: "api read_user",
    });
    return { alice, bob, app };
  }

  const tokenOf = (app: number | null, user: number, digest: string, grant: number | null = null) =>
    ctx.stores.oauthTokens.create({
      application_id: app,
      resource_owner_id: user,
      grant_id: grant,
      token_digest: digest,
      refresh_token_digest: `r-${digest}`,
      scopes: "api",
      expires_in: 7200,
    });

  it("keep applications by client id with the secret's digest, and refuse a taken client id", async () => {
    const { alice, app } = await setUp();
    expect(await ctx.stores.oauthApplications.findClient("uid-1")).toMatchObject({
      id: app.id,
      secret_digest: "secret-1",
    });
    expect(app).not.toHaveProperty("secret_digest");
    expect(await ctx.stores.oauthApplications.list(alice.id)).toEqual([app]);
    expect(await ctx.stores.oauthApplications.replaceSecret(app.id, "secret-2")).toBe(true);
    expect((await ctx.stores.oauthApplications.findClient("uid-1"))?.secret_digest).toBe("secret-2");
    await expect(
      ctx.stores.oauthApplications.create({ ...app, owner_id: null, secret_digest: "x" }),
    ).rejects.toBeInstanceOf(UniqueViolation);
  });

  it("redeem a grant once, however many try", async () => {
    const { alice, app } = await setUp();
    const grant = await ctx.stores.oauthGrants.create({
      application_id: app.id,
      resource_owner_id: alice.id,
      code_digest: "code",
      redirect_uri: "https://tool.example/cb",
      scopes: "api",
      code_challenge: null,
      code_challenge_method: null,
      expires_at: LATER,
    });
    expect(await ctx.stores.oauthGrants.findByCodeDigest("code")).toEqual(grant);
    const tries = await Promise.all([1, 2, 3].map(() => ctx.stores.oauthGrants.redeem(grant.id)));
    expect(tries.filter(Boolean)).toHaveLength(1);
    expect((await ctx.stores.oauthGrants.findByCodeDigest("code"))?.revoked_at).not.toBeNull();
  });

  it("find tokens by either digest, revoke each once, and in bulk by application and user", async () => {
    const { alice, bob, app } = await setUp();
    const first = await tokenOf(app.id, alice.id, "t1");
    await tokenOf(app.id, bob.id, "t2");
    await tokenOf(null, alice.id, "t3");
    expect(await ctx.stores.oauthTokens.findByDigest("t1")).toEqual(first);
    expect(await ctx.stores.oauthTokens.findByDigest("r-t1", true)).toEqual(first);
    expect(await ctx.stores.oauthTokens.findByDigest("r-t1")).toBeUndefined();
    expect(await ctx.stores.oauthTokens.listAuthorized(alice.id)).toEqual([first]);

    expect(await ctx.stores.oauthTokens.revokeAll({ applicationId: app.id, userId: alice.id })).toEqual([
      alice.id,
    ]);
    expect(await ctx.stores.oauthTokens.revoke(first.id)).toBe(false);
    expect(await ctx.stores.oauthTokens.listAuthorized(alice.id)).toEqual([]);
    expect(await ctx.stores.oauthTokens.revokeAll({ applicationId: app.id })).toEqual([bob.id]);
    expect((await ctx.stores.oauthTokens.findByDigest("t3"))?.revoked_at).toBeNull();
  });

  it("delete an application with its grants and tokens", async () => {
    const { alice, app } = await setUp();
    await tokenOf(app.id, alice.id, "t1");
    expect(await ctx.stores.oauthApplications.delete(app.id)).toBe(true);
    expect(await ctx.stores.oauthTokens.findByDigest("t1")).toBeUndefined();
    expect(await ctx.stores.oauthApplications.findById(app.id)).toBeUndefined();
  });

  it("keep the scopes of personal access tokens, api by default", async () => {
    const { alice } = await setUp();
    const plain = await ctx.stores.personalAccessTokens.create({
      user_id: alice.id,
      name: "a",
      token_digest: "p1",
      expires_at: null,
    });
    const narrow = await ctx.stores.personalAccessTokens.create({
      user_id: alice.id,
      name: "b",
      token_digest: "p2",
      expires_at: null,
      scopes: ["read_user"],
    });
    expect(plain.scopes).toEqual(["api"]);
    expect((await ctx.stores.personalAccessTokens.findByDigest("p2"))?.scopes).toEqual(narrow.scopes);
    expect(narrow.scopes).toEqual(["read_user"]);
  });
});
