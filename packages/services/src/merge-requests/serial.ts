import type { ServiceRuntime } from "../runtime.js";

/** The tail of each queue of git work, per runtime. */
const queues = new WeakMap<ServiceRuntime, Map<number | string, Promise<unknown>>>();

/**
 * Runs `work` after every earlier work of the same key in this process has finished: keyed by a
 * merge request's id, a merge and a status refresh (or two merges) of it never interleave; keyed
 * by a target branch ({@link targetQueue}), merges into it take turns instead of racing. Across
 * processes the compare-and-swap of the target ref is what keeps two merges apart.
 */
export function serialized<T>(
  runtime: ServiceRuntime,
  key: number | string,
  work: () => Promise<T>,
): Promise<T> {
  let byKey = queues.get(runtime);
  if (!byKey) {
    byKey = new Map();
    queues.set(runtime, byKey);
  }
  const previous = byKey.get(key) ?? Promise.resolve();
  const result = previous.then(work, work);
  const tail = result.catch(() => undefined);
  byKey.set(key, tail);
  void tail.then(() => {
    if (byKey.get(key) === tail) byKey.delete(key);
  });
  return result;
}

/** The queue key of merges into a branch of a project. */
export const targetQueue = (projectId: number, branch: string): string => `${projectId}:${branch}`;
