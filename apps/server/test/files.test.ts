import { randomBytes } from "node:crypto";
import { FileCommitJson, FileJson, type ProjectJson } from "@kiln/schemas";
import { createUser, git, repositoryPath, type TestUser } from "@kiln/testkit";
import { beforeAll, expect, it } from "vitest";
import { createRoleCast, type Role, type RoleCast } from "./project-roles.js";
import { onEachDatabase } from "./support.js";

const FILES = (id: number) => `/projects/${id}/repository/files`;
const REFUSED_PUSH = "You are not allowed to push into this branch";

onEachDatabase("repository files API", (ctx) => {
  let cast: RoleCast;
  let owner: TestUser;
  beforeAll(async () => {
    cast = await createRoleCast(ctx(), "fl");
    owner = await createUser(ctx().server, ctx().root, "fl-maker", { projects_limit: 100 });
  });
  const api = <T = unknown>(request: Parameters<ReturnType<typeof ctx>["api"]>[0]) => ctx().api<T>(request);
  const repo = (id: number) => repositoryPath(ctx().server, id);

  let projects = 0;
  /** A new empty project of `owner`, who may have many. */
  async function emptyProject(visibility_level = 0): Promise<ProjectJson> {
    projects += 1;
    const res = await api<ProjectJson>({
      method: "POST",
      path: "/projects",
      token: owner.token,
      json: { name: `files-${projects}`, visibility_level },
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  const write = (
    method: "POST" | "PUT" | "DELETE",
    id: number,
    params: Record<string, string>,
    token = owner.token,
  ) =>
    api<{ message?: unknown }>({
      method,
      path: FILES(id),
      token,
      json: { branch_name: "master", commit_message: `${method} ${params["file_path"]}`, ...params },
    });
  const create = (id: number, file_path: string, content: string, token?: string) =>
    write("POST", id, { file_path, content }, token);
  const read = (id: number, file_path: string, ref = "master", token = owner.token) =>
    api<FileJson & { message?: unknown }>({ path: FILES(id), token, query: { file_path, ref } });
  const text = (file: FileJson) => Buffer.from(file.content, "base64").toString("utf8");

  it("makes the first commit of an empty project, whose branch becomes the protected default", async () => {
    const project = await emptyProject();
    const created = await create(project.id, "README.md", "# hello\n");
    expect(created.status).toBe(201);
    expect(FileCommitJson.strict().parse(created.body)).toEqual({
      file_path: "README.md",
      branch_name: "master",
    });

    const shown = await api<ProjectJson>({ path: `/projects/${project.id}`, token: owner.token });
    expect(shown.body.default_branch).toBe("master");
    expect(git(["symbolic-ref", "HEAD"], repo(project.id)).trim()).toBe("refs/heads/master");
    expect(git(["log", "--format=%s|%an|%ae|%cn", "master"], repo(project.id))).toBe(
      `POST README.md|${owner.username}|${owner.username}@example.com|${owner.username}\n`,
    );
    expect(git(["show", "master:README.md"], repo(project.id))).toBe("# hello\n");

    // default_branch_protection 2: the new default branch is protected, developers may not push.
    const branches = await api<{ name: string; protected: boolean; developers_can_push: boolean }[]>({
      path: `/projects/${project.id}/repository/branches`,
      token: owner.token,
    });
    expect(branches.body).toMatchObject([{ name: "master", protected: true, developers_can_push: false }]);
    const developer = cast.people.developer;
    await api({
      method: "POST",
      path: `/projects/${project.id}/members`,
      token: owner.token,
      json: { user_id: developer.id, access_level: 30 },
    });
    expect(await create(project.id, "dev.txt", "x", developer.token)).toMatchObject({
      status: 400,
      body: { message: REFUSED_PUSH },
    });
  });

  it("reads a file as base64 with its blob, commit and last commit ids", async () => {
    const project = await emptyProject();
    await create(project.id, "src/app.rb", "puts 1\n");
    await create(project.id, "other.txt", "other\n");
    const head = git(["rev-parse", "master"], repo(project.id)).trim();
    const changedIn = git(["rev-parse", "master~1"], repo(project.id)).trim();

    const res = await read(project.id, "src/app.rb");
    expect(res.status).toBe(200);
    expect(FileJson.strict().parse(res.body)).toEqual({
      file_name: "app.rb",
      file_path: "src/app.rb",
      size: 7,
      encoding: "base64",
      content: Buffer.from("puts 1\n").toString("base64"),
      ref: "master",
      blob_id: git(["rev-parse", "master:src/app.rb"], repo(project.id)).trim(),
      commit_id: head,
      last_commit_id: changedIn,
    });
    expect((await read(project.id, "src/app.rb", changedIn)).body).toMatchObject({
      ref: changedIn,
      commit_id: changedIn,
    });

    expect(await read(project.id, "src/app.rb", "no-such-branch")).toMatchObject({
      status: 404,
      body: { message: "404 Commit Not Found" },
    });
    for (const missing of ["nope.txt", "src", "../etc/passwd"]) {
      expect(await read(project.id, missing)).toMatchObject({
        status: 404,
        body: { message: "404 File Not Found" },
      });
    }
    expect(
      await api({ path: FILES(project.id), token: owner.token, query: { file_path: "x" } }),
    ).toMatchObject({ status: 400, body: { message: '400 (Bad request) "ref" not given' } });
    expect((await api({ path: FILES(project.id), query: { file_path: "x", ref: "master" } })).status).toBe(
      401,
    );
  });

  it("updates and deletes files, refusing to create a file twice or change a missing one", async () => {
    const project = await emptyProject();
    await create(project.id, "notes.txt", "one\n");
    expect(await create(project.id, "notes.txt", "again\n")).toMatchObject({
      status: 400,
      body: {
        message: "Your changes could not be committed because a file with the same name already exists",
      },
    });

    const updated = await write("PUT", project.id, { file_path: "notes.txt", content: "two\n" });
    expect(updated).toMatchObject({ status: 200, body: { file_path: "notes.txt", branch_name: "master" } });
    expect(text((await read(project.id, "notes.txt")).body)).toBe("two\n");

    const deleted = await write("DELETE", project.id, { file_path: "notes.txt" });
    expect(deleted).toMatchObject({ status: 200, body: { file_path: "notes.txt", branch_name: "master" } });
    expect((await read(project.id, "notes.txt")).status).toBe(404);
    expect(git(["log", "--format=%s", "master"], repo(project.id))).toBe(
      "DELETE notes.txt\nPUT notes.txt\nPOST notes.txt\n",
    );

    expect(await write("PUT", project.id, { file_path: "notes.txt", content: "x" })).toMatchObject({
      status: 400,
      body: { message: "File to be updated `notes.txt` does not exist." },
    });
    expect(await write("DELETE", project.id, { file_path: "notes.txt" })).toMatchObject({
      status: 400,
      body: { message: "File to be deleted `notes.txt` does not exist." },
    });
    expect(git(["rev-list", "--count", "master"], repo(project.id)).trim()).toBe("3");
  });

  it("round-trips binary content through base64 byte for byte, and commits text as UTF-8", async () => {
    const project = await emptyProject();
    const bytes = Buffer.concat([
      Buffer.from([0, 0xff, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a]),
      randomBytes(3000),
    ]);
    const posted = await write("POST", project.id, {
      file_path: "img/logo.png",
      content: bytes.toString("base64"),
      encoding: "base64",
    });
    expect(posted.status).toBe(201);
    const file = (await read(project.id, "img/logo.png")).body;
    expect(file.size).toBe(bytes.length);
    expect(Buffer.from(file.content, "base64").equals(bytes)).toBe(true);
    const blob = git(["rev-parse", "master:img/logo.png"], repo(project.id)).trim();
    expect(blob).toBe(file.blob_id);

    const wrapped = `${Buffer.from("wrapped like Ruby's encode64\n").toString("base64")}\n`;
    const put = await write("PUT", project.id, {
      file_path: "img/logo.png",
      content: wrapped,
      encoding: "base64",
    });
    expect(put.status).toBe(200);
    expect(text((await read(project.id, "img/logo.png")).body)).toBe("wrapped like Ruby's encode64\n");
    expect(
      await write("PUT", project.id, {
        file_path: "img/logo.png",
        content: "not base64!",
        encoding: "base64",
      }),
    ).toMatchObject({ status: 400, body: { message: { content: ["is not valid base64"] } } });

    const unicode = "héllo ✓ — 日本\n";
    await write("POST", project.id, { file_path: "hello.txt", content: unicode, encoding: "text" });
    expect(text((await read(project.id, "hello.txt")).body)).toBe(unicode);
    expect(git(["show", "master:hello.txt"], repo(project.id))).toBe(unicode);
  });

  it("strips a leading slash and refuses directory traversal and names outside GitLab's set", async () => {
    const project = await emptyProject();
    expect(await create(project.id, "/docs/a@b_c-d.md", "a\n")).toMatchObject({
      status: 201,
      body: { file_path: "docs/a@b_c-d.md" },
    });
    expect((await read(project.id, "/docs/a@b_c-d.md")).body).toMatchObject({ file_path: "docs/a@b_c-d.md" });
    expect(git(["ls-tree", "-r", "--name-only", "master"], repo(project.id))).toBe("docs/a@b_c-d.md\n");

    for (const path of ["../outside.txt", "docs/../../x", "docs/..hidden"]) {
      expect(await create(project.id, path, "x")).toMatchObject({
        status: 400,
        body: {
          message:
            "Your changes could not be committed, because the file name cannot include directory traversal.",
        },
      });
    }
    expect(await write("DELETE", project.id, { file_path: "../docs/a@b_c-d.md" })).toMatchObject({
      status: 400,
    });
    expect(await create(project.id, "with space.txt", "x")).toMatchObject({
      status: 400,
      body: {
        message:
          "Your changes could not be committed, because the file name can contain only letters, digits, '_', '-', '@' and '.'. Separate directories with a '/'.",
      },
    });
    expect((await create(project.id, "docs/a@b_c-d.md/below", "x")).status).toBe(400);
    expect(git(["rev-list", "--count", "master"], repo(project.id)).trim()).toBe("1");
  });

  it('answers 400 "not given" for each missing parameter, and for a branch that does not exist', async () => {
    const project = await emptyProject();
    await create(project.id, "a.txt", "a");
    const full = { file_path: "b.txt", branch_name: "master", commit_message: "add b", content: "b" };
    for (const missing of ["file_path", "branch_name", "commit_message", "content"] as const) {
      const { [missing]: _, ...params } = full;
      expect(
        await api({ method: "POST", path: FILES(project.id), token: owner.token, json: params }),
      ).toMatchObject({
        status: 400,
        body: { message: `400 (Bad request) "${missing}" not given` },
      });
    }
    expect(
      await api({
        method: "DELETE",
        path: FILES(project.id),
        token: owner.token,
        query: { file_path: "a.txt" },
      }),
    ).toMatchObject({ status: 400, body: { message: '400 (Bad request) "branch_name" not given' } });

    expect(await write("POST", project.id, { ...full, branch_name: "nowhere" })).toMatchObject({
      status: 400,
      body: { message: "You can only create or edit files when you are on a branch" },
    });
    expect(await write("POST", project.id, { ...full, branch_name: "bad..name" })).toMatchObject({
      status: 400,
      body: { message: { branch_name: ["is invalid"] } },
    });
    expect(git(["for-each-ref", "--format=%(refname)"], repo(project.id))).toBe("refs/heads/master\n");
  });

  it("names the author given, with the caller as committer", async () => {
    const project = await emptyProject();
    const res = await write("POST", project.id, {
      file_path: "a.txt",
      content: "a",
      author_name: "Ada Lovelace",
      author_email: "ada@example.com",
    });
    expect(res.status).toBe(201);
    expect(git(["log", "-1", "--format=%an <%ae>|%cn <%ce>", "master"], repo(project.id)).trim()).toBe(
      `Ada Lovelace <ada@example.com>|${owner.username} <${owner.username}@example.com>`,
    );
    expect(
      await write("PUT", project.id, { file_path: "a.txt", content: "b", author_name: "Eve <evil>" }),
    ).toMatchObject({ status: 400, body: { message: { author_name: ["is invalid"] } } });
  });

  it("follows each role's rights: push rules on protected branches, 403 without push_code, 404 when hidden", async () => {
    const { id } = cast.private;
    expect((await create(id, "README.md", "cast\n", cast.people.owner.token)).status).toBe(201);
    git(["branch", "feature", "master"], repo(id));
    const as = (role: Role) => cast.people[role].token;

    const onMaster = async (role: Role) => (await create(id, `master-${role}.txt`, role, as(role))).status;
    const onFeature = async (role: Role) =>
      (
        await write(
          "POST",
          id,
          { file_path: `feature-${role}.txt`, content: role, branch_name: "feature" },
          as(role),
        )
      ).status;
    const reads = async (role: Role) => (await read(id, "README.md", "master", as(role))).status;

    const outcome: Record<string, [number, number, number]> = {};
    for (const role of ["owner", "master", "developer", "reporter", "guest", "outsider", "admin"] as const) {
      outcome[role] = [await onMaster(role), await onFeature(role), await reads(role)];
    }
    expect(outcome).toEqual({
      owner: [201, 201, 200],
      master: [201, 201, 200],
      developer: [400, 201, 200],
      reporter: [403, 403, 200],
      guest: [403, 403, 403],
      outsider: [404, 404, 404],
      admin: [201, 201, 200],
    });
    expect((await create(id, "again.txt", "x", as("developer"))).body).toEqual({ message: REFUSED_PUSH });
    expect((await create(id, "again.txt", "x", as("reporter"))).body).toEqual({ message: "403 Forbidden" });
    expect((await create(id, "again.txt", "x", as("outsider"))).body).toEqual({
      message: "404 Project Not Found",
    });
    expect(git(["ls-tree", "--name-only", "feature"], repo(id))).toBe(
      "README.md\nfeature-admin.txt\nfeature-developer.txt\nfeature-master.txt\nfeature-owner.txt\n",
    );

    // A public project shows its files to anyone signed in, but only members write.
    const pub = cast.public.id;
    expect((await create(pub, "README.md", "public\n", cast.people.owner.token)).status).toBe(201);
    expect((await read(pub, "README.md", "master", as("outsider"))).status).toBe(200);
    expect((await create(pub, "x.txt", "x", as("outsider"))).status).toBe(403);
  });

  it("records each write as a push event of its author", async () => {
    const project = await emptyProject();
    await create(project.id, "a.txt", "a");
    await write("PUT", project.id, { file_path: "a.txt", content: "b" });
    const [first, second] = git(["rev-list", "--reverse", "master"], repo(project.id)).trim().split("\n");
    const events = await api<{ action_name: string; author_id: number; data: Record<string, unknown> }[]>({
      path: `/projects/${project.id}/events`,
      token: owner.token,
    });
    expect(events.status).toBe(200);
    expect(
      events.body
        .filter((e) => e.action_name.startsWith("pushed"))
        .map((e) => [e.action_name, e.author_id, e.data["ref"], e.data["before"], e.data["after"]]),
    ).toEqual([
      ["pushed to", owner.id, "refs/heads/master", first, second],
      ["pushed new", owner.id, "refs/heads/master", "0".repeat(40), first],
    ]);
    expect(events.body[0]?.data).toMatchObject({
      user_id: owner.id,
      total_commits_count: 1,
      commits: [{ id: second, message: expect.stringMatching(/^PUT a\.txt/) }],
    });
  });

  it("never loses a change when writes race on one branch: each is committed or refused with 409", async () => {
    const project = await emptyProject();
    await create(project.id, "base.txt", "base");
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create(project.id, `race-${i}.txt`, `${i}`)),
    );
    for (const answer of answers) {
      if (answer.status !== 201) {
        expect(answer).toMatchObject({
          status: 409,
          body: { message: "Commit was rejected because branch received new push" },
        });
      }
    }
    const committed = answers
      .map((answer, i) => (answer.status === 201 ? `race-${i}.txt` : null))
      .filter((name) => name !== null);
    expect(committed.length).toBeGreaterThan(0);
    expect(git(["ls-tree", "--name-only", "master"], repo(project.id)).trim().split("\n").sort()).toEqual(
      ["base.txt", ...committed].sort(),
    );
    expect(Number(git(["rev-list", "--count", "master"], repo(project.id)))).toBe(1 + committed.length);
  });
});
