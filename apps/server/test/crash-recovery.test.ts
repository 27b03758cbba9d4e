import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { IssueJson, MergeRequestJson } from "@kiln/schemas";
import { git, type KilnProcess, postgresUnavailable } from "@kiln/testkit";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  armableRefHook,
  countOf,
  feedOf,
  fromDatabase,
  headOf,
  holdRefTransaction,
  killTree,
  type Life,
  lifeOf,
  openIssue,
  type RefState,
  type Seeded,
  seededProject,
  topicMergeRequest,
  until,
} from "./crash-support.js";
import { emptyLedger, type Ledger, seededRandom, Writer } from "./crash-writes.js";
import { gitClient } from "./git-client.js";
import { start } from "./support.js";

for (const database of ["sqlite", "postgres"] as const) {
  const unavailable = database === "postgres" ? postgresUnavailable() : null;

  describe.skipIf(unavailable !== null)(
    `a merge cut short by kill -9 (${database}${unavailable ? `: ${unavailable}` : ""})`,
    () => {
      let servers: KilnProcess[] = [];
      afterEach(async () => {
        for (const server of servers.reverse()) await server.stop();
        servers = [];
      });
      const started = async (restartOf?: KilnProcess): Promise<Life> => {
        const server = await start(restartOf ? { restartOf } : { database });
        servers.push(server);
        return lifeOf(server);
      };

      /**
       * A project with an issue and a merge request that closes it, accepted with the server killed
       * while git holds the target's update at `state`; answers the server restarted on the same data
       * (and `servers` of them started at once, all sharing it).
       */
      async function acceptKilledAt(state: "prepared" | "committed", servers = 1) {
        const first = await started();
        const { project, repo } = await seededProject(first, "crash");
        const issue = await openIssue(first, project.id, "A bug");
        const mr = await topicMergeRequest(first, project.id, "topic", issue.iid);
        const before = headOf(repo, "master");
        const hold = holdRefTransaction(repo, "refs/heads/master", state);
        const accepting = first
          .api({ method: "PUT", path: `/projects/${project.id}/merge_requests/${mr.id}/merge` })
          .catch(() => null);
        await until(hold.reached);
        await first.server.kill();
        hold.release();
        await accepting;
        const lives = await Promise.all(Array.from({ length: servers }, () => started(first.server)));
        const life = lives[0] as Life;
        const read = <T>(path: string) => life.api<T>({ path: `/projects/${project.id}${path}` });
        return { life, lives, project, repo, issue, mr, before, read };
      }

      it("finishes at restart a merge whose target moved before the kill: merged, its issue closed, once", async () => {
        const { life, project, repo, issue, mr, before, read } = await acceptKilledAt("committed");
        const head = headOf(repo, "master");
        expect(head).not.toBe(before);
        const merged = await read<MergeRequestJson>(`/merge_requests/${mr.id}`);
        expect(merged.body).toMatchObject({ state: "merged", merge_commit_sha: head });
        expect((await read<IssueJson>(`/issues/${issue.id}`)).body.state).toBe("closed");
        const feed = await feedOf(life, project.id);
        expect(countOf(feed, `accepted MergeRequest ${mr.id}`)).toBe(1);
        expect(countOf(feed, `closed Issue ${issue.id}`)).toBe(1);
        expect(countOf(feed, "pushed to refs/heads/master")).toBe(1);

        // Once: another restart finishes nothing more, and accepting again is 406.
        const again = await started(life.server);
        expect(await feedOf(again, project.id)).toEqual(feed);
        const accepted = await again.api({
          method: "PUT",
          path: `/projects/${project.id}/merge_requests/${mr.id}/merge`,
        });
        expect(accepted).toMatchObject({ status: 406, body: { message: "Method Not Allowed" } });
      }, 60_000);

      it.skipIf(database !== "postgres")(
        "finishes it once when two servers sharing the database start at once",
        async () => {
          const { lives, project, issue, mr, read } = await acceptKilledAt("committed", 2);
          const finished = lives.flatMap((one) =>
            one.server.logs
              .filter((entry) => entry["msg"] === "settled interrupted merges")
              .map((entry) => entry["finished"]),
          );
          expect(finished).toEqual([1]);
          expect((await read<MergeRequestJson>(`/merge_requests/${mr.id}`)).body.state).toBe("merged");
          const feed = await feedOf(lives[1] as Life, project.id);
          expect(countOf(feed, `accepted MergeRequest ${mr.id}`)).toBe(1);
          expect(countOf(feed, `closed Issue ${issue.id}`)).toBe(1);
          expect(countOf(feed, "pushed to refs/heads/master")).toBe(1);
        },
        60_000,
      );

      it("drops at restart a merge whose target had not moved: the merge request merges when accepted again", async () => {
        const { life, project, repo, mr, before, read } = await acceptKilledAt("prepared");
        expect(headOf(repo, "master")).toBe(before);
        expect((await read<MergeRequestJson>(`/merge_requests/${mr.id}`)).body.state).toBe("opened");
        const accepted = await life.api<MergeRequestJson>({
          method: "PUT",
          path: `/projects/${project.id}/merge_requests/${mr.id}/merge`,
        });
        expect(accepted.status).toBe(200);
        expect(accepted.body).toMatchObject({ state: "merged", merge_commit_sha: headOf(repo, "master") });
        expect(countOf(await feedOf(life, project.id), `accepted MergeRequest ${mr.id}`)).toBe(1);
      }, 60_000);
    },
  );
}

