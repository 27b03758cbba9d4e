import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunnerApi } from "./api-client.js";
import type { BuildDetails } from "./api-schema.js";
import { CiApiDouble } from "./ci-api-double.js";
import { QUIET_LOG } from "./log.js";
import { TraceBuffer } from "./trace-buffer.js";
import { TraceStream } from "./trace-stream.js";

const FAST = { intervalMs: 20, keepaliveMs: 50, retry: { minMs: 20, maxMs: 100 } };

let double: CiApiDouble;
let api: RunnerApi;
let nextId = 100;
beforeAll(async () => {
  double = await new CiApiDouble().start();
  api = new RunnerApi(double.url);
});
afterAll(() => double.stop());

/** A build taken by the runner (running on the double), with its trace stream started. */
function running(): { id: number; trace: TraceBuffer; stream: TraceStream } {
  const id = nextId++;
  double.enqueue({ id, token: double.buildToken(id) } as BuildDetails);
  double.states.set(id, "running");
  double.queue.length = 0;
  const trace = new TraceBuffer(1024 * 1024);
  const stream = new TraceStream(
    api,
    { id, token: double.buildToken(id), runnerToken: double.runnerToken },
    trace,
    QUIET_LOG,
    FAST,
  );
  stream.start();
  return { id, trace, stream };
}

describe("TraceStream (against a double of the 8.x runner API)", () => {
  it("appends each new part with a Content-Range from where the server's copy ends, then reports the state", async () => {
    const { id, trace, stream } = running();
    trace.write("first line\n");
    await expect.poll(() => double.trace(id)).toBe("first line\n");
    trace.write("second line\n");
    await expect.poll(() => double.trace(id)).toBe("first line\nsecond line\n");
    trace.write("last\n");
    expect(await stream.finish("success")).toBe("reported");
    expect(double.trace(id)).toBe("first line\nsecond line\nlast\n");
    const ranges = double.patches
      .filter((patch) => patch.id === id && patch.bytes > 0)
      .map((patch) => patch.range);
    expect(ranges).toEqual(["0-11", "11-23", "23-28"]);
    expect(double.updates.filter((update) => update.id === id)).toEqual([
      { id, state: "success", withTrace: false },
    ]);
    expect(double.states.get(id)).toBe("success");
  });

  it("after a 416, sends again from the length the server has (an answer lost on the way)", async () => {
    const { id, trace, stream } = running();
    double.traces.set(id, Buffer.from("abc")); // the server appended a patch whose answer never came
    trace.write("abcdef");
    expect(await stream.finish("failed")).toBe("reported");
    expect(double.trace(id)).toBe("abcdef");
    expect(double.patches.filter((patch) => patch.id === id).map((patch) => patch.range)).toEqual([
      "0-6",
      "3-6",
    ]);
    expect(double.states.get(id)).toBe("failed");
  });

  it("falls back to PUT with the whole trace on a server without the PATCH (8.6 and older)", async () => {
    double.patchSupported = false;
    try {
      const { id, trace, stream } = running();
      trace.write("one\n");
      await expect.poll(() => double.trace(id)).toBe("one\n");
      trace.write("two\n");
      expect(await stream.finish("success")).toBe("reported");
      expect(double.trace(id)).toBe("one\ntwo\n");
      const updates = double.updates.filter((update) => update.id === id);
      expect(updates[0]).toEqual({ id, state: "running", withTrace: true });
      expect(updates.at(-1)).toEqual({ id, state: "success", withTrace: true });
    } finally {
      double.patchSupported = true;
    }
  });

  it("learns of a cancel from an idle build's keep-alive patch, and reports nothing after it", async () => {
    const { id, trace, stream } = running();
    trace.write("working\n");
    await expect.poll(() => double.trace(id)).toBe("working\n");
    double.cancel(id);
    await expect.poll(() => stream.canceled.aborted).toBe(true);
    expect(await stream.finish("success")).toBe("canceled");
    expect(double.updates.filter((update) => update.id === id)).toEqual([]);
    expect(double.states.get(id)).toBe("canceled");
  });

  it("waits out a server that answers 502 for a while (a restart), losing nothing", async () => {
    const { id, trace, stream } = running();
    double.refused = 0;
    double.outage = 502;
    trace.write("written while the server is away\n");
    const finished = stream.finish("success");
    await expect.poll(() => double.refused).toBeGreaterThanOrEqual(3);
    double.outage = null;
    expect(await finished).toBe("reported");
    expect(double.trace(id)).toBe("written while the server is away\n");
    expect(double.states.get(id)).toBe("success");
  });
});
