import type { ServiceRuntime } from "../runtime.js";

/** The tail of each merge request's queue of git work, per runtime. */
const queues = new WeakMap<ServiceRuntime, Map<number, Promise<unknown>>>();

/**
 * Runs `work` after every earlier work on the same merge request in this process has finished, so
 * that a merge and a status refresh (or two merges) never interleave. Across processes the
 * compare-and-swap of the target ref is what keeps two merges apart.
 */
export function serialized<T>(
  runtime: ServiceRuntime,
  mergeRequestId: number,
  work: () => Promise<T>,
): Promise<T> {
  let byId = queues.get(runtime);
  if (!byId) {
    byId = new Map();
    queues.set(runtime, byId);
  }
  const previous = byId.get(mergeRequestId) ?? Promise.resolve();
  const result = previous.then(work, work);
  const tail = result.catch(() => undefined);
  byId.set(mergeRequestId, tail);
  void tail.then(() => {
    if (byId.get(mergeRequestId) === tail) byId.delete(mergeRequestId);
  });
  return result;
}
