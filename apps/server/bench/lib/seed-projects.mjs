// Seeds projects into a data dir that already holds the seeded users: groups, projects spread over
// personal namespaces and groups, the memberships `insertProject` would write, and two benchmark
// users with known memberships. Written through `Stores` in one transaction (no events, no repos).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AccessLevel, Visibility } from "@kiln/domain";
import { generateToken, ServiceRuntime, tokenDigest } from "@kiln/services";
import { openDatabase, Stores } from "@kiln/storage-kysely";

/** The user whose `GET /projects` is measured as "a member of 20 projects". */
export const MEMBER_USERNAME = "user00001";

const { PRIVATE, INTERNAL, PUBLIC } = Visibility;
const { REPORTER, DEVELOPER, MASTER, OWNER } = AccessLevel;
/** Project visibility by index: half private, a quarter internal, a quarter public. */
const VISIBILITY_CYCLE = [PRIVATE, INTERNAL, PRIVATE, PUBLIC];
/** Group visibility by index: a quarter private, a quarter internal, half public. */
const GROUP_VISIBILITY_CYCLE = [PUBLIC, INTERNAL, PUBLIC, PRIVATE];

/**
 * Adds `count` projects. One in five goes to a group (`groups` groups, `bench-group-NNN`), the rest
 * round-robin to the users' personal namespaces (8 each for 100,000 projects over 10,000 users,
 * below the default projects limit of 10), in interleaved order so pages mix namespaces.
 * Visibility cycles private/internal/private/public, capped at the group's. Personal projects get
 * their owner as a master (as `insertProject` does) and count in `users.personal_projects_count`;
 * every group gets an owner.
 *
 * MEMBER_USERNAME ends up a member of exactly 20 projects through every source: 3 personal
 * projects, 12 direct project memberships (reporter/developer/master), developer in the group
 * `bench-team` (4 projects), and 1 project shared with `bench-team`. Root is a member of 7:
 * 3 personal projects and 4 direct memberships. The special projects are spread over the whole
 * creation order, so none of the lists is served by the newest rows alone.
 */
