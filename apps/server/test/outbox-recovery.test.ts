import { type KilnProcess, postgresUnavailable } from "@kiln/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  fromDatabase,
  killTree,
  type Life,
  lifeOf,
  seededProject,
  topicMergeRequest,
  until,
} from "./crash-support.js";
import { start } from "./support.js";

/** The merge request's `merge_status` as stored (a read through the API would check it first). */
const storedStatus = (life: Life, id: number) =>
  fromDatabase(life, async (db) => {
    const row = await db
      .selectFrom("merge_requests")
      .select("merge_status")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return row.merge_status;
  });

for (const database of ["sqlite", "postgres"] as const) {
  const unavailable = database === "postgres" ? postgresUnavailable() : null;

  describe.skipIf(unavailable !== null)(
    `domain events cut short by kill -9 (${database}${unavailable ? `: ${unavailable}` : ""})`,
    () => {
      let servers: KilnProcess[] = [];
      afterEach(async () => {
        for (const server of servers.reverse()) await server.stop();
        servers = [];
      });

      it("handles at restart a push committed before the kill and never dispatched: its merge request is rechecked", async () => {
        // Without workers, this process commits events and dispatches none: the kill comes between
        // the commit of the push and its dispatch, whatever the timing.
        const first = await lifeOf(await start({ database, env: { KILN_WORKERS: "off" } }));
        servers.push(first.server);
        const { project } = await seededProject(first, "outbox");
        const mr = await topicMergeRequest(first, project.id, "topic");
        expect(mr.merge_status).toBe("can_be_merged");
        // master gets its own topic.txt: the merge request now conflicts.
        const committed = await first.api({
          method: "POST",
          path: `/projects/${project.id}/repository/files`,
          json: {
            file_path: "topic.txt",
            branch_name: "master",
            content: "other\n",
            commit_message: "clash",
          },
        });
        expect(committed.status).toBe(201);
        expect(await storedStatus(first, mr.id)).toBe("can_be_merged");
        await killTree(first.server);

        const second = await lifeOf(await start({ restartOf: first.server }));
        servers.push(second.server);
        await until(async () => (await storedStatus(second, mr.id)) === "cannot_be_merged");
      }, 60_000);
    },
  );
}
