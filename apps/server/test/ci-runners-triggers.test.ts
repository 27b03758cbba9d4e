import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type ApiRequest,
  type ApiResponse,
  call,
  createUser,
  type KilnProcess,
  postgresUnavailable,
  signInAsRoot,
  type TestUser,
} from "@kiln/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runnerCall } from "./ci-support.js";
import { type GitClient, gitClient, repoUrl } from "./git-client.js";
import { start } from "./support.js";

// Only triggers build the deploy job; a push builds nothing.
const CI_FILE = `
deploy:
  script: echo "$DEPLOY_TO"
  only: [triggers]
`;

interface RunnerJson {
  id: number;
  description: string | null;
  active: boolean;
  is_shared: boolean;
  name: string | null;
}

interface BuildJson {
  id: number;
  name: string;
  variables: { key: string; value: string; public: boolean }[];
}

const RUNNER_KEYS = ["id", "description", "active", "is_shared", "name"];
const DETAILS_KEYS = [
  ...RUNNER_KEYS,
  "tag_list",
  "run_untagged",
  "locked",
  "version",
  "revision",
  "platform",
  "architecture",
  "contacted_at",
];

for (const database of ["sqlite", "postgres"] as const) {
  const unavailable = database === "postgres" ? postgresUnavailable() : null;
  describe.skipIf(unavailable !== null)(`runners and triggers of /api/v3 (${database})`, () => {
    let server: KilnProcess;
    let root: TestUser;
    let master: TestUser;
    let developer: TestUser;
    let outsider: TestUser;
    let git: GitClient;
    const api = <T = unknown>(request: ApiRequest): Promise<ApiResponse<T>> => call<T>(server.url, request);

    /** A new private project of root's, with `master` and `developer` as members. */
    const project = async (name: string): Promise<{ id: number; runnersToken: string }> => {
      const made = await api<{ id: number }>({
        method: "POST",
        path: "/projects",
        token: root.token,
        json: { name },
      });
      for (const [user, level] of [
        [master, 40],
        [developer, 30],
      ] as const) {
        await api({
          method: "POST",
          path: `/projects/${made.body.id}/members`,
          token: root.token,
          json: { user_id: user.id, access_level: level },
        });
      }
      const shown = await api<{ runners_token: string }>({
        path: `/projects/${made.body.id}`,
        token: root.token,
      });
      return { id: made.body.id, runnersToken: shown.body.runners_token };
    };

    beforeAll(async () => {
      server = await start({ database, env: { KILN_RUNNER_WAIT_SECONDS: "1" } });
      root = await signInAsRoot(server);
      master = await createUser(server, root, "ci-master");
      developer = await createUser(server, root, "ci-dev");
      outsider = await createUser(server, root, "ci-outsider");
      git = gitClient();
    });
    afterAll(async () => {
      git?.remove();
      await server?.stop();
    });

    it("manages a project's runner as 8.x: masters and administrators only, the token to those allowed", async () => {
      const app = await project("runners-app");
      const other = await project("runners-other");
      const registered = await runnerCall<{ id: number; token: string }>(
        server,
        "POST",
        "/runners/register",
        {
          token: app.runnersToken,
          description: "e2e",
        },
      );
      expect(registered.status).toBe(201);
      const { id, token } = registered.body;
      const runners = (user: TestUser, path: string, query: ApiRequest["query"] = {}) =>
        api<RunnerJson[]>({ path, token: user.token, query });

      const mine = await runners(master, "/runners");
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual([{ id, description: "e2e", active: true, is_shared: false, name: null }]);
      expect(mine.headers.get("x-total")).toBe("1");
      expect((await runners(master, "/runners", { scope: "online" })).body.map((r) => r.id)).toEqual([id]);
      expect((await runners(master, "/runners", { scope: "paused" })).body).toEqual([]);
      expect((await runners(master, "/runners", { scope: "shared" })).status).toBe(400);
      expect((await runners(developer, "/runners")).body).toEqual([]);
      expect((await runners(master, "/runners/all")).status).toBe(403);
      expect((await runners(root, "/runners/all", { scope: "specific" })).body.map((r) => r.id)).toContain(
        id,
      );
      expect((await runners(master, `/projects/${app.id}/runners`)).body.map((r) => r.id)).toEqual([id]);
      expect((await runners(developer, `/projects/${app.id}/runners`)).status).toBe(403);
      expect((await runners(outsider, `/projects/${app.id}/runners`)).body).toEqual({
        message: "404 Project Not Found",
      });

      // Details: the token and the projects to the master; refused to a developer.
      const details = await api<Record<string, unknown>>({ path: `/runners/${id}`, token: master.token });
      expect(Object.keys(details.body)).toEqual([...DETAILS_KEYS, "token", "projects"]);
      expect(details.body["token"]).toBe(token);
      expect(details.body["contacted_at"]).not.toBeNull();
      expect(details.body["projects"]).toEqual([
        expect.objectContaining({ id: app.id, path: "runners-app" }),
      ]);
      expect((await api({ path: `/runners/${id}`, token: developer.token })).body).toEqual({
        message: "403 Forbidden  - No access granted",
      });
      expect((await api({ path: "/runners/999999", token: root.token })).body).toEqual({
        message: "404 Not found",
      });

      const updated = await api<Record<string, unknown>>({
        method: "PUT",
        path: `/runners/${id}`,
        token: master.token,
        json: { description: "renamed", tag_list: ["docker", "linux"], locked: true },
      });
      expect(updated.body).toMatchObject({
        description: "renamed",
        tag_list: ["docker", "linux"],
        locked: true,
      });
      expect(
        (await api({ method: "PUT", path: `/runners/${id}`, token: master.token, json: {} })).status,
      ).toBe(400);

      // Enabling on another project: refused while locked, then done once (409 the second time).
      const enable = (user: TestUser) =>
        api({
          method: "POST",
          path: `/projects/${other.id}/runners`,
          token: user.token,
          json: { runner_id: id },
        });
      expect((await enable(master)).body).toEqual({ message: "403 Forbidden  - Runner is locked" });
      await api({ method: "PUT", path: `/runners/${id}`, token: master.token, json: { locked: false } });
      expect((await enable(developer)).status).toBe(403);
      const enabled = await enable(master);
      expect([enabled.status, Object.keys(enabled.body as object)]).toEqual([201, RUNNER_KEYS]);
      expect((await enable(master)).body).toEqual({ message: "Runner was already enabled for this project" });
      expect((await api({ method: "DELETE", path: `/runners/${id}`, token: master.token })).body).toEqual({
        message: "403 Forbidden  - Runner associated with more than one project",
      });

      // Disabling: not on its last project; then the master removes it, and its token is dead.
      const disable = (projectId: number) =>
        api({ method: "DELETE", path: `/projects/${projectId}/runners/${id}`, token: master.token });
      expect((await disable(other.id)).status).toBe(200);
      expect((await disable(other.id)).body).toEqual({ message: "404 Runner Not Found" });
      expect((await disable(app.id)).body).toEqual({
        message:
          "403 Forbidden  - Only one project associated with the runner. Please remove the runner instead",
      });
      expect((await api({ method: "DELETE", path: `/runners/${id}`, token: developer.token })).status).toBe(
        403,
      );
      const removed = await api<RunnerJson>({
        method: "DELETE",
        path: `/runners/${id}`,
        token: master.token,
      });
      expect([removed.status, removed.body.id]).toEqual([200, id]);
      expect((await runnerCall(server, "POST", "/builds/register", { token })).status).toBe(403);
    });

    it("triggers a pipeline with variables that reach the runner, and refuses as 8.x", async () => {
      const app = await project("triggered");
      const work = join(git.root, "triggered");
      await git.ok(["init", "--quiet", "-b", "master", work]);
      await git.commit(work, "no ci yet", "README");
      await git.ok(["tag", "v0"], work);
      writeFileSync(join(work, ".gitlab-ci.yml"), CI_FILE);
      await git.ok(["add", ".gitlab-ci.yml"], work);
      await git.ok(["commit", "--quiet", "-m", "add ci"], work);
      const remote = repoUrl(server.url, "root/triggered", { username: "root", secret: root.token });
      await git.ok(["push", "--quiet", remote, "master", "v0"], work);

      const triggers = `/projects/${app.id}/triggers`;
      const made = await api<Record<string, unknown>>({
        method: "POST",
        path: triggers,
        token: master.token,
      });
      expect(made.status).toBe(201);
      expect(Object.keys(made.body)).toEqual([
        "token",
        "created_at",
        "updated_at",
        "deleted_at",
        "last_used",
      ]);
      const token = String(made.body["token"]);
      expect(token).toMatch(/^[0-9a-f]{30}$/);
      expect((await api({ path: triggers, token: developer.token })).status).toBe(403);
      expect((await api({ path: triggers, token: outsider.token })).status).toBe(404);
      expect((await api({ path: `${triggers}/${token}`, token: master.token })).body).toMatchObject({
        token,
      });

      // No user: the token is the credential.
      const trigger = (form: Record<string, string>, path = `/projects/${app.id}/trigger/builds`) =>
        api<Record<string, unknown>>({ method: "POST", path, form });
      const requested = await trigger({ token, ref: "master", "variables[DEPLOY_TO]": "production" });
      expect([requested.status, requested.body]).toEqual([
        201,
        { id: expect.any(Number), variables: { DEPLOY_TO: "production" } },
      ]);
      const pipeline = await api<{ id: number; ref: string }>({
        path: `/projects/${app.id}/pipelines/${requested.body["id"]}`,
        token: developer.token,
      });
      expect(pipeline.body).toMatchObject({ id: requested.body["id"], ref: "master" });

      const registered = await runnerCall<{ token: string }>(server, "POST", "/runners/register", {
        token: app.runnersToken,
      });
      const build = await runnerCall<BuildJson>(server, "POST", "/builds/register", {
        token: registered.body.token,
      });
      expect([build.status, build.body.name]).toEqual([201, "deploy"]);
      expect(build.body.variables).toContainEqual({ key: "CI_BUILD_TRIGGERED", value: "true", public: true });
      expect(build.body.variables).toContainEqual({ key: "DEPLOY_TO", value: "production", public: false });

      // The ref in the path (8.x's other route) and no variables.
      const byPath = await trigger({ token }, `/projects/${app.id}/ref/master/trigger/builds`);
      expect([byPath.status, byPath.body["variables"]]).toEqual([201, null]);

      expect((await trigger({ token: "0".repeat(30), ref: "master" })).body).toEqual({
        message: "404 Not Found",
      });
      expect((await trigger({ token, ref: "nope" })).body).toEqual({ message: "No builds created" });
      expect((await trigger({ token, ref: "v0" })).body).toEqual({ message: "No builds created" });
      expect((await trigger({ ref: "master" })).body).toEqual({
        message: '400 (Bad request) "token" not given',
      });
      expect((await trigger({ token, ref: "master", "variables[A][]": "x" })).body).toEqual({
        message: "variables needs to be a map of key-valued strings",
      });
      expect((await trigger({ token, ref: "master", variables: "x" })).status).toBe(400);
      const otherApp = await project("triggered-other");
      expect(
        (await trigger({ token, ref: "master" }, `/projects/${otherApp.id}/trigger/builds`)).status,
      ).toBe(401);

      const listed = await api<{ last_used: string | null }[]>({ path: triggers, token: master.token });
      expect(listed.body[0]?.last_used).not.toBeNull();
      const deleted = await api<{ deleted_at: string | null }>({
        method: "DELETE",
        path: `${triggers}/${token}`,
        token: master.token,
      });
      expect([deleted.status, deleted.body.deleted_at === null]).toEqual([200, false]);
      expect((await trigger({ token, ref: "master" })).status).toBe(404);
      expect((await api({ path: `${triggers}/${token}`, token: master.token })).body).toEqual({
        message: "404 Trigger Not Found",
      });
    });
  });
}
