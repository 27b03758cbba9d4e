import { existsSync } from "node:fs";
import type { ProjectJson } from "@kiln/schemas";
import { createUser, git, repositoryPath, seedRepository, type TestUser } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";

onEachDatabase("project repositories on disk", (ctx) => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    alice = await createUser(ctx().server, ctx().root, "repo-alice");
    bob = await createUser(ctx().server, ctx().root, "repo-bob");
  });

  const create = async (user: TestUser, name: string) => {
    const res = await ctx().api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: user.token,
      json: { name, visibility_level: 20 },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const heads = (id: number) =>
    git(["for-each-ref", "--format=%(refname) %(objectname)"], repositoryPath(ctx().server, id));

  it("creates an empty bare repository with the project, named by its id", async () => {
    const project = await create(alice, "born-empty");
    const path = repositoryPath(ctx().server, project.id);
    expect(git(["rev-parse", "--is-bare-repository"], path).trim()).toBe("true");
    expect(heads(project.id)).toBe("");
  });

  it("gives a fork a copy that outlives its source, and removes repositories with their projects", async () => {
    const source = await create(alice, "forked-from");
    const [first, second] = seedRepository(ctx().server, source.id, [
      { message: "first", files: { "README.md": "# hello\n" } },
      { message: "second", files: { "src/a.txt": "a\n" }, branch: "feature" },
    ]);
    const fork = await ctx().api<ProjectJson>({
      method: "POST",
      path: `/projects/fork/${source.id}`,
      token: bob.token,
    });
    expect(fork.status).toBe(201);
    expect(heads(fork.body.id)).toBe(`refs/heads/feature ${second}\nrefs/heads/master ${first}\n`);

    const removed = await ctx().api({ method: "DELETE", path: `/projects/${source.id}`, token: alice.token });
    expect(removed.status).toBe(200);
    expect(existsSync(repositoryPath(ctx().server, source.id))).toBe(false);
    const forkPath = repositoryPath(ctx().server, fork.body.id);
    expect(git(["fsck", "--full", "--no-progress"], forkPath)).toBe("");
    expect(git(["log", "--format=%s", "feature"], forkPath)).toBe("second\nfirst\n");

    await ctx().api({ method: "DELETE", path: `/projects/${fork.body.id}`, token: bob.token });
    expect(existsSync(forkPath)).toBe(false);
  });

  it("removes the repositories of a deleted user's personal projects", async () => {
    const carol = await createUser(ctx().server, ctx().root, "repo-carol");
    const project = await create(carol, "soon-gone");
    const path = repositoryPath(ctx().server, project.id);
    expect(existsSync(path)).toBe(true);
    const removed = await ctx().api({
      method: "DELETE",
      path: `/users/${carol.id}`,
      token: ctx().root.token,
    });
    expect(removed.status).toBe(200);
    expect(existsSync(path)).toBe(false);
  });
});
