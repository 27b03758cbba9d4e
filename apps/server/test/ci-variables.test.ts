import { createUser } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";

onEachDatabase("build variables /projects/:id/variables", (served) => {
  let projectId: number;
  beforeAll(async () => {
    const { api, root } = served();
    projectId = (
      await api<{ id: number }>({
        method: "POST",
        path: "/projects",
        token: root.token,
        json: { name: "vars" },
      })
    ).body.id;
  });

  it("adds, reads, changes and removes a project's variables, for masters, with 8.x's refusals", async () => {
    const { api, root, server } = served();
    const call = (method: string, path: string, json?: unknown) =>
      api({
        method,
        path: `/projects/${projectId}/variables${path}`,
        token: root.token,
        ...(json ? { json } : {}),
      });
    expect(
      await call("POST", "", { key: "DEPLOY_KEY", value: "s3cret" }).then((r) => [r.status, r.body]),
    ).toEqual([201, { key: "DEPLOY_KEY", value: "s3cret" }]);
    expect((await call("POST", "", { key: "DEPLOY_KEY", value: "again" })).body).toEqual({
      message: { key: ["has already been taken"] },
    });
    expect((await call("POST", "", { key: "bad-key", value: "x" })).status).toBe(400);
    expect((await call("POST", "", { key: "X" })).body).toEqual({
      message: '400 (Bad request) "value" not given',
    });
    expect((await call("GET", "")).body).toEqual([{ key: "DEPLOY_KEY", value: "s3cret" }]);
    expect((await call("PUT", "/DEPLOY_KEY", { value: "rotated" })).body).toEqual({
      key: "DEPLOY_KEY",
      value: "rotated",
    });
    expect((await call("GET", "/NOPE")).body).toEqual({ message: "404 Variable Not Found" });
    const developer = await createUser(server, root, "vars-dev");
    await api({
      method: "POST",
      path: `/projects/${projectId}/members`,
      token: root.token,
      json: { user_id: developer.id, access_level: 30 },
    });
    const refused = await api({ path: `/projects/${projectId}/variables`, token: developer.token });
    expect(refused.status).toBe(403);
    expect((await call("DELETE", "/DEPLOY_KEY")).body).toEqual({ key: "DEPLOY_KEY", value: "rotated" });
    expect((await call("GET", "")).body).toEqual([]);
  });
});
