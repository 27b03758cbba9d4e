import { EventAction, type ProjectEvent } from "@kiln/domain";
import { expect, it } from "vitest";
import { createIssue, createMergeRequest, createWorkspace } from "./__tests__/collaboration.js";
import { createAccount } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import type { EventFilter } from "./stores/events.js";

describeStores("event feed filters", (ctx) => {
  /** A project's feed of every kind of event, named by what each is about, oldest first. */
  async function feed() {
    const { user: owner, project } = await createWorkspace(ctx.stores, "owner");
    const { user: reader } = await createAccount(ctx.stores, "reader");
    const named = new Map<number, string>();
    const append = async (name: string, event: Omit<ProjectEvent, "id" | "created_at" | "project_id">) => {
      const appended = await ctx.stores.events.append({ ...event, project_id: project.id });
      named.set(appended.id, name);
    };
    const about = (type: string, id: number, title: string | null) => ({
      author_id: owner.id,
      target_type: type,
      target_id: id,
      target_title: title,
      data: null,
    });
    await append("created", { ...about("", 0, null), target_type: null, target_id: null, action: 1 });
    await append("push", {
      ...about("", 0, null),
      target_type: null,
      target_id: null,
      action: EventAction.PUSHED,
      data: { ref: "refs/heads/main" },
    });
    const note = async (type: "Issue" | "MergeRequest", id: number) =>
      ctx.stores.notes.create({
        project_id: project.id,
        noteable_type: type,
        noteable_id: id,
        author_id: owner.id,
        body: "a note",
        attachment: null,
        system: false,
      });
    const issues = {
      plain: await createIssue(ctx.stores, project.id, "plain"),
      secret: await createIssue(ctx.stores, project.id, "secret", { confidential: true }),
      readersSecret: await createIssue(ctx.stores, project.id, "reader's", {
        confidential: true,
        assignee_id: reader.id,
      }),
    };
    for (const [name, issue] of Object.entries(issues)) {
      await append(`issue ${name}`, {
        ...about("Issue", issue.id, issue.title),
        action: EventAction.CREATED,
      });
      await append(`note on issue ${name}`, {
        ...about("Note", (await note("Issue", issue.id)).id, null),
        action: EventAction.COMMENTED,
      });
    }
    const mergeRequests = {
      others: await createMergeRequest(ctx.stores, project.id, "others"),
      readers: await createMergeRequest(ctx.stores, project.id, "readers", { author_id: reader.id }),
    };
    for (const [name, mr] of Object.entries(mergeRequests)) {
      await append(`mr ${name}`, { ...about("MergeRequest", mr.id, mr.title), action: EventAction.CREATED });
      await append(`note on mr ${name}`, {
        ...about("Note", (await note("MergeRequest", mr.id)).id, null),
        action: EventAction.COMMENTED,
      });
    }
    await append("milestone", { ...about("Milestone", 1, "v1"), action: EventAction.CREATED });
    // A deleted issue's events are about nothing readable any more.
    const gone = await createIssue(ctx.stores, project.id, "gone");
    await append("issue gone", { ...about("Issue", gone.id, gone.title), action: EventAction.CREATED });
    await ctx.stores.issues.delete(gone.id);
    return { project, reader, named };
  }

  /** The names of the events listed, in feed order (newest first), and the total. */
  async function listed(setup: Awaited<ReturnType<typeof feed>>, filter: EventFilter, perPage = 100) {
    const names: string[] = [];
    let total: number | null = null;
    for (let page = 1; ; page++) {
      const found = await ctx.stores.events.listForProject(setup.project.id, { page, perPage }, filter);
      total = found.total;
      names.push(...found.items.map((event) => setup.named.get(event.id) as string));
      if (found.items.length < perPage) break;
      expect(found.items).toHaveLength(perPage);
    }
    return { names: names.reverse(), total };
  }

  it("lists every event without a filter, deleted targets included", async () => {
    const setup = await feed();
    const all = await listed(setup, {});
    expect(all.names).toHaveLength(setup.named.size);
    expect(all.total).toBe(setup.named.size);
  });

  it("leaves out pushes, confidential issues of others, merge requests of others and their notes, in SQL", async () => {
    const setup = await feed();
    const filter: EventFilter = {
      withoutPushes: true,
      confidential: { userId: setup.reader.id },
      mergeRequestsOf: { userId: setup.reader.id },
    };
    const expected = [
      "created",
      "issue plain",
      "note on issue plain",
      "issue readersSecret",
      "note on issue readersSecret",
      "mr readers",
      "note on mr readers",
      "milestone",
    ];
    expect(await listed(setup, filter)).toEqual({ names: expected, total: expected.length });
    // Pages of three are full but the last, and the total counts only what is shown.
    expect(await listed(setup, filter, 3)).toEqual({ names: expected, total: expected.length });
  });

  it("applies each part of the filter alone", async () => {
    const setup = await feed();
    const without = async (filter: EventFilter) => {
      const shown = new Set((await listed(setup, filter)).names);
      return [...setup.named.values()].filter((name) => !shown.has(name));
    };
    expect(await without({ withoutPushes: true })).toEqual(["push"]);
    expect(await without({ confidential: { userId: null } })).toEqual([
      "issue secret",
      "note on issue secret",
      "issue readersSecret",
      "note on issue readersSecret",
      "issue gone",
    ]);
    expect(await without({ mergeRequestsOf: { userId: setup.reader.id } })).toEqual([
      "mr others",
      "note on mr others",
    ]);
  });
});
