import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ProjectJson } from "@kiln/schemas";
import {
  type ApiRequest,
  type ApiResponse,
  createUser,
  git,
  repositoryPath,
  type TestUser,
} from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";

/**
 * The same deletion sent twice at once: one request deletes (200), the other finds it gone (404),
 * as it would one request later; never a 500. The repositories go once and leave nothing on disk.
 * On PostgreSQL both requests really run at once (the second delete of a row waits for the first);
 * each race is run several times, as one run hits the window only sometimes.
 */
const ROUNDS = 10;

onEachDatabase("simultaneous deletes", (ctx) => {
  let alice: TestUser;
  beforeAll(async () => {
    alice = await createUser(ctx().server, ctx().root, "alice", { projects_limit: 1 });
  });

  const root = () => ctx().root.token;
  const api = <T = unknown>(request: ApiRequest) => ctx().api<T>(request);
  const repositories = () => join(ctx().server.dataDir, "repositories");
  /** What the store leaves behind while it builds or removes a repository. */
  const leftovers = () => readdirSync(repositories()).filter((name) => /^\.(tmp|trash)-/.test(name));
  /** The repositories on disk. */
  const repositoryDirs = () =>
    readdirSync(repositories())
      .filter((name) => /^\d+\.git$/.test(name))
      .sort();

  async function newProject(token: string, name: string, namespaceId?: number): Promise<ProjectJson> {
    // Public, so that alice may fork it.
    const json = {
      name,
      visibility_level: 20,
      ...(namespaceId === undefined ? {} : { namespace_id: namespaceId }),
    };
    const res = await api<ProjectJson>({ method: "POST", path: "/projects", token, json });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  /** Sends the same DELETE twice at once; answers both, sorted by status. */
  async function deleteTwice(path: string): Promise<ApiResponse[]> {
    const both = await Promise.all([1, 2].map(() => api({ method: "DELETE", path, token: root() })));
    return both.sort((a, b) => a.status - b.status);
  }

  function expectOneDeleted(answers: ApiResponse[], what: string): void {
    expect(answers.map((res) => [res.status, res.status === 404 ? res.body : "deleted"])).toEqual([
      [200, "deleted"],
      [404, { message: `404 ${what} Not Found` }],
    ]);
  }

  it("deletes a project asked twice at once once: 200 and 404, its repository gone", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const project = await newProject(alice.token, `twice-${round}`);
      expect(existsSync(repositoryPath(ctx().server, project.id))).toBe(true);
      expectOneDeleted(await deleteTwice(`/projects/${project.id}`), "Project");
      expect(existsSync(repositoryPath(ctx().server, project.id))).toBe(false);
      expect(leftovers()).toEqual([]);
    }
    // Alice's count of personal projects went down once per project: with her limit of one she may
    // create one more, and then no other.
    expect(
      (await api<{ can_create_project: boolean }>({ path: "/user", token: alice.token })).body,
    ).toMatchObject({
      can_create_project: true,
    });
    const last = await newProject(alice.token, "last");
    expect(
      (await api<{ can_create_project: boolean }>({ path: "/user", token: alice.token })).body,
    ).toMatchObject({
      can_create_project: false,
    });
    await api({ method: "DELETE", path: `/projects/${last.id}`, token: root() });
  });

  it("deletes a user who owns a project asked twice at once once: 200 and 404, the repository gone", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const owner = await createUser(ctx().server, ctx().root, `owner-${round}`);
      const project = await newProject(owner.token, "mine");
      expectOneDeleted(await deleteTwice(`/users/${owner.id}`), "User");
      expect(existsSync(repositoryPath(ctx().server, project.id))).toBe(false);
      expect(leftovers()).toEqual([]);
    }
  });

  it("deletes a group with projects asked twice at once once: 200 and 404, the repositories gone", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const group = await api<{ id: number }>({
        method: "POST",
        path: "/groups",
        token: root(),
        json: { name: `group-${round}`, path: `group-${round}`, visibility_level: 20 },
      });
      expect(group.status).toBe(201);
      const projects = [
        await newProject(root(), "one", group.body.id),
        await newProject(root(), "two", group.body.id),
      ];
      expectOneDeleted(await deleteTwice(`/groups/${group.body.id}`), "Group");
      for (const project of projects)
        expect(existsSync(repositoryPath(ctx().server, project.id))).toBe(false);
      expect(leftovers()).toEqual([]);
    }
  });

  it("deletes a fork asked twice at once once, and leaves its source whole", async () => {
    const source = await newProject(root(), "fork-source");
    await commitFile(source.id);
    for (let round = 0; round < ROUNDS; round++) {
      const fork = await api<ProjectJson>({
        method: "POST",
        path: `/projects/fork/${source.id}`,
        token: alice.token,
      });
      expect(fork.status, fork.text).toBe(201);
      expectOneDeleted(await deleteTwice(`/projects/${fork.body.id}`), "Project");
      expect(existsSync(repositoryPath(ctx().server, fork.body.id))).toBe(false);
      expect(leftovers()).toEqual([]);
    }
    expect(git(["rev-parse", "master"], repositoryPath(ctx().server, source.id)).trim()).toMatch(
      /^[0-9a-f]{40}$/,
    );
  });

  it("forks a project while it is deleted: the fork is a whole copy (201) or there is none (404)", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const before = repositoryDirs();
      const source = await newProject(root(), `forked-away-${round}`);
      const head = await commitFile(source.id);
      const [fork, removed] = await Promise.all([
        api<ProjectJson>({ method: "POST", path: `/projects/fork/${source.id}`, token: alice.token }),
        api({ method: "DELETE", path: `/projects/${source.id}`, token: root() }),
      ]);
      expect(removed.status).toBe(200);
      if (fork.status === 201) {
        const gitDir = repositoryPath(ctx().server, fork.body.id);
        expect(git(["rev-parse", "master"], gitDir).trim()).toBe(head);
        git(["fsck", "--no-progress"], gitDir);
        expect(
          (await api({ method: "DELETE", path: `/projects/${fork.body.id}`, token: root() })).status,
        ).toBe(200);
      } else {
        expect([fork.status, fork.body]).toEqual([404, { message: "404 Project Not Found" }]);
        const mine = await api<ProjectJson[]>({ path: "/projects/owned", token: alice.token });
        expect(mine.body.map((project) => project.name)).not.toContain(`forked-away-${round}`);
      }
      expect(repositoryDirs()).toEqual(before);
      expect(leftovers()).toEqual([]);
    }
  });

  it("creates a project in a group while the group is deleted: refused, or made and deleted with it", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const before = repositoryDirs();
      const group = await api<{ id: number }>({
        method: "POST",
        path: "/groups",
        token: root(),
        json: { name: `going-${round}`, path: `going-${round}`, visibility_level: 20 },
      });
      await newProject(root(), "first", group.body.id);
      const [created, removed] = await Promise.all([
        api<ProjectJson>({
          method: "POST",
          path: "/projects",
          token: root(),
          json: { name: "late", namespace_id: group.body.id },
        }),
        api({ method: "DELETE", path: `/groups/${group.body.id}`, token: root() }),
      ]);
      expect(removed.status).toBe(200);
      // Refused when the group went first; when the project was made first, it went with the
      // group, before it could be presented (404) or after (201).
      const refused = [400, { message: { namespace: ["is not valid"] } }];
      const gone = [404, { message: "404 Project Not Found" }];
      if (created.status !== 201) expect([refused, gone]).toContainEqual([created.status, created.body]);
      expect((await api({ path: `/groups/${group.body.id}`, token: root() })).status).toBe(404);
      // Whichever came first, the group's projects and their repositories are gone.
      expect(repositoryDirs()).toEqual(before);
      expect(leftovers()).toEqual([]);
    }
  });

  it("answers reads of a repository deleted under them with 404 Project, never 500", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const project = await newProject(root(), `read-gone-${round}`);
      await commitFile(project.id);
      const reads = ["commits", "tree", "branches", "tags", "commits/master/diff"].map((path) =>
        api({ path: `/projects/${project.id}/repository/${path}`, token: root() }),
      );
      const [removed, ...answers] = await Promise.all([
        api({ method: "DELETE", path: `/projects/${project.id}`, token: root() }),
        ...reads,
      ]);
      expect(removed.status).toBe(200);
      for (const res of answers) {
        if (res.status !== 200)
          expect([res.status, res.body]).toEqual([404, { message: "404 Project Not Found" }]);
      }
    }
  });

  /** Commits a file to master through the API; answers the new head. */
  async function commitFile(projectId: number): Promise<string> {
    const res = await api({
      method: "POST",
      path: `/projects/${projectId}/repository/files`,
      token: root(),
      json: {
        file_path: "README.md",
        branch_name: "master",
        content: "hello\n",
        commit_message: "Add README",
      },
    });
    expect(res.status, res.text).toBe(201);
    return git(["rev-parse", "master"], repositoryPath(ctx().server, projectId)).trim();
  }
});