export async function seedProjects(dataDir, { count, groups }) {
  // The special slots below are spread over the creation order and need room.
  if (count < 1000) throw new Error(`seed: at least 1,000 projects are needed (BENCH_PROJECTS=${count})`);
  const secretKey = Buffer.from(readFileSync(join(dataDir, "secret.key"), "utf8").trim(), "base64");
  const database = await openDatabase({
    kind: "sqlite",
    filename: join(dataDir, "kiln.sqlite"),
    synchronous: "NORMAL",
  });
  try {
    const stores = new Stores(database.db);
    const runtime = new ServiceRuntime({ stores, secretKey, singleProcess: true, dataDir });
    // One sealed token for every project (a fixture); the digests stay unique, as the index requires.
    const sealed = runtime.secrets.seal(generateToken());
    const personal = await database.db
      .selectFrom("namespaces")
      .innerJoin("users", "users.id", "namespaces.owner_id")
      .select(["namespaces.id as namespaceId", "users.id as userId", "users.username"])
      .where("namespaces.kind", "=", "user")
      .orderBy("users.id")
      .execute();
    const root = personal.find((ns) => ns.username === "root");
    const member = personal.find((ns) => ns.username === MEMBER_USERNAME);
    if (!root || !member) throw new Error(`seed: root or ${MEMBER_USERNAME} is missing`);
    const others = personal.filter((ns) => ns !== root && ns !== member);
    if (others.length < 20 || groups < 2) throw new Error("seed: too few users or groups for the projects");

    // Which namespace each project goes to: round-robin, then the special slots overridden.
    const TEAM = -1; // stands for bench-team until it exists
    const plan = new Array(count);
    let nextUser = 0;
    let nextGroup = 0;
    for (let k = 0; k < count; k++) {
      plan[k] =
        k % 5 === 4 ? { group: nextGroup++ % (groups - 1) } : { user: others[nextUser++ % others.length] };
    }
    // Slots spread over the creation order (avoiding the group slots) for the special projects.
    const spread = (n, offset) =>
      Array.from({ length: n }, (_, i) => {
        const k = (Math.floor(((i + 0.5) * count) / n) + offset) % count;
        return k % 5 === 4 ? (k + 1) % count : k;
      });
    const memberOwn = spread(3, 11);
    const rootOwn = spread(3, 23);
    const teamProjects = spread(4, 37);
    for (const k of memberOwn) plan[k] = { user: member };
    for (const k of rootOwn) plan[k] = { user: root };
    for (const k of teamProjects) plan[k] = { group: TEAM };
    const taken = new Set([...memberOwn, ...rootOwn, ...teamProjects]);
    const pick = (n, offset) =>
      spread(n, offset).map((k) => {
        while (taken.has(k) || k % 5 === 4) k = (k + 1) % count;
        taken.add(k);
        return k;
      });
    const memberDirect = pick(12, 53); // other users' projects
    const rootDirect = pick(4, 71);
    // A group project outside bench-team, shared with it.
    let sharedSlot = Math.floor(count / 3);
    while (sharedSlot % 5 !== 4 || taken.has(sharedSlot)) sharedSlot = (sharedSlot + 1) % count;

    const ids = new Array(count);
    const personalCounts = new Map();
    let groupRows = [];
    await stores.transaction(async (tx) => {
      for (let g = 0; g < groups; g++) {
        const team = g === groups - 1;
        const path = team ? "bench-team" : `bench-group-${String(g + 1).padStart(3, "0")}`;
        const group = await tx.namespaces.createGroup({
          name: team ? "Bench Team" : `Bench Group ${g + 1}`,
          path,
          description: "",
          visibility_level: team ? PUBLIC : GROUP_VISIBILITY_CYCLE[g % GROUP_VISIBILITY_CYCLE.length],
        });
        // Every group gets an owner (never root or the measured member: their lists stay as planned).
        const owner = others[(g * 37) % others.length];
        await tx.groupMembers.add(group.id, owner.userId, OWNER);
        groupRows.push({ ...group, ownerId: owner.userId });
      }
      const team = groupRows[groups - 1];
      groupRows = groupRows.slice(0, groups - 1);

      for (let k = 0; k < count; k++) {
        const slot = plan[k];
        const group = slot.group === undefined ? null : slot.group === TEAM ? team : groupRows[slot.group];
        const wanted = VISIBILITY_CYCLE[k % VISIBILITY_CYCLE.length];
        const visibility = /** @type {import("@kiln/domain").Visibility} */ (
          group ? Math.min(wanted, group.visibility_level) : wanted
        );
        const creatorId = group ? group.ownerId : slot.user.userId;
        const n = k + 1;
        const project = await tx.projects.create({
          namespace_id: group ? group.id : slot.user.namespaceId,
          name: `Project ${n}`,
          path: `project-${n}`,
          description: `Benchmark project ${n}`,
          default_branch: null,
          visibility_level: visibility,
          archived: false,
          issues_enabled: true,
          merge_requests_enabled: true,
          builds_enabled: true,
          wiki_enabled: true,
          snippets_enabled: true,
          container_registry_enabled: true,
          shared_runners_enabled: true,
          lfs_enabled: true,
          request_access_enabled: true,
          public_builds: true,
          only_allow_merge_if_build_succeeds: false,
          creator_id: creatorId,
          import_url_sealed: null,
          runners_token_digest: tokenDigest(generateToken()),
          runners_token_sealed: sealed,
        });
        ids[k] = project.id;
        // As insertProject: the owner of a personal namespace is a master of the project.
        if (!group) {
          await tx.projectMembers.add(project.id, creatorId, MASTER);
          personalCounts.set(creatorId, (personalCounts.get(creatorId) ?? 0) + 1);
        }
      }
      // users.personal_projects_count, kept as project create and delete keep it.
      for (const [userId, n] of personalCounts) await tx.users.addPersonalProjects(userId, n);

      const levels = [REPORTER, DEVELOPER, MASTER];
      for (const [i, k] of memberDirect.entries())
        await tx.projectMembers.add(ids[k], member.userId, levels[i % levels.length]);
      for (const k of rootDirect) await tx.projectMembers.add(ids[k], root.userId, DEVELOPER);
      await tx.groupMembers.add(team.id, member.userId, DEVELOPER);
      await tx.shares.add(ids[sharedSlot], team.id, DEVELOPER);
    });

    const counted = async (table) =>
      Number(
        (
          await database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      projects: await counted("projects"),
      groups: groupRows.length + 1,
      projectMembers: await counted("project_members"),
      groupMembers: await counted("group_members"),
      member: { username: MEMBER_USERNAME, userId: member.userId, projects: 3 + 12 + 4 + 1 },
      root: { projects: rootOwn.length + rootDirect.length },
    };
  } finally {
    await database.close();
  }
}