/** How many writers write at once, and the seed of the run. */
const LANES = 3;
const SEED = Number(process.env["KILN_CRASH_SEED"] ?? 11);

for (const database of ["sqlite", "postgres"] as const) {
  const unavailable = database === "postgres" ? postgresUnavailable() : null;

  describe.skipIf(unavailable !== null)(
    `writes cut short by kill -9 at random moments (${database}${unavailable ? `: ${unavailable}` : ""}, seed ${SEED})`,
    () => {
      const servers: KilnProcess[] = [];
      const client = gitClient();
      afterAll(async () => {
        for (const server of servers.reverse()) await server.stop();
        client.remove();
      });

      it("loses no acknowledged write, keeps the database and repositories whole, and leaves everything writable", async () => {
        const random = seededRandom(SEED);
        let life = await lifeOf(await start({ database }));
        servers.push(life.server);
        const seeded = await seededProject(life, "chaos");
        const hook = armableRefHook(seeded.repo, "refs/heads/master");
        const ledger = emptyLedger();
        const writer = new Writer(seeded, ledger, random, client, LANES);
        // Each run kills the server three times, in the seed's order: while a merge holds master's
        // lock, just after a merge moved master, and once a random number of writes have begun.
        const moments: (RefState | "writes")[] = ["prepared", "committed", "writes"];
        moments.sort(() => random() - 0.5);
        for (const moment of moments) {
          await writer.attach(life);
          if (moment !== "writes") hook.arm(moment);
          // Armed at a ref state, the kill still comes after many writes if no merge gets there.
          const killAfter = moment === "writes" ? 4 + Math.floor(random() * 16) : 60;
          let begun = 0;
          const current = life;
          let killing: Promise<void> | undefined;
          const kill = () => {
            killing ??= killTree(current.server);
          };
          const watching = until(() => hook.fired() || killing !== undefined, 200_000).then(kill);
          await writer.run(
            current,
            () => {
              begun += 1;
              if (begun === killAfter) kill();
            },
            () => killing !== undefined,
          );
          await watching;
          await killing;
          hook.disarm();
          life = await lifeOf(await start({ restartOf: life.server }));
          servers.push(life.server);
          await checkSurvivors(life, seeded, ledger);
        }
        expect(ledger.merged.size + ledger.files.length + ledger.pushes.size).toBeGreaterThan(0);
        await checkWritable(life, seeded, writer);
      }, 240_000);
    },
  );
}

