import type { MergeRequest } from "@kiln/domain";
import type { CiPipeline, Stores } from "@kiln/storage-kysely";

/**
 * What the live streams read about one outbox event that does not depend on who reads it (the
 * merge request it names, who watches it, the open merge requests from a branch, the pipeline),
 * read once for every stream of the process instead of once per stream. Whether the caller may
 * read it, and how it is presented to them, stays each stream's own work.
 */
export class SharedReads {
  readonly #reads = new Map<string, Promise<unknown>>();

  constructor(private readonly stores: Stores) {}

  /** `read()`'s answer, read once; a failed read is tried again by the next stream that asks. */
  #once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let answer = this.#reads.get(key) as Promise<T> | undefined;
    if (!answer) {
      answer = read();
      this.#reads.set(key, answer);
      answer.catch(() => this.#reads.delete(key));
    }
    return answer;
  }

  /** The merge request of `id`, if it still exists. */
  mergeRequest(id: number): Promise<MergeRequest | undefined> {
    return this.#once(`mr:${id}`, () => this.stores.mergeRequests.findById(id));
  }

  /** The users who chose to watch the merge request (subscribed to it). */
  watchers(mergeRequestId: number): Promise<ReadonlySet<number>> {
    return this.#once(`watchers:${mergeRequestId}`, async () => {
      const choices = await this.stores.subscriptions.choices({ type: "MergeRequest", id: mergeRequestId });
      return new Set([...choices].flatMap(([userId, subscribed]) => (subscribed ? [userId] : [])));
    });
  }

  /** The open merge requests from a branch of a project. */
  openFromBranch(projectId: number, branch: string): Promise<MergeRequest[]> {
    return this.#once(`open:${projectId}:${branch}`, () =>
      this.stores.mergeRequests.openFromBranch(projectId, branch),
    );
  }

  /** The pipeline of `id` in the project, if it exists. */
  pipeline(projectId: number, pipelineId: number): Promise<CiPipeline | undefined> {
    return this.#once(`pipeline:${projectId}:${pipelineId}`, () =>
      this.stores.ciPipelines.findInProject(projectId, pipelineId),
    );
  }
}
