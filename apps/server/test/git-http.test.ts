import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { ProjectJson } from "@kiln/schemas";
import { createUser, repositoryPath, type TestUser } from "@kiln/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitClient, gitClient, repoUrl } from "./git-client.js";
import { createRoleCast, ROLES, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase, runKiln } from "./support.js";

const DENIED = {
  download: "You are not allowed to download code from this project.",
  push: "You are not allowed to push code to this project.",
  protected: "You are not allowed to push code to protected branches on this project.",
  force: "You are not allowed to force push code to a protected branch on this project.",
  deleteDefault: "The default branch of a project cannot be deleted.",
  tags: "You are not allowed to change existing tags on this project.",
  archived: "You are not allowed to push code to an archived project.",
};
/** What git prints when a server answers 401 and it may not prompt, or the credentials were refused. */
const AUTH_FAILED = /terminal prompts disabled|Authentication failed/;

interface PushEventJson {
  action_name: string;
  author_id: number;
  data: {
    ref: string;
    before: string;
    after: string;
    user_id: number;
    commits: { id: string; message: string }[];
    total_commits_count: number;
  };
}

/** Sends one raw request (the path exactly as given: nothing normalizes `..`) and reads the answer. */
function raw(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const req = request(
      { host: url.hostname, port: url.port, path, method: options.method ?? "GET", headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/**
 * Sends a POST over a raw socket with `Connection: close` and its body in `pieces` (a short pause
 * after each), as a client that writes its whole request before it reads the answer. Resolves
 * with the answer's status line, or with the socket's error code when the connection was reset
 * (the server closed it on bytes it never read, and the answer was lost).
 */
function postInPieces(
  base: string,
  path: string,
  headers: Record<string, string>,
  pieces: readonly Buffer[],
): Promise<string> {
  const { hostname, port } = new URL(base);
  const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    "Connection: close",
    `Content-Length: ${length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = "";
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)));
    socket.on("end", () => resolve(answer.split("\r\n")[0] ?? ""));
    socket.write(`${head.join("\r\n")}\r\n\r\n`);
    const send = (index: number) => {
      const piece = pieces[index];
      if (piece === undefined) socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
      else socket.write(piece, () => setTimeout(() => send(index + 1), 30));
    };
    send(0);
  });
}

/** The git processes under `pid` (children and their children), by /proc. */
function gitProcessesUnder(pid: number): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      names.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const under = (child: number): boolean => {
    for (let at = parents.get(child); at !== undefined && at > 1; at = parents.get(at))
      if (at === pid) return true;
    return false;
  };
  return [...names].filter(([id, name]) => name.startsWith("git") && under(id)).map(([id]) => id);
}

/**
 * Makes a repository's ref files look untouched for a while, as between the pushes of a real
 * project: Kiln remembers a ref listing only once the refs' mtimes are two seconds old.
 */
function settleRefs(gitDir: string): void {
  const past = new Date(Date.now() - 10_000);
  for (const name of ["HEAD", "packed-refs", "config"]) {
    if (existsSync(join(gitDir, name))) utimesSync(join(gitDir, name), past, past);
  }
  const walk = (dir: string): void => {
    utimesSync(dir, past, past);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
    }
  };
  walk(join(gitDir, "refs"));
}

const basic = (username: string, secret: string) =>
  `Basic ${Buffer.from(`${username}:${secret}`).toString("base64")}`;

onEachDatabase("git over HTTP", (ctx) => {
  let cast: RoleCast;
  let internal: ProjectJson;
  let client: GitClient;
  /** The owner's work tree of the private project, and master's head there. */
  let ownerWork: string;
  let masterHead: string;

  const person = (role: Role) => cast.people[role];
  const creds = (user: TestUser) => ({ username: user.username, secret: user.token });
  const url = (project: ProjectJson, user?: TestUser) =>
    repoUrl(ctx().server.url, project.path_with_namespace, user && creds(user));
  const clone = async (
    project: ProjectJson,
    user: TestUser | undefined,
    name: string,
    args: string[] = [],
  ) => {
    const dest = join(client.root, name);
    const run = await client.run(["clone", "--quiet", ...args, url(project, user), dest]);
    return { ...run, dest };
  };
  const remoteHead = async (project: ProjectJson, ref: string) =>
    (await client.ok(["ls-remote", url(project, cast.people.owner), ref])).split("\t")[0] ?? "";
  const getProject = async (id: number) =>
    (await ctx().api<ProjectJson>({ path: `/projects/${id}`, token: ctx().root.token })).body;
  const events = async (id: number) =>
    (await ctx().api<PushEventJson[]>({ path: `/projects/${id}/events`, token: ctx().root.token })).body;
  const createProject = async (owner: TestUser, name: string, visibility_level: number) => {
    const res = await ctx().api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: owner.token,
      json: { name, visibility_level },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const addMember = async (project: ProjectJson, user: TestUser, access_level: number) => {
    const res = await ctx().api({
      method: "POST",
      path: `/projects/${project.id}/members`,
      token: ctx().root.token,
      json: { user_id: user.id, access_level },
    });
    expect(res.status).toBe(201);
  };
  /** A new work tree with one commit on master (not pushed anywhere yet). */
  const newWork = async (name: string, message = "initial commit") => {
    const dir = join(client.root, name);
    await client.ok(["init", "--quiet", "--initial-branch=master", dir]);
    await client.commit(dir, message);
    return dir;
  };

  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "gh");
    internal = await createProject(cast.people.owner, "gh-internal", 10);
    client = gitClient();
  });
  afterAll(() => client?.remove());

  describe("the first push", () => {
    it("fills an empty project: its first branch becomes the default branch", async () => {
      expect((await getProject(cast.private.id)).default_branch).toBeNull();
      ownerWork = await newWork("owner-private");
      masterHead = await client.commit(ownerWork, "second commit");
      await client.ok(["checkout", "--quiet", "-b", "side"], ownerWork);
      await client.commit(ownerWork, "on the side");
      await client.ok(["checkout", "--quiet", "master"], ownerWork);
      await client.ok(["remote", "add", "origin", url(cast.private, person("owner"))], ownerWork);
      await client.ok(["push", "--quiet", "origin", "side", "master"], ownerWork);

      const project = await getProject(cast.private.id);
      expect(project.default_branch).toBe("master");
      expect(project.http_url_to_repo).toBe(
        `${ctx().server.url.replace("127.0.0.1", "localhost")}/${project.path_with_namespace}.git`,
      );
      expect(await remoteHead(cast.private, "refs/heads/master")).toBe(masterHead);
      // HEAD follows the default branch: a clone checks out master.
      const cloned = await clone(cast.private, person("owner"), "owner-check");
      expect(await client.ok(["rev-parse", "--abbrev-ref", "HEAD"], cloned.dest)).toBe("master");

      for (const project of [cast.public, internal]) {
        const work = await newWork(`seed-${project.id}`, `seed of ${project.name}`);
        await client.ok(["push", "--quiet", url(project, person("owner")), "master"], work);
        expect((await getProject(project.id)).default_branch).toBe("master");
      }
    });

    it("records a push event per ref with the pushed commits", async () => {
      const list = await events(cast.private.id);
      const master = list.find((event) => event.data?.ref === "refs/heads/master");
      expect(master).toMatchObject({
        action_name: "pushed new",
        author_id: person("owner").id,
        data: {
          before: "0".repeat(40),
          after: masterHead,
          user_id: person("owner").id,
          total_commits_count: 2,
        },
      });
      // Oldest first, as GitLab's push data.
      expect(master?.data.commits.map((commit) => commit.message.trim())).toEqual([
        "initial commit",
        "second commit",
      ]);
      // Another branch of the same first push lists what the default branch lacks.
      const side = list.find((event) => event.data?.ref === "refs/heads/side");
      expect(side?.data.total_commits_count).toBe(1);
      expect(side?.data.commits.map((commit) => commit.message.trim())).toEqual(["on the side"]);
    });
  });

  describe("reading", () => {
    it("lets anyone clone a public project through its http_url_to_repo", async () => {
      const project = await getProject(cast.public.id);
      const dest = join(client.root, "anonymous-public");
      await client.ok(["clone", "--quiet", project.http_url_to_repo, dest]);
      expect(await client.ok(["log", "--format=%s", "-1"], dest)).toBe("seed of gh-public");
    });

    it("asks anonymous clients for credentials for private, internal and missing projects", async () => {
      for (const path of [
        cast.private.path_with_namespace,
        internal.path_with_namespace,
        "gh-owner/nothing",
      ]) {
        const run = await client.run([
          "clone",
          `${ctx().server.url}/${path}.git`,
          join(client.root, "anon-x"),
        ]);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toMatch(AUTH_FAILED);
        const res = await raw(ctx().server.url, `/${path}.git/info/refs?service=git-upload-pack`);
        expect(res.status).toBe(401);
        expect(res.headers["www-authenticate"]).toBe('Basic realm="Kiln"');
        expect(res.body).toBe("HTTP Basic: Access denied\n");
      }
      expect(existsSync(join(client.root, "anon-x"))).toBe(false);
    });

    it("lets each role clone the private project as far as its level allows", async () => {
      for (const role of ROLES) {
        const run = await clone(cast.private, person(role), `private-${role}`);
        if (role === "guest") {
          expect(run.code).not.toBe(0);
          expect(run.stderr).toContain(`remote: ${DENIED.download}`);
        } else if (role === "outsider") {
          expect(run.code).not.toBe(0);
          expect(run.stderr).toContain("remote: The project you were looking for could not be found.");
          expect(run.stderr).toMatch(/repository '.*' not found/);
        } else {
          expect(run.code, `${role}: ${run.stderr}`).toBe(0);
          expect(await client.ok(["rev-parse", "HEAD"], run.dest)).toBe(masterHead);
        }
      }
    });

    it("lets any signed-in user clone an internal project, over protocol v0 and v2", async () => {
      for (const version of ["0", "2"]) {
        const run = await clone(internal, person("outsider"), `internal-v${version}`, [
          "-c",
          `protocol.version=${version}`,
        ]);
        expect(run.code, run.stderr).toBe(0);
      }
      const hidden = await client.run([
        "ls-remote",
        repoUrl(ctx().server.url, "gh-owner/nothing", creds(person("outsider"))),
      ]);
      expect(hidden.stderr).toMatch(/repository '.*' not found/);
    });

    it("reads gzip request bodies", async () => {
      const lsRefs = Buffer.from("0014command=ls-refs\n00010000");
      const res = await raw(ctx().server.url, `/${cast.private.path_with_namespace}.git/git-upload-pack`, {
        method: "POST",
        headers: {
          Authorization: basic("anyone", person("reporter").token),
          "Content-Type": "application/x-git-upload-pack-request",
          "Content-Encoding": "gzip",
          "Git-Protocol": "version=2",
        },
        body: gzipSync(lsRefs),
      });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/x-git-upload-pack-result");
      expect(res.body).toContain(`${masterHead} refs/heads/master`);
    });

    it("lists the refs the API just changed, and a remembered listing only to who may read it", async () => {
      const project = cast.private;
      const gitDir = repositoryPath(ctx().server, project.id);
      const api = (method: string, path: string, json?: Record<string, unknown>) =>
        ctx().api({
          method,
          path: `/projects/${project.id}/repository${path}`,
          token: ctx().root.token,
          json,
        });
      const listing = async (user: TestUser = person("owner")) =>
        client.ok(["-c", "protocol.version=2", "ls-remote", "--symref", url(project, user)]);
      /** Lists twice with the refs settled: the second answer comes from memory. */
      const remembered = async () => {
        settleRefs(gitDir);
        const first = await listing();
        expect(await listing()).toBe(first);
        return first;
      };

      expect(await remembered()).toContain(`${masterHead}\trefs/heads/master`);
      expect((await api("POST", "/branches", { branch_name: "listed-topic", ref: "master" })).status).toBe(
        200,
      );
      expect(await listing()).toContain(`${masterHead}\trefs/heads/listed-topic`);

      await remembered();
      expect((await api("POST", "/tags", { tag_name: "listed-tag", ref: "master" })).status).toBe(201);
      expect(await listing()).toContain(`${masterHead}\trefs/tags/listed-tag`);

      await remembered();
      expect((await api("DELETE", "/branches/listed-topic")).status).toBe(200);
      expect(await api("DELETE", "/tags/listed-tag")).toMatchObject({ status: 200 });
      const after = await listing();
      expect(after).not.toContain("listed-topic");
      expect(after).not.toContain("listed-tag");

      // The owner's listing is in memory: it reaches nobody the project is hidden from.
      await remembered();
      expect((await client.run(["ls-remote", url(project, person("guest"))])).stderr).toContain(
        `remote: ${DENIED.download}`,
      );
      expect((await client.run(["ls-remote", url(project, person("outsider"))])).stderr).toMatch(
        /repository '.*' not found/,
      );
      expect((await client.run(["ls-remote", url(project)])).stderr).toMatch(AUTH_FAILED);
      const anonymous = await raw(ctx().server.url, `/${project.path_with_namespace}.git/git-upload-pack`, {
        method: "POST",
        headers: { "Content-Type": "application/x-git-upload-pack-request", "Git-Protocol": "version=2" },
        body: Buffer.from("0014command=ls-refs\n00010000"),
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).not.toContain("refs/heads");
    });
  });

  describe("pushing", () => {
    it("refuses anonymous pushes, and pushes by reporters and guests", async () => {
      const anonymous = await client.run(["push", url(cast.public), "master"], ownerWork);
      expect(anonymous.code).not.toBe(0);
      expect(anonymous.stderr).toMatch(AUTH_FAILED);
      for (const role of ["reporter", "guest"] as const) {
        const run = await client.run(
          ["push", url(cast.private, person(role)), "master:refs/heads/new"],
          ownerWork,
        );
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain(`remote: ${DENIED.push}`);
      }
      const outsider = await client.run(
        ["push", url(cast.public, person("outsider")), "master:x"],
        ownerWork,
      );
      expect(outsider.stderr).toContain(`remote: ${DENIED.push}`);
      expect(await remoteHead(cast.private, "refs/heads/new")).toBe("");
    });

    it("lets a developer push new and unprotected branches but not the protected default branch", async () => {
      const { dest } = await clone(cast.private, person("developer"), "developer-work");
      await client.ok(["checkout", "--quiet", "-b", "dev-topic"], dest);
      const first = await client.commit(dest, "developer topic");
      await client.ok(["push", "--quiet", "origin", "dev-topic"], dest);
      expect(await remoteHead(cast.private, "refs/heads/dev-topic")).toBe(first);
      const second = await client.commit(dest, "developer again");
      await client.ok(["push", "--quiet", "origin", "dev-topic"], dest);
      expect(await remoteHead(cast.private, "refs/heads/dev-topic")).toBe(second);
      const pushed = (await events(cast.private.id)).find((event) => event.data?.after === second);
      expect(pushed).toMatchObject({
        action_name: "pushed to",
        author_id: person("developer").id,
        data: { ref: "refs/heads/dev-topic", before: first, total_commits_count: 1 },
      });
      expect(pushed?.data.commits.map((commit) => commit.id)).toEqual([second]);

      const refused = await client.run(["push", "origin", "dev-topic:master"], dest);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(`remote: ${DENIED.protected}`);
      expect(refused.stderr).toContain("[remote rejected] dev-topic -> master (pre-receive hook declined)");
      // One refused ref refuses the whole push.
      const mixed = await client.run(["push", "origin", "dev-topic:master", "dev-topic:dev-other"], dest);
      expect(mixed.code).not.toBe(0);
      expect(await remoteHead(cast.private, "refs/heads/dev-other")).toBe("");
      expect(await remoteHead(cast.private, "refs/heads/master")).toBe(masterHead);

      const deleted = await client.run(["push", "--quiet", "origin", ":dev-topic"], dest);
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(await remoteHead(cast.private, "refs/heads/dev-topic")).toBe("");
    });

    it("lets masters push to the protected default branch, and nobody force-push or delete it", async () => {
      const { dest } = await clone(cast.private, person("master"), "master-work");
      const next = await client.commit(dest, "master's commit");
      await client.ok(["push", "--quiet", "origin", "master"], dest);
      expect(await remoteHead(cast.private, "refs/heads/master")).toBe(next);
      masterHead = next;

      // A reporter's clone fetches it.
      const reporter = join(client.root, "private-reporter");
      await client.ok(["fetch", "--quiet", "origin"], reporter);
      expect(await client.ok(["rev-parse", "origin/master"], reporter)).toBe(next);

      await client.ok(["commit", "--quiet", "--amend", "-m", "rewritten"], dest);
      for (const role of ["master", "owner", "admin"] as const) {
        const forced = await client.run(["push", "--force", url(cast.private, person(role)), "master"], dest);
        expect(forced.code).not.toBe(0);
        expect(forced.stderr).toContain(`remote: ${DENIED.force}`);
        const removed = await client.run(["push", url(cast.private, person(role)), ":master"], dest);
        expect(removed.code).not.toBe(0);
        expect(removed.stderr).toContain(`remote: ${DENIED.deleteDefault}`);
      }
      expect(await remoteHead(cast.private, "refs/heads/master")).toBe(next);
    });

    it("lets developers create tags and only masters move or delete them", async () => {
      const dest = join(client.root, "developer-work");
      await client.ok(["fetch", "--quiet", "origin"], dest);
      await client.ok(["tag", "v1.0", "origin/master"], dest);
      await client.ok(["push", "--quiet", "origin", "v1.0"], dest);
      expect(await remoteHead(cast.private, "refs/tags/v1.0")).toBe(masterHead);
      const deleted = await client.run(["push", "origin", ":refs/tags/v1.0"], dest);
      expect(deleted.stderr).toContain(`remote: ${DENIED.tags}`);
      const byMaster = await client.run(
        ["push", "--quiet", url(cast.private, person("master")), ":refs/tags/v1.0"],
        dest,
      );
      expect(byMaster.code, byMaster.stderr).toBe(0);
      expect(await remoteHead(cast.private, "refs/tags/v1.0")).toBe("");
    });

    it("protects a first branch so that developers may push when default_branch_protection is 1", async () => {
      const setting = (value: number) =>
        ctx().api({
          method: "PUT",
          path: "/application/settings",
          token: ctx().root.token,
          json: { default_branch_protection: value },
        });
      expect((await setting(1)).status).toBe(200);
      try {
        const project = await createProject(person("owner"), "gh-dev-push", 0);
        await addMember(project, person("developer"), 30);
        const work = await newWork("dev-push");
        await client.ok(["push", "--quiet", url(project, person("owner")), "master"], work);
        const next = await client.commit(work, "by a developer");
        await client.ok(["push", "--quiet", url(project, person("developer")), "master"], work);
        expect(await remoteHead(project, "refs/heads/master")).toBe(next);
        await client.ok(["commit", "--quiet", "--amend", "-m", "rewritten"], work);
        const forced = await client.run(
          ["push", "--force", url(project, person("developer")), "master"],
          work,
        );
        expect(forced.stderr).toContain(`remote: ${DENIED.force}`);
      } finally {
        await setting(2);
      }
    });

    it("refuses every push to an archived project, which still clones", async () => {
      const project = await createProject(person("owner"), "gh-archived", 0);
      const work = await newWork("archived");
      await client.ok(["push", "--quiet", url(project, person("owner")), "master"], work);
      const archived = await ctx().api({
        method: "POST",
        path: `/projects/${project.id}/archive`,
        token: person("owner").token,
      });
      expect(archived.status).toBe(201);
      await client.commit(work, "too late");
      for (const role of ["owner", "admin"] as const) {
        const run = await client.run(["push", url(project, person(role)), "master"], work);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain(`remote: ${DENIED.archived}`);
      }
      const cloned = await clone(project, person("owner"), "archived-clone");
      expect(cloned.code, cloned.stderr).toBe(0);
    });
  });

  describe("credentials", () => {
    it("accepts a username or email with the password, and any username with a token", async () => {
      const developer = person("developer");
      const ways = [
        { username: developer.username, secret: "password123" },
        { username: `${developer.username}@example.com`, secret: "password123" },
        { username: "whoever", secret: developer.token },
      ];
      const minted = await runKiln(["token", "create", "--user", developer.username], ctx().server.kilnEnv);
      expect(minted.code).toBe(0);
      ways.push({ username: "pat", secret: minted.stdout.trim() });
      for (const [index, way] of ways.entries()) {
        const target = repoUrl(ctx().server.url, cast.private.path_with_namespace, way);
        const run = await client.run(["clone", "--quiet", target, join(client.root, `ways-${index}`)]);
        expect(run.code, `${way.username}: ${run.stderr}`).toBe(0);
      }
      for (const way of [
        { username: developer.username, secret: "wrong-password" },
        { username: "nobody-here", secret: "password123" },
        { username: developer.username, secret: "not-a-token-at-all" },
      ]) {
        const target = repoUrl(ctx().server.url, cast.private.path_with_namespace, way);
        const run = await client.run(["ls-remote", target]);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain("Authentication failed");
      }
      // Bad credentials are refused even where anonymous access would do.
      const wrong = await raw(
        ctx().server.url,
        `/${cast.public.path_with_namespace}.git/info/refs?service=git-upload-pack`,
        {
          headers: { Authorization: basic(developer.username, "wrong-password") },
        },
      );
      expect(wrong.status).toBe(401);
    });

    it("stops password authentication while sign-in is disabled; tokens keep working", async () => {
      const developer = person("developer");
      const toggle = (signin_enabled: boolean) =>
        ctx().api({
          method: "PUT",
          path: "/application/settings",
          token: ctx().root.token,
          json: { signin_enabled },
        });
      expect((await toggle(false)).status).toBe(200);
      try {
        const byPassword = repoUrl(ctx().server.url, cast.private.path_with_namespace, {
          username: developer.username,
          secret: "password123",
        });
        expect((await client.run(["ls-remote", byPassword])).stderr).toContain("Authentication failed");
        expect((await client.run(["ls-remote", url(cast.private, developer)])).code).toBe(0);
      } finally {
        await toggle(true);
      }
    });

    it("refuses blocked users, by password and by token", async () => {
      const blocked = await createUser(ctx().server, ctx().root, "gh-blocked");
      await addMember(cast.private, blocked, 30);
      expect((await client.run(["ls-remote", url(cast.private, blocked)])).code).toBe(0);
      await ctx().api({ method: "PUT", path: `/users/${blocked.id}/block`, token: ctx().root.token });
      for (const secret of [blocked.token, "password123"]) {
        const target = repoUrl(ctx().server.url, cast.private.path_with_namespace, {
          username: blocked.username,
          secret,
        });
        expect((await client.run(["ls-remote", target])).stderr).toContain("Authentication failed");
      }
    });
  });

  describe("disconnects", () => {
    it("kills git when a client goes away in the middle of a clone", async () => {
      const project = await createProject(person("owner"), "gh-big", 20);
      const work = await newWork("big");
      writeFileSync(join(work, "noise.bin"), randomBytes(16 * 1024 * 1024));
      await client.ok(["add", "noise.bin"], work);
      await client.ok(["commit", "--quiet", "-m", "noise"], work);
      const head = await client.ok(["rev-parse", "HEAD"], work);
      await client.ok(["push", "--quiet", url(project, person("owner")), "master"], work);

      const pkt = (line: string) => `${(line.length + 4).toString(16).padStart(4, "0")}${line}`;
      const body = `${pkt("command=fetch\n")}0001${pkt("no-progress\n")}${pkt(`want ${head}\n`)}${pkt("done\n")}0000`;
      const server = ctx().server.process.pid as number;
      const during = await new Promise<number[]>((resolve, reject) => {
        const target = new URL(ctx().server.url);
        const req = request({
          host: target.hostname,
          port: target.port,
          method: "POST",
          path: `/${project.path_with_namespace}.git/git-upload-pack`,
          headers: { "Content-Type": "application/x-git-upload-pack-request", "Git-Protocol": "version=2" },
        });
        req.on("response", (res) => {
          res.once("data", () => {
            // The client reads no further: git blocks on a full pipe until it is killed.
            const running = gitProcessesUnder(server);
            req.destroy();
            resolve(running);
          });
        });
        req.on("error", () => undefined);
        req.on("close", () => resolve([]));
        req.end(body);
        setTimeout(() => reject(new Error("no answer")), 15_000);
      });
      expect(during.length).toBeGreaterThan(0);
      let left = during;
      for (let tries = 0; tries < 100 && left.length > 0; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        left = gitProcessesUnder(server).filter((id) => during.includes(id));
      }
      expect(left).toEqual([]);
    });
  });

  describe("bad requests", () => {
    const uploadPack = { "Content-Type": "application/x-git-upload-pack-request" };
    const receivePack = { "Content-Type": "application/x-git-receive-pack-request" };

    it("answers 400 to a request that is not git's protocol, anonymous on a public project too", async () => {
      const path = (service: string) => `/${cast.public.path_with_namespace}.git/${service}`;
      const owner = { Authorization: basic("x", person("owner").token) };
      for (const [headers, service] of [
        [uploadPack, "git-upload-pack"],
        [{ ...uploadPack, "Git-Protocol": "version=2" }, "git-upload-pack"],
        [{ ...receivePack, ...owner }, "git-receive-pack"],
      ] as const) {
        for (const body of ["ffff", "zzzz garbage", "0032want 0123", "000fhello world0000"]) {
          const res = await raw(ctx().server.url, path(service), {
            method: "POST",
            headers,
            body: Buffer.from(body),
          });
          expect(res.status, `${service} ${JSON.stringify(headers)} ${body}`).toBe(400);
          expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
        }
      }
      expect((await clone(cast.public, undefined, "after-garbage")).code).toBe(0);
    });

    it("answers 500 when git fails for the server's reasons, and logs it", async () => {
      const project = await createProject(person("owner"), "gh-broken", 20);
      // A repository broken on disk (a missing one is created again on demand).
      rmSync(join(repositoryPath(ctx().server, project.id), "objects"), { recursive: true, force: true });
      const res = await raw(ctx().server.url, `/${project.path_with_namespace}.git/git-upload-pack`, {
        method: "POST",
        headers: uploadPack,
        body: Buffer.from(`0032want ${"1".repeat(40)}\n00000009done\n`),
      });
      expect(res.status).toBe(500);
      const logged = () => ctx().server.logs.some((line) => line["msg"] === "git request failed");
      for (let tries = 0; tries < 100 && !logged(); tries++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(logged()).toBe(true);
    });

    it("lets a client still sending its body read a refusal instead of a reset connection", async () => {
      const pieces = Array.from({ length: 6 }, () => Buffer.alloc(64 * 1024, "z"));
      const send = (path: string, headers: Record<string, string>) =>
        postInPieces(ctx().server.url, path, headers, pieces);
      const publicPath = `/${cast.public.path_with_namespace}.git`;
      expect(await send(`${publicPath}/git-receive-pack`, receivePack)).toBe("HTTP/1.1 401 Unauthorized");
      expect(await send("/gh-owner/no-such-project.git/git-upload-pack", uploadPack)).toBe(
        "HTTP/1.1 401 Unauthorized",
      );
      expect(await send("/%2e%2e/outside.git/git-receive-pack", receivePack)).toBe("HTTP/1.1 404 Not Found");
      const owner = { Authorization: basic("x", person("owner").token) };
      expect(await send(`${publicPath}/git-upload-pack`, { ...owner, "Content-Type": "text/plain" })).toBe(
        "HTTP/1.1 415 Unsupported Media Type",
      );
      expect(await send(`${publicPath}/git-receive-pack`, { ...owner, ...receivePack })).toBe(
        "HTTP/1.1 400 Bad Request",
      );
    });
  });

  describe("paths", () => {
    it("answers 404 for paths that try to leave the project, and creates nothing outside the data dir", async () => {
      const dataDir = ctx().server.dataDir;
      const before = readdirSync(join(dataDir, "repositories")).sort();
      const auth = { Authorization: basic("x", person("owner").token) };
      const attempts = [
        "/../../outside.git/info/refs?service=git-upload-pack",
        "/%2e%2e/%2e%2e.git/info/refs?service=git-upload-pack",
        "/gh-owner/%2e%2e.git/info/refs?service=git-receive-pack",
        "/gh-owner/..%2f..%2foutside.git/info/refs?service=git-upload-pack",
        "/%2e%2e%2f%2e%2e/outside.git/info/refs?service=git-upload-pack",
        "/gh-owner/gh-private.git/../../outside/info/refs?service=git-upload-pack",
        `/gh-owner/gh-private%00.git/info/refs?service=git-upload-pack`,
      ];
      for (const path of attempts) {
        const res = await raw(ctx().server.url, path, { headers: auth });
        expect(res.status, path).toBe(404);
      }
      for (const path of [
        "/%2e%2e/outside.git/git-receive-pack",
        "/gh-owner/..%2foutside.git/git-upload-pack",
      ]) {
        const res = await raw(ctx().server.url, path, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/x-git-receive-pack-request" },
          body: Buffer.from("0000"),
        });
        expect(res.status, path).toBe(404);
      }
      expect(readdirSync(join(dataDir, "repositories")).sort()).toEqual(before);
      expect(existsSync(join(dirname(dataDir), "outside.git"))).toBe(false);
      expect(existsSync(join(dataDir, "outside.git"))).toBe(false);
    });

    it("serves the smart protocol only", async () => {
      const dumb = await raw(ctx().server.url, `/${cast.public.path_with_namespace}.git/info/refs`);
      expect(dumb.status).toBe(403);
      const other = await raw(
        ctx().server.url,
        `/${cast.public.path_with_namespace}.git/info/refs?service=git-upload-archive`,
      );
      expect(other.status).toBe(403);
      const withoutSuffix = await raw(
        ctx().server.url,
        `/${cast.public.path_with_namespace}/info/refs?service=git-upload-pack`,
      );
      expect(withoutSuffix.status).toBe(200);
      expect(withoutSuffix.headers["content-type"]).toBe("application/x-git-upload-pack-advertisement");
    });
  });
});
