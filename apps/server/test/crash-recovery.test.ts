import type { IssueJson, MergeRequestJson } from "@kiln/schemas";
import { type KilnProcess, postgresUnavailable } from "@kiln/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  countOf,
  feedOf,
  headOf,
  holdRefTransaction,
  type Life,
  lifeOf,
  openIssue,
  seededProject,
  topicMergeRequest,
  until,
} from "./crash-support.js";
import { start } from "./support.js";

for (const database of ["sqlite", "postgres"] as const) {
  const unavailable = database === "postgres" ? postgresUnavailable() : null;

  describe.skipIf(unavailable !== null)(
    `a merge cut short by kill -9 (${database}${unavailable ? `: ${unavailable}` : ""})`,
    () => {
      let servers: KilnProcess[] = [];
      afterEach(async () => {
        for (const server of servers.reverse()) await server.stop();
        servers = [];
      });
      const started = async (restartOf?: KilnProcess): Promise<Life> => {
        const server = await start(restartOf ? { restartOf } : { database });
        servers.push(server);
        return lifeOf(server);
      };

      /**
       * A project with an issue and a merge request that closes it, accepted with the server killed
       * while git holds the target's update at `state`; answers the server restarted on the same data.
       */
      async function acceptKilledAt(state: "prepared" | "committed") {
        const first = await started();
        const { project, repo } = await seededProject(first, "crash");
        const issue = await openIssue(first, project.id, "A bug");
        const mr = await topicMergeRequest(first, project.id, "topic", issue.iid);
        const before = headOf(repo, "master");
        const hold = holdRefTransaction(repo, "refs/heads/master", state);
        const accepting = first
          .api({ method: "PUT", path: `/projects/${project.id}/merge_requests/${mr.id}/merge` })
          .catch(() => null);
        await until(hold.reached);
        await first.server.kill();
        hold.release();
        await accepting;
        const life = await started(first.server);
        const read = <T>(path: string) => life.api<T>({ path: `/projects/${project.id}${path}` });
        return { life, project, repo, issue, mr, before, read };
      }

      it("finishes at restart a merge whose target moved before the kill: merged, its issue closed, once", async () => {
        const { life, project, repo, issue, mr, before, read } = await acceptKilledAt("committed");
        const head = headOf(repo, "master");
        expect(head).not.toBe(before);
        const merged = await read<MergeRequestJson>(`/merge_requests/${mr.id}`);
        expect(merged.body).toMatchObject({ state: "merged", merge_commit_sha: head });
        expect((await read<IssueJson>(`/issues/${issue.id}`)).body.state).toBe("closed");
        const feed = await feedOf(life, project.id);
        expect(countOf(feed, `accepted MergeRequest ${mr.id}`)).toBe(1);
        expect(countOf(feed, `closed Issue ${issue.id}`)).toBe(1);
        expect(countOf(feed, "pushed to refs/heads/master")).toBe(1);

        // Once: another restart finishes nothing more, and accepting again is 406.
        const again = await started(life.server);
        expect(await feedOf(again, project.id)).toEqual(feed);
        const accepted = await again.api({
          method: "PUT",
          path: `/projects/${project.id}/merge_requests/${mr.id}/merge`,
        });
        expect(accepted).toMatchObject({ status: 406, body: { message: "Method Not Allowed" } });
      }, 60_000);

      it("drops at restart a merge whose target had not moved: the merge request merges when accepted again", async () => {
        const { life, project, repo, mr, before, read } = await acceptKilledAt("prepared");
        expect(headOf(repo, "master")).toBe(before);
        expect((await read<MergeRequestJson>(`/merge_requests/${mr.id}`)).body.state).toBe("opened");
        const accepted = await life.api<MergeRequestJson>({
          method: "PUT",
          path: `/projects/${project.id}/merge_requests/${mr.id}/merge`,
        });
        expect(accepted.status).toBe(200);
        expect(accepted.body).toMatchObject({ state: "merged", merge_commit_sha: headOf(repo, "master") });
        expect(countOf(await feedOf(life, project.id), `accepted MergeRequest ${mr.id}`)).toBe(1);
      }, 60_000);
    },
  );
}
