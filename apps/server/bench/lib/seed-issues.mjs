// Seeds issues into a data dir whose database the real server has migrated and which already holds
// users and projects: labels, issues with their label links, the projects' state counters and the
// iid counters, written with better-sqlite3 directly in one transaction (1,000,000 rows through the
// stores would take minutes). Every row is what the issue and label stores would have written.
import { join } from "node:path";
import Database from "better-sqlite3";

/** The labels every issue project gets, with the share of its issues that carry each. */
export const ISSUE_LABELS = [
  { title: "bug", color: "#d9534f", share: 0.3 },
  { title: "feature", color: "#5cb85c", share: 0.2 },
  { title: "docs", color: "#428bca", share: 0.1 },
  { title: "critical", color: "#f0ad4e", share: 0.05 },
];
/** Share of issues that are open (a tenth of them reopened); the rest are closed. */
const OPEN_SHARE = 0.7;
const REOPENED_SHARE = 0.1;
/** Share of issues with an assignee, and of confidential ones. */
const ASSIGNED_SHARE = 0.5;
const CONFIDENTIAL_SHARE = 0.01;

const WORDS = (
  "error crash login page button merge request pipeline build fails slow timeout user profile " +
  "avatar upload file branch commit tag release notes search filter label milestone project group " +
  "settings permission access token api endpoint response header cache database migration index " +
  "query sort order page mobile layout broken typo docs missing link wrong status update delete"
).split(" ");

/** A deterministic pseudo-random generator (mulberry32), so every run seeds the same fixture. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = (next, n) =>
  Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ");

/**
 * The issues' secondary indexes (and label_links'), dropped while the rows go in and rebuilt from
 * their own SQL afterwards: building an index from sorted rows is several times faster than
 * keeping it up to date row by row.
 */
