import { existsSync } from "node:fs";
import { join } from "node:path";
import { call, type KilnProcess, signInAsRoot, type TestUser } from "@kiln/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "./crash-support.js";
import { start } from "./support.js";

// KILN_EMBEDDED_RUNNER=on: `kiln serve` runs builds itself, with no runner started by hand.
describe("the embedded runner (sqlite)", () => {
  let server: KilnProcess;
  let root: TestUser;
  beforeAll(async () => {
    server = await start({ env: { KILN_EMBEDDED_RUNNER: "on", KILN_RUNNER_WAIT_SECONDS: "1" } });
    root = await signInAsRoot(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("builds a pushed .gitlab-ci.yml with no other runner, as the server's own user", async () => {
    const api = <T>(request: Parameters<typeof call>[1]) =>
      call<T>(server.url, { token: root.token, ...request });
    const created = await api<{ id: number }>({ method: "POST", path: "/projects", json: { name: "solo" } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const committed = await api({
      method: "POST",
      path: `/projects/${id}/repository/files`,
      json: {
        file_path: ".gitlab-ci.yml",
        branch_name: "master",
        content: "hello:\n  script: echo hello from $CI_BUILD_NAME\n",
        commit_message: "Add CI",
      },
    });
    expect(committed.status, committed.text).toBe(201);
    let builds: { id: number; status: string; runner: { description: string } | null }[] = [];
    await until(async () => {
      builds = (await api<typeof builds>({ path: `/projects/${id}/builds` })).body;
      return builds[0]?.status === "success" || builds[0]?.status === "failed";
    }, 60_000);
    expect(builds[0]).toMatchObject({ status: "success", runner: { description: "embedded" } });
    const trace = await api({ path: `/projects/${id}/builds/${builds[0]?.id}/trace` });
    expect(trace.text).toContain("hello from hello");
    expect(existsSync(join(server.dataDir, "embedded-runner", "kiln-runner.json"))).toBe(true);
  });
});
