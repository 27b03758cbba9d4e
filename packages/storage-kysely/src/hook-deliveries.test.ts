import { expect, it } from "vitest";
import { ALL } from "./__tests__/fixtures.js";
import { describeStores } from "./__tests__/store-suite.js";
import type { NewDelivery } from "./stores/hook-deliveries.js";

const delivery = (uuid: string, eventId: number | null, hookId = 1): NewDelivery => ({
  uuid,
  event_id: eventId,
  hook_scope: "project",
  hook_id: hookId,
  project_id: 7,
  event_name: "Push Hook",
  payload: "{}",
});

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

describeStores("hook delivery store", (ctx) => {
  it("queues one delivery per event and hook however often the event is handled; test deliveries (no event) are never merged", async () => {
    const { deliveries } = ctx.stores;
    await deliveries.queue([delivery("a", 1), delivery("b", 1, 2)]);
    await deliveries.queue([delivery("a2", 1), delivery("b2", 1, 2), delivery("c", 2)]);
    await deliveries.queue([delivery("t1", null), delivery("t2", null)]);
    // The oldest of each hook's.
    const due = await deliveries.due(later(1000), 100);
    expect(due.map((d) => [d.hook_id, d.id])).toEqual([
      [1, due[0]?.id],
      [2, due[1]?.id],
    ]);
    const page = await deliveries.listForHook("project", 1, ALL);
    expect(page.items.map((d) => d.uuid)).toEqual(["t2", "t1", "c", "a"]);
    expect(page.items[0]).toMatchObject({ state: "pending", attempts: 0, request_headers: null });
  });

  it("lets one claimant hold a due delivery until its lease ends, then records the attempt and releases it", async () => {
    const { deliveries } = ctx.stores;
    await deliveries.queue([delivery("a", 1)]);
    const [due] = await deliveries.due(later(10), 10);
    const at = later(10);
    const claimed = await deliveries.claim([due?.id ?? 0], at, later(60_000));
    expect(claimed.map((d) => d.uuid)).toEqual(["a"]);
    expect(await deliveries.claim([due?.id ?? 0], at, later(60_000))).toEqual([]);
    expect(await deliveries.due(at, 10)).toEqual([]);
    // A lease past its end is free again (the claimant died).
    expect(await deliveries.due(later(120_000), 10)).toHaveLength(1);

    await deliveries.record(due?.id ?? 0, {
      state: "pending",
      next_attempt_at: later(2000),
      url: "http://x/",
      request_headers: { "X-Gitlab-Event": "Push Hook" },
      response_status: 502,
      response_headers: { server: "x" },
      response_body: "bad gateway",
      error: null,
      duration_ms: 3,
    });
    expect(await deliveries.due(later(10), 10)).toEqual([]);
    expect(await deliveries.due(later(3000), 10)).toHaveLength(1);
    expect(await deliveries.findByUuid("a")).toMatchObject({
      attempts: 1,
      response_status: 502,
      request_headers: { "X-Gitlab-Event": "Push Hook" },
      response_headers: { server: "x" },
    });
  });

  it("releases every claim at once, and prunes finished deliveries past retention only", async () => {
    const { deliveries } = ctx.stores;
    await deliveries.queue([delivery("a", 1), delivery("b", 2)]);
    const [a] = await deliveries.due(later(10), 10);
    await deliveries.claim([a?.id ?? 0], later(10), later(60_000));
    await deliveries.releaseClaims();
    expect(await deliveries.due(later(10), 10)).toEqual([{ id: a?.id, hook_scope: "project", hook_id: 1 }]);
    await deliveries.record(a?.id ?? 0, {
      state: "delivered",
      next_attempt_at: null,
      url: null,
      request_headers: null,
      response_status: 200,
      response_headers: null,
      response_body: "",
      error: null,
      duration_ms: 1,
    });
    expect(await deliveries.prune(new Date(Date.now() - 1000).toISOString())).toBe(0);
    expect(await deliveries.prune(later(1000))).toBe(1);
    expect((await deliveries.listForHook("project", 1, ALL)).items.map((d) => d.uuid)).toEqual(["b"]);
  });
});
