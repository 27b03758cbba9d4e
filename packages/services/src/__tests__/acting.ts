import type { User } from "@kiln/domain";
import { expect } from "vitest";
import { actorOf } from "../auth/credentials.js";
import { invoke, type Operation } from "../operation.js";
import type { ServiceRuntime } from "../runtime.js";

/**
 * Runs operations as `user` (null: no user) without tRPC, so that a failure is the DomainError
 * itself, its reason and facts there to assert.
 */
export const actingAs =
  (runtime: ServiceRuntime, user: User | null) =>
  // biome-ignore lint/suspicious/noExplicitAny: any operation, its input checked by its own schema
  async <O>(operation: Operation<any, O>, input: unknown): Promise<O> =>
    invoke(
      operation,
      { runtime, actor: user ? actorOf({ user, method: "private_token" }) : null, system: false },
      input,
    );

/** What a failure for a named reason matches. */
export const refusedFor = (reason: string) => ({ failure: expect.objectContaining({ reason }) });