/** better-sqlite3, as much of it as the integrity check needs (the server's dependency, without types here). */
const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new (
  file: string,
  options: { readonly: boolean },
) => { pragma(source: string, options: { simple: true }): unknown; close(): void };

/** SQLite's own integrity check of the server's database file: "ok" when whole. */
function sqliteIntegrity(life: Life): unknown {
  const raw = new Sqlite(join(life.server.dataDir, "kiln.sqlite"), { readonly: true });
  try {
    return raw.pragma("integrity_check", { simple: true });
  } finally {
    raw.close();
  }
}

/** The project's state counters next to counts of the rows they count, read from the database beside the server. */
function countersOf(life: Life, projectId: number) {
  return fromDatabase(life, async (db) => {
    const count = async (table: "issues" | "merge_requests", state: "opened" | "closed" | "merged") => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .where("project_id", "=", projectId)
        .where("state", "=", state)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const kept = await db
      .selectFrom("projects")
      .select([
        "open_issues_count",
        "closed_issues_count",
        "open_merge_requests_count",
        "merged_merge_requests_count",
      ])
      .where("id", "=", projectId)
      .executeTakeFirstOrThrow();
    return {
      kept: Object.fromEntries(Object.entries(kept).map(([key, value]) => [key, Number(value)])),
      counted: {
        open_issues_count: await count("issues", "opened"),
        closed_issues_count: await count("issues", "closed"),
        open_merge_requests_count: await count("merge_requests", "opened"),
        merged_merge_requests_count: await count("merge_requests", "merged"),
      },
    };
  });
}

/**
 * After a restart: SQLite's integrity check passes and the state counters equal the rows they
 * count, every repository passes `git fsck`, every acknowledged write is there, and every merge
 * request is merged exactly when its merge commit is in master, with one merge entry in the feed
 * and its issue closed once.
 */
