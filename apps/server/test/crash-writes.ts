import { join } from "node:path";
import type { MergeRequestJson } from "@kiln/schemas";
import type { Life, Seeded } from "./crash-support.js";
import type { GitClient } from "./git-client.js";
import { repoUrl } from "./git-client.js";

/** A seeded pseudo-random number generator (mulberry32): the same seed, the same run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the server acknowledged (answered as done) before it was killed: all of it must survive. */
export interface Ledger {
  /** Branches made through the API or by a push. */
  branches: Set<string>;
  /** Files committed through the files API. */
  files: { branch: string; path: string; content: string }[];
  /** Commits pushed, by branch: the branch must still hold the last. */
  pushes: Map<string, string>;
  /** Issues opened, by id. */
  issues: Set<number>;
  /** Merge requests opened, by id. */
  mergeRequests: Set<number>;
  /** Merge requests accepted (200), by id. */
  merged: Set<number>;
  /** Answers that were not a success while the server was up: none is expected. */
  failures: string[];
}

/** An empty ledger. */
export const emptyLedger = (): Ledger => ({
  branches: new Set(),
  files: [],
  pushes: new Map(),
  issues: new Set(),
  mergeRequests: new Set(),
  merged: new Set(),
  failures: [],
});

/** One writer's own branches: only it writes them, so its writes never race each other. */
interface Lane {
  id: number;
  /** Branches it made through the API (acknowledged), to commit files to. */
  branches: string[];
  /** Those with a file commit of their own and no merge request yet. */
  ready: string[];
  /** Branches it pushed (acknowledged), to push to again. */
  pushed: string[];
  /** Its clone, for pushes. */
  clone: string;
}

/** Runs the writes of the test's lanes against one life of the server. */
export class Writer {
  #names = 0;
  readonly lanes: Lane[];

  constructor(
    private readonly seeded: Seeded,
    private readonly ledger: Ledger,
    private readonly random: () => number,
    readonly git: GitClient,
    lanes: number,
  ) {
    this.lanes = Array.from({ length: lanes }, (_, id) => ({
      id,
      branches: [],
      ready: [],
      pushed: [],
      clone: join(git.root, `lane-${id}`),
    }));
  }