function dropIndexes(db, tables) {
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => "?").join(", ")})`,
    )
    .all(...tables);
  for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);
  return () => {
    for (const { sql } of indexes) db.exec(sql);
  };
}

/**
 * Adds `count` issues: `bigCount` of them in one project (the measured one, the first of
 * `projects` projects by id), the rest spread evenly over the next `projects - 1`, interleaved in
 * creation order (one second apart, oldest first) so that every project's issues span the whole
 * history. 70 % open (a tenth of those reopened), 30 % closed; authors and assignees (half of the
 * issues) drawn from the users; 1 % confidential. Each project gets the labels of ISSUE_LABELS,
 * carried independently by 30/20/10/5 % of its issues. Sets the projects' open and closed counters
 * and their `issues` iid counters to match. Returns the projects' ids (the big one first), the
 * number of label links, and the big project's issue, state and label counts.
 */
export function seedIssues(dataDir, { count, bigCount, projects }) {
  const db = new Database(join(dataDir, "kiln.sqlite"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -262144"); // 256 MB while the indexes are rebuilt
  try {
    const projectIds = db.prepare("SELECT id FROM projects ORDER BY id LIMIT ?").pluck().all(projects);
    if (projectIds.length < 2) throw new Error("seed: the issues need at least 2 projects");
    const userIds = db.prepare("SELECT id FROM users ORDER BY id").pluck().all();
    const bigProject = projectIds[0];
    const others = projectIds.slice(1);
    const next = random(5);
    const start = Date.parse("2020-01-01T00:00:00.000Z");

    const insertLabel = db.prepare(
      "INSERT INTO labels (project_id, title, color, description, priority, created_at, updated_at) VALUES (?, ?, ?, NULL, NULL, ?, ?) RETURNING id",
    );
    const insertIssue = db.prepare(
      `INSERT INTO issues (project_id, iid, title, description, state, reopened, author_id, assignee_id,
        milestone_id, confidential, due_date, moved_to_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, NULL, ?, ?)`,
    );
    const insertLink = db.prepare(
      "INSERT INTO label_links (label_id, target_type, target_id) VALUES (?, 'Issue', ?)",
    );
    const setCounters = db.prepare(
      "UPDATE projects SET open_issues_count = ?, closed_issues_count = ? WHERE id = ?",
    );
    const setLabelCounters = db.prepare(
      "UPDATE labels SET open_issues_count = ?, closed_issues_count = ? WHERE id = ?",
    );
    const setIid = db.prepare(
      `INSERT INTO internal_ids (project_id, usage, last_value) VALUES (?, 'issues', ?)
       ON CONFLICT (project_id, usage) DO UPDATE SET last_value = excluded.last_value`,
    );

    const seed = db.transaction(() => {
      const at = new Date(start).toISOString();
      const labelIds = new Map(); // project id → label ids in ISSUE_LABELS order
      for (const projectId of projectIds) {
        labelIds.set(
          projectId,
          ISSUE_LABELS.map((label) => insertLabel.get(projectId, label.title, label.color, at, at).id),
        );
      }
      const restoreIndexes = dropIndexes(db, ["issues", "label_links"]);
      const counters = new Map(projectIds.map((id) => [id, { last: 0, opened: 0, closed: 0 }]));
      const links = ISSUE_LABELS.map(() => /** @type {number[]} */ ([])); // per label kind: [labelId, issueId] pairs
      const labelCounters = new Map(); // label id → { opened, closed }, as the label store keeps them
      // The big project takes every (count / bigCount)-th issue; the others share the rest in turn.
      const stride = count / bigCount;
      let nextOther = 0;
      let issueId = Number(db.prepare("SELECT coalesce(max(id), 0) FROM issues").pluck().get());
      for (let k = 0; k < count; k++) {
        const big = Math.floor((k + 1) / stride) > Math.floor(k / stride);
        const projectId = big ? bigProject : others[nextOther++ % others.length];
        const counter = counters.get(projectId);
        counter.last += 1;
        const open = next() < OPEN_SHARE;
        const reopened = open && next() < REOPENED_SHARE ? 1 : 0;
        if (open) counter.opened += 1;
        else counter.closed += 1;
        const created = start + k * 1000;
        // Closed and reopened issues were touched later; open ones mostly not.
        const updated = open && !reopened ? created : created + Math.floor(next() * 30 * 86_400_000);
        const author = userIds[Math.floor(next() * userIds.length)];
        const assignee = next() < ASSIGNED_SHARE ? userIds[Math.floor(next() * userIds.length)] : null;
        issueId += 1;
        insertIssue.run(
          projectId,
          counter.last,
          words(next, 6),
          words(next, 30),
          open ? "opened" : "closed",
          reopened,
          author,
          assignee,
          next() < CONFIDENTIAL_SHARE ? 1 : 0,
          new Date(created).toISOString(),
          new Date(updated).toISOString(),
        );
        const ids = labelIds.get(projectId);
        ISSUE_LABELS.forEach((label, i) => {
          if (next() < label.share) {
            links[i].push(ids[i], issueId);
            const counted = labelCounters.get(ids[i]) ?? { opened: 0, closed: 0 };
            counted[open ? "opened" : "closed"] += 1;
            labelCounters.set(ids[i], counted);
          }
        });
      }
      // In primary key order (label, then issue): the b-tree is written from left to right.
      const pairs = [];
      for (const perKind of links)
        for (let i = 0; i < perKind.length; i += 2) pairs.push([perKind[i], perKind[i + 1]]);
      pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      for (const [labelId, id] of pairs) insertLink.run(labelId, id);
      restoreIndexes();
      for (const [projectId, counter] of counters) {
        setCounters.run(counter.opened, counter.closed, projectId);
        setIid.run(projectId, counter.last);
      }
      for (const [labelId, counted] of labelCounters)
        setLabelCounters.run(counted.opened, counted.closed, labelId);
      return { links: pairs.length, big: counters.get(bigProject) };
    });
    const { links, big } = seed();
    // No ANALYZE: the server never runs it, so its planner works without statistics, as here.
    const bigLabels = db
      .prepare(
        `SELECT l.title, count(*) AS n FROM label_links ll JOIN labels l ON l.id = ll.label_id
         WHERE l.project_id = ? GROUP BY l.title`,
      )
      .all(bigProject);
    return {
      issues: count,
      projectIds,
      labelLinks: links,
      big: {
        projectId: bigProject,
        issues: big.last,
        opened: big.opened,
        closed: big.closed,
        labels: Object.fromEntries(bigLabels.map((row) => [row.title, row.n])),
      },
    };
  } finally {
    db.close();
  }
}
