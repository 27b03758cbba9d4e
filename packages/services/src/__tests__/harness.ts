import { randomBytes } from "node:crypto";
import type { User } from "@kiln/domain";
import { Stores } from "@kiln/storage-kysely";
import { type TestDialect, testDialects } from "@kiln/storage-kysely/testing";
import { afterEach, beforeEach, describe } from "vitest";
import { actorOf } from "../auth/credentials.js";
import { type Caller, createCaller } from "../router.js";
import { ServiceRuntime } from "../runtime.js";
import type { AuthMethod } from "../security/identity-cache.js";

/** A runtime on a fresh database, and callers acting as the system or as a user. */
export interface Harness {
  runtime: ServiceRuntime;
  system: Caller;
  anonymous: Caller;
  as(user: User, method?: AuthMethod): Caller;
  /** Creates an active user through the service, with password `password123`. */
  user(username: string, extra?: { admin?: boolean }): Promise<User>;
}

/** Runs `suite` once per available dialect, each test on a fresh database. */
export function forEachDialect(suite: (h: () => Harness, dialect: TestDialect) => void): void {
  for (const dialect of testDialects()) {
    describe.skipIf(dialect.unavailable !== null)(`on ${dialect.name} ${dialect.unavailable ?? ""}`, () => {
      let harness: Harness;
      let close: () => Promise<void>;
      beforeEach(async () => {
        const opened = await dialect.open();
        close = opened.close;
        const runtime = new ServiceRuntime({
          stores: new Stores(opened.db),
          secretKey: randomBytes(32),
          singleProcess: dialect.name === "sqlite",
          dataDir: null,
        });
        const system = createCaller({ runtime, actor: null, system: true });
        harness = {
          runtime,
          system,
          anonymous: createCaller({ runtime, actor: null, system: false }),
          as: (user, method = "private_token") =>
            createCaller({ runtime, actor: actorOf({ user, method }), system: false }),
          user: (username, extra = {}) =>
            system.users.create({
              username,
              email: `${username}@example.com`,
              name: username,
              password: "password123",
              admin: extra.admin ?? false,
            }),
        };
      });
      afterEach(async () => {
        await close();
      });
      suite(() => harness, dialect);
    });
  }
}