  /** A name never used before in this test. */
  #name(prefix: string, lane: Lane): string {
    this.#names += 1;
    return `${prefix}-${lane.id}-${this.#names}`;
  }

  /** Clones the project for each lane (first life) or points the clones at the new port. */
  async attach(life: Life): Promise<void> {
    const url = repoUrl(life.server.url, this.seeded.project.path_with_namespace, {
      username: "root",
      secret: life.server.rootPassword,
    });
    for (const lane of this.lanes) {
      const cloned = await this.git.run(["-C", lane.clone, "rev-parse", "--git-dir"]);
      if (cloned.code === 0) await this.git.ok(["-C", lane.clone, "remote", "set-url", "origin", url]);
      else await this.git.ok(["clone", "--quiet", url, lane.clone]);
    }
  }

  /**
   * Writes on every lane until `killed` (the test kills the server after some writes have begun:
   * `onStart` hears of each). A write that fails before the kill is a failure; after it, one the
   * kill cut off. Resolves once every lane has stopped.
   */
  async run(life: Life, onStart: () => void, killed: () => boolean): Promise<void> {
    this.#killed = killed;
    await Promise.all(
      this.lanes.map(async (lane) => {
        while (!killed()) {
          onStart();
          try {
            await this.#step(life, lane);
          } catch (error) {
            this.#fail(`lane ${lane.id}: ${String(error)}`);
          }
        }
      }),
    );
  }

  #killed: () => boolean = () => false;

  /** Notes a failed write, unless the kill cut it off. */
  #fail(what: string): void {
    if (!this.#killed()) this.ledger.failures.push(what);
  }

  /** One write, picked at random among those the lane can do now (merges most, where the kill matters most). */
  async #step(life: Life, lane: Lane): Promise<void> {
    const pick = this.random();
    if (lane.ready.length > 0 && pick < 0.4) return this.#merge(life, lane, lane.ready.shift() as string);
    if (lane.branches.length > 0 && pick < 0.55) return this.#commitFile(life, lane);
    if (pick < 0.75) return this.#push(life, lane);
    return this.#topic(life, lane);
  }

  #expect(what: string, status: number, wanted: number, text: string): boolean {
    if (status === wanted) return true;
    this.#fail(`${what}: ${status} ${text}`);
    return false;
  }

  /** Makes a branch off master and commits a file to it: it is then ready to be merged. */
  async #topic(life: Life, lane: Lane): Promise<void> {
    const branch = this.#name("b", lane);
    const res = await life.api({
      method: "POST",
      path: `/projects/${this.seeded.project.id}/repository/branches`,
      json: { branch_name: branch, ref: "master" },
    });
    if (!this.#expect(`branch ${branch}`, res.status, 200, res.text)) return;
    this.ledger.branches.add(branch);
    lane.branches.push(branch);
    await this.#commitFile(life, lane, branch);
  }

  /** Commits a new file to one of the lane's branches through the files API. */
  async #commitFile(
    life: Life,
    lane: Lane,
    branch = lane.branches[Math.floor(this.random() * lane.branches.length)] as string,
  ): Promise<void> {
    const path = `${this.#name("f", lane)}.txt`;
    const content = `${path} on ${branch}\n`;
    const res = await life.api({
      method: "POST",
      path: `/projects/${this.seeded.project.id}/repository/files`,
      json: { file_path: path, branch_name: branch, content, commit_message: `add ${path}` },
    });
    if (!this.#expect(`file ${path} on ${branch}`, res.status, 201, res.text)) return;
    this.ledger.files.push({ branch, path, content });
    if (!lane.ready.includes(branch)) lane.ready.push(branch);
  }

  /** Opens an issue and a merge request of `branch` into master that closes it, and accepts it. */
  async #merge(life: Life, lane: Lane, branch: string): Promise<void> {
    const projectPath = `/projects/${this.seeded.project.id}`;
    const issue = await life.api<{ id: number; iid: number }>({
      method: "POST",
      path: `${projectPath}/issues`,
      json: { title: `Fixed by ${branch}` },
    });
    if (!this.#expect(`issue for ${branch}`, issue.status, 200, issue.text)) return;
    this.ledger.issues.add(issue.body.id);
    // Only this lane uses the branch: a merge request whose opening was cut off is never opened twice.
    lane.branches = lane.branches.filter((name) => name !== branch);
    const opened = await life.api<MergeRequestJson>({
      method: "POST",
      path: `${projectPath}/merge_requests`,
      json: {
        source_branch: branch,
        target_branch: "master",
        title: `Merge ${branch}`,
        description: `Closes #${issue.body.iid}`,
      },
    });
    if (!this.#expect(`merge request of ${branch}`, opened.status, 200, opened.text)) return;
    this.ledger.mergeRequests.add(opened.body.id);
    const accepted = await life.api({
      method: "PUT",
      path: `${projectPath}/merge_requests/${opened.body.id}/merge`,
    });
    if (!this.#expect(`accept of ${branch}`, accepted.status, 200, accepted.text)) return;
    this.ledger.merged.add(opened.body.id);
  }

  /** Commits in the lane's clone and pushes it to a new branch, or to one the lane pushed before. */
  async #push(_life: Life, lane: Lane): Promise<void> {
    const again = lane.pushed.length > 0 && this.random() < 0.5;
    const branch = again
      ? (lane.pushed[Math.floor(this.random() * lane.pushed.length)] as string)
      : this.#name("p", lane);
    const sha = await this.git.commit(lane.clone, `push to ${branch}`, `${this.#name("pushed", lane)}.txt`);
    const pushed = await this.git.run([
      "-C",
      lane.clone,
      "push",
      "--quiet",
      "origin",
      `HEAD:refs/heads/${branch}`,
    ]);
    if (pushed.code !== 0) {
      this.#fail(`push to ${branch}: ${pushed.stderr}`);
      return;
    }
    this.ledger.branches.add(branch);
    this.ledger.pushes.set(branch, sha);
    if (!again) lane.pushed.push(branch);
  }
}
