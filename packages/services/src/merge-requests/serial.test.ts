import { describe, expect, it } from "vitest";
import type { ServiceRuntime } from "../runtime.js";
import { serialized } from "./serial.js";

// The queue only keys on the runtime's identity.
const runtime = {} as unknown as ServiceRuntime;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("serialized", () => {
  it("runs work on one merge request one at a time, in order, even after a failure", async () => {
    const log: string[] = [];
    const step =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      serialized(runtime, 1, step("a", true)),
      serialized(runtime, 1, step("b")),
    ]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "fulfilled"]);
    expect(log).toEqual(["a start", "a end", "b start", "b end"]);
  });

  it("lets work on different merge requests overlap", async () => {
    const log: string[] = [];
    const step = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
    };
    await Promise.all([serialized(runtime, 2, step("x")), serialized(runtime, 3, step("y"))]);
    expect(log.slice(0, 2)).toEqual(["x start", "y start"]);
  });
});
