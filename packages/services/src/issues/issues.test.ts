import { describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import type { DomainEvent } from "../domain-events.js";

describe("issues operations: domain events", () => {
  forEachDialect((h) => {
    /** Collects the issue events raised while `run` runs, as `action issueId` strings. */
    async function raised(run: () => Promise<unknown>): Promise<string[]> {
      const seen: DomainEvent[] = [];
      const stop = h().runtime.events.subscribe((event) => {
        seen.push(event);
      });
      try {
        await run();
      } finally {
        stop();
      }
      return seen.flatMap((event) => (event.kind === "issue" ? [`${event.action} ${event.issueId}`] : []));
    }

    it("raises open, the state change before update, and close then open for a move", async () => {
      const owner = await h().user("owner");
      const as = h().as(owner);
      const { project } = await as.projects.create({ name: "events" });
      const { project: other } = await as.projects.create({ name: "elsewhere" });
      let issueId = 0;
      expect(
        await raised(async () => {
          issueId = (await as.issues.create({ id: project.id, title: "First" })).issue.id;
        }),
      ).toEqual([expect.stringMatching(/^open \d+$/)]);
      const edit = (input: Record<string, unknown>) => () =>
        as.issues.edit({ id: project.id, issue_id: issueId, ...input });
      expect(await raised(edit({ state_event: "close", title: "Renamed" }))).toEqual([
        `close ${issueId}`,
        `update ${issueId}`,
      ]);
      expect(await raised(edit({ state_event: "close" }))).toEqual([]);
      expect(await raised(edit({ state_event: "reopen" }))).toEqual([`reopen ${issueId}`]);
      expect(await raised(edit({ description: "same or not, it is an update" }))).toEqual([
        `update ${issueId}`,
      ]);
      let movedId = 0;
      const moves = await raised(async () => {
        movedId = (await as.issues.move({ id: project.id, issue_id: issueId, to_project_id: other.id })).issue
          .id;
      });
      expect(moves).toEqual([`close ${issueId}`, `open ${movedId}`]);
      expect(
        await raised(() =>
          as.issues.move({ id: project.id, issue_id: issueId, to_project_id: other.id }).catch(() => null),
        ),
      ).toEqual([]);
    });
  });
});