async function checkSurvivors(life: Life, seeded: Seeded, ledger: Ledger): Promise<void> {
  expect(ledger.failures).toEqual([]);
  if (!life.server.kilnEnv["DATABASE_URL"]) expect(sqliteIntegrity(life)).toBe("ok");
  const { kept, counted } = await countersOf(life, seeded.project.id);
  expect(kept).toEqual(counted);

  const repositories = join(life.server.dataDir, "repositories");
  for (const name of readdirSync(repositories).filter((entry) => entry.endsWith(".git"))) {
    git(["fsck", "--no-dangling", "--no-progress"], join(repositories, name));
  }

  const { repo } = seeded;
  const holds = (ancestor: string, branch: string) => {
    try {
      git(["merge-base", "--is-ancestor", ancestor, `refs/heads/${branch}`], repo);
      return true;
    } catch {
      return false;
    }
  };
  for (const branch of ledger.branches) git(["rev-parse", "--verify", `refs/heads/${branch}`], repo);
  for (const file of ledger.files) {
    expect(git(["show", `refs/heads/${file.branch}:${file.path}`], repo)).toBe(file.content);
  }
  for (const [branch, sha] of ledger.pushes) expect(holds(sha, branch), `${branch} holds ${sha}`).toBe(true);
  const projectPath = `/projects/${seeded.project.id}`;
  for (const id of ledger.issues)
    expect((await life.api({ path: `${projectPath}/issues/${id}` })).status).toBe(200);

  const mergeRequests = await allMergeRequests(life, seeded);
  const byId = new Map(mergeRequests.map((mr) => [mr.id, mr]));
  for (const id of ledger.mergeRequests) expect(byId.has(id), `merge request ${id} kept`).toBe(true);
  for (const id of ledger.merged) expect(byId.get(id)?.state, `merge request ${id} merged`).toBe("merged");
  const feed = await feedOf(life, seeded.project.id);
  for (const mr of mergeRequests) {
    const closes = Number(/Closes #(\d+)/.exec(mr.description ?? "")?.[1]);
    const issues = await life.api<IssueJson[]>({ path: `${projectPath}/issues`, query: { iid: closes } });
    const issue = issues.body[0] as IssueJson;
    if (mr.state === "merged") {
      expect(holds(mr.merge_commit_sha as string, "master"), `merge of !${mr.iid} in master`).toBe(true);
      expect(countOf(feed, `accepted MergeRequest ${mr.id}`), `merges of !${mr.iid}`).toBe(1);
      expect(issue.state).toBe("closed");
      expect(countOf(feed, `closed Issue ${issue.id}`), `closes of #${issue.iid}`).toBe(1);
    } else {
      expect(mr.state).toBe("opened");
      const source = git(["rev-parse", `refs/heads/${mr.source_branch}`], repo).trim();
      expect(holds(source, "master"), `!${mr.iid} open but its source is in master`).toBe(false);
      expect(countOf(feed, `accepted MergeRequest ${mr.id}`)).toBe(0);
      expect(issue.state).toBe("opened");
    }
  }
}

/** Every merge request of the project, all pages. */
async function allMergeRequests(life: Life, seeded: Seeded): Promise<MergeRequestJson[]> {
  const all: MergeRequestJson[] = [];
  for (let page = 1; ; page += 1) {
    const res = await life.api<MergeRequestJson[]>({
      path: `/projects/${seeded.project.id}/merge_requests`,
      query: { state: "all", per_page: 100, page },
    });
    expect(res.status).toBe(200);
    all.push(...res.body);
    if (res.body.length < 100) return all;
  }
}

/** Every branch takes a file commit and a push, and every open merge request merges. */
async function checkWritable(life: Life, seeded: Seeded, writer: Writer): Promise<void> {
  const projectPath = `/projects/${seeded.project.id}`;
  const branches = git(["for-each-ref", "--format=%(refname:short)", "refs/heads/"], seeded.repo)
    .split("\n")
    .filter(Boolean);
  for (const branch of branches) {
    const res = await life.api({
      method: "POST",
      path: `${projectPath}/repository/files`,
      json: {
        file_path: `again-${branch}.txt`,
        branch_name: branch,
        content: "again\n",
        commit_message: "again",
      },
    });
    expect(res.status, `file commit to ${branch}: ${res.text}`).toBe(201);
  }
  const clone = (writer.lanes[0] as { clone: string }).clone;
  const inClone = (args: string[]) => writer.git.ok(["-C", clone, ...args]);
  await writer.attach(life);
  await inClone(["fetch", "--quiet", "origin", "+refs/heads/*:refs/remotes/origin/*"]);
  const pushed: { branch: string; sha: string }[] = [];
  for (const branch of branches) {
    const tree = await inClone(["rev-parse", `origin/${branch}^{tree}`]);
    const sha = await inClone([
      "commit-tree",
      tree,
      "-p",
      `origin/${branch}`,
      "-m",
      `push again to ${branch}`,
    ]);
    pushed.push({ branch, sha });
  }
  await inClone([
    "push",
    "--quiet",
    "origin",
    ...pushed.map(({ branch, sha }) => `${sha}:refs/heads/${branch}`),
  ]);
  for (const { branch, sha } of pushed) expect(headOf(seeded.repo, branch)).toBe(sha);

  for (const mr of await allMergeRequests(life, seeded)) {
    if (mr.state !== "opened") continue;
    const res = await life.api<MergeRequestJson>({
      method: "PUT",
      path: `${projectPath}/merge_requests/${mr.id}/merge`,
    });
    expect(res.status, `accept of !${mr.iid}: ${res.text}`).toBe(200);
    expect(res.body.state).toBe("merged");
  }
}
