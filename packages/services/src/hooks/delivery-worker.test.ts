import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { migrateToLatest, openDatabase, Stores } from "@kiln/storage-kysely";
import { createThrowawayPostgres, TEST_PG_URL_ENV } from "@kiln/storage-kysely/testing";
import { afterEach, describe, expect, it } from "vitest";
import { actorOf } from "../auth/credentials.js";
import { createCaller } from "../router.js";
import { ServiceRuntime } from "../runtime.js";
import { DeliveryWorker } from "./delivery-worker.js";

const pgUrl = process.env[TEST_PG_URL_ENV];

describe.skipIf(!pgUrl)("webhook deliveries sent by several processes sharing PostgreSQL", () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  it("sends each delivery once: two workers never both take one", async () => {
    const received: string[] = [];
    const receiver = createServer((req, res) => {
      received.push(String(req.headers["x-kiln-delivery"]));
      req.resume();
      // A little latency, so that both workers are busy at once.
      setTimeout(() => res.end("ok"), 5);
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    closing.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const { port } = receiver.address() as AddressInfo;

    const database = await createThrowawayPostgres(pgUrl ?? "");
    closing.push(() => database.drop());
    const secretKey = randomBytes(32);
    const runtimes: ServiceRuntime[] = [];
    for (let i = 0; i < 2; i++) {
      const opened = await openDatabase({ kind: "postgres", url: database.url, poolSize: 4 });
      closing.push(() => opened.close());
      if (i === 0) await migrateToLatest(opened.db);
      runtimes.push(
        new ServiceRuntime({ stores: new Stores(opened.db), secretKey, singleProcess: false, dataDir: null }),
      );
    }
    const [first] = runtimes as [ServiceRuntime];
    const system = createCaller({ runtime: first, actor: null, system: true });
    await system.settings.update({ allow_local_requests_from_hooks: true });
    const alice = await system.users.create({
      username: "alice",
      email: "alice@example.com",
      name: "alice",
      password: "password123",
      admin: false,
    });
    const me = createCaller({
      runtime: first,
      actor: actorOf({ user: alice, method: "private_token" }),
      system: false,
    });
    const { project } = await me.projects.create({ name: "hooked" });
    // Four hooks: both workers have work at every moment (one delivery in flight per hook each).
    const hookIds: number[] = [];
    for (let i = 0; i < 4; i++) {
      const hook = await me.projectHooks.add({ id: project.id, url: `http://127.0.0.1:${port}/h${i}` });
      hookIds.push(hook.id);
    }
    const uuids: string[] = [];
    for (let n = 0; n < 40; n++) {
      const uuid = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
      uuids.push(uuid);
      await first.stores.deliveries.queue([
        {
          uuid,
          event_id: n,
          hook_scope: "project",
          hook_id: hookIds[n % hookIds.length] as number,
          project_id: project.id,
          event_name: "Push Hook",
          payload: "{}",
        },
      ]);
    }
    for (const runtime of runtimes) {
      const worker = new DeliveryWorker(runtime, { userAgent: "Kiln/test", pollMs: 20 });
      await worker.start();
      closing.push(() => worker.stop());
    }
    await expect.poll(() => received.length).toBeGreaterThanOrEqual(uuids.length);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...received].sort()).toEqual(uuids);
  });
});
