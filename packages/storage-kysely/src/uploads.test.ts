import { expect, it } from "vitest";
import { createAccount, createProject } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";

describeStores("uploads", (ctx) => {
  it("finds an upload by project and secret, and lists the secrets of a project", async () => {
    const { user, namespace } = await createAccount(ctx.stores, "alice");
    const a = await createProject(ctx.stores, namespace.id, "a");
    const b = await createProject(ctx.stores, namespace.id, "b");
    const file = { uploader_id: user.id, filename: "x.png", size: 1 };
    await ctx.stores.uploads.create({ ...file, project_id: a.id, secret: "s1" });
    await ctx.stores.uploads.create({ ...file, project_id: a.id, secret: "s2" });
    await ctx.stores.uploads.create({ ...file, project_id: b.id, secret: "s3" });
    expect(await ctx.stores.uploads.find(a.id, "s2")).toMatchObject({ project_id: a.id, secret: "s2" });
    expect(await ctx.stores.uploads.find(a.id, "s3")).toBeUndefined();
    expect(await ctx.stores.uploads.secretsOf(a.id)).toEqual(new Set(["s1", "s2"]));
    expect(await ctx.stores.uploads.secretsOf(b.id + 1)).toEqual(new Set());
  });
});
