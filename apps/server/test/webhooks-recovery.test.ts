import type { HookDeliveryJson, ProjectHookJson } from "@kiln/schemas";
import { type KilnProcess, postgresUnavailable } from "@kiln/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { killTree, type Life, lifeOf, openIssue, seededProject, until } from "./crash-support.js";
import { type Receiver, startReceiver } from "./hook-receiver.js";
import { start } from "./support.js";

async function allowLocalHooks(life: Life): Promise<void> {
  const res = await life.api({
    method: "PUT",
    path: "/application/settings",
    json: { allow_local_requests_from_hooks: true },
  });
  expect(res.status).toBe(200);
}

async function addHook(life: Life, projectId: number, url: string): Promise<ProjectHookJson> {
  const res = await life.api<ProjectHookJson>({
    method: "POST",
    path: `/projects/${projectId}/hooks`,
    json: { url, push_events: true, issues_events: true },
  });
  expect(res.status).toBe(201);
  return res.body;
}

for (const database of ["sqlite", "postgres"] as const) {
  const unavailable = database === "postgres" ? postgresUnavailable() : null;

  describe.skipIf(unavailable !== null)(
    `webhook deliveries cut short by kill -9 (${database}${unavailable ? `: ${unavailable}` : ""})`,
    () => {
      let servers: KilnProcess[] = [];
      let receiver: Receiver | undefined;
      afterEach(async () => {
        for (const server of servers.reverse()) await server.stop();
        servers = [];
        await receiver?.close();
      });

      it("delivers after a restart every change acknowledged before the kill, once per delivery id", async () => {
        receiver = await startReceiver();
        // Without workers, this process commits changes and their events and sends nothing: the
        // kill comes between the commit and the send, whatever the timing.
        const first = await lifeOf(await start({ database, env: { KILN_WORKERS: "off" } }));
        servers.push(first.server);
        await allowLocalHooks(first);
        const { project } = await seededProject(first, "recovered");
        await addHook(first, project.id, `${receiver.url}/a`);
        await addHook(first, project.id, `${receiver.url}/b`);
        const titles = ["one", "two", "three", "four", "five"];
        for (const title of titles) await openIssue(first, project.id, title);
        const committed = await first.api({
          method: "POST",
          path: `/projects/${project.id}/repository/files`,
          json: { file_path: "x.txt", branch_name: "master", content: "x\n", commit_message: "x" },
        });
        expect(committed.status).toBe(201);
        await killTree(first.server);
        expect(receiver.received).toEqual([]);

        const second = await lifeOf(await start({ restartOf: first.server }));
        servers.push(second.server);
        for (const path of ["/a", "/b"]) {
          const got = await receiver.waitFor(path, titles.length + 1);
          const issues = got.filter((r) => r.headers["x-gitlab-event"] === "Issue Hook");
          expect(issues.map((r) => (r.body["object_attributes"] as { title: string }).title)).toEqual(titles);
          expect(got.filter((r) => r.headers["x-gitlab-event"] === "Push Hook")).toHaveLength(1);
          const ids = got.map((r) => r.headers["x-kiln-delivery"]);
          expect(new Set(ids).size).toBe(ids.length);
        }
      }, 90_000);

      it.skipIf(database === "postgres")(
        "sends again, with the same delivery id, a delivery the kill cut off mid-send",
        async () => {
          receiver = await startReceiver();
          receiver.answer("/slow", "hang");
          const first = await lifeOf(await start({ database }));
          servers.push(first.server);
          await allowLocalHooks(first);
          const { project } = await seededProject(first, "midsend");
          const hook = await addHook(first, project.id, `${receiver.url}/slow`);
          await openIssue(first, project.id, "cut off");
          const [cut] = await receiver.waitFor("/slow");
          await killTree(first.server);
          receiver.answer("/slow", [200]);

          const second = await lifeOf(await start({ restartOf: first.server }));
          servers.push(second.server);
          const [, again] = await receiver.waitFor("/slow", 2);
          expect(again?.headers["x-kiln-delivery"]).toBe(cut?.headers["x-kiln-delivery"]);
          await until(async () => {
            const log = await second.api<HookDeliveryJson[]>({
              path: `/projects/${project.id}/hooks/${hook.id}/deliveries`,
            });
            return log.body[0]?.state === "delivered";
          });
        },
        90_000,
      );
    },
  );
}
