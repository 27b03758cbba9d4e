import { generateKeyPairSync } from "node:crypto";
import {
  type ApiRequest,
  call,
  createUser,
  type KilnProcess,
  seedRepository,
  type TestUser,
} from "@kiln/testkit";

/** The kinds of object a path parameter can name. */
export type Kind =
  | "project"
  | "user"
  | "group"
  | "namespace"
  | "issue"
  | "mergeRequest"
  | "note"
  | "label"
  | "milestone"
  | "hook"
  | "key"
  | "todo"
  | "branch"
  | "tag"
  | "sha"
  | "blob"
  | "file";

/**
 * Real values of one kind: `kept` ones are only read, `expendable` ones may be changed or deleted.
 * The first `main` of the kept ones name the object the others of the fixture belong to (the
 * project that holds the issues, the group that holds the members).
 */
export interface Pool {
  kept: (string | number)[];
  expendable: (string | number)[];
  main?: number;
}

/** The real objects of a fuzzed server, and who may act on them. */
export interface Fixture {
  /** Root's private token (an administrator). */
  adminToken: string;
  /** A user's private token: a developer of the main project, not an administrator. */
  userToken: string;
  usernames: string[];
  pools: Record<Kind, Pool>;
  /** `namespace/project` of repositories that exist (for git's smart HTTP). */
  repositories: { namespace: string; project: string }[];
  /** The served paths of real uploads: `/<namespace>/<project>/uploads/<secret>/<file>`. */
  uploads: string[];
}

/** An `ssh-ed25519` public key line, new each time (keys must be unique per server). */
function sshPublicKey(comment: string): string {
  const jwk = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
  const field = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const blob = Buffer.concat([
    field(Buffer.from("ssh-ed25519")),
    field(Buffer.from(jwk.x ?? "", "base64url")),
  ]);
  return `ssh-ed25519 ${blob.toString("base64")} ${comment}`;
}

/**
 * Creates, through the API (and git for the repository), one of each object the v3 routes name:
 * users, groups, projects with a repository (branches `master`, `feature`, `topic/slash`, a tag),
 * members, labels, milestones, issues, merge requests, notes, hooks, SSH keys, uploads and todos.
 * Each kind has objects the fuzzer only reads and spare ones it may change or delete.
 */
export async function seedFixture(server: KilnProcess, root: TestUser): Promise<Fixture> {
  const api = async <T extends object = { id: number }>(request: ApiRequest): Promise<T> => {
    const res = await call<T>(server.url, { token: root.token, ...request });
    if (res.status < 200 || res.status > 299) {
      throw new Error(`fuzz fixture: ${request.method ?? "GET"} ${request.path}: ${res.status} ${res.text}`);
    }
    return res.body;
  };
  const post = <T extends object = { id: number }>(path: string, json: unknown, token?: string) =>
    api<T>({ method: "POST", path, json, ...(token ? { token } : {}) });

  const user = await createUser(server, root, "fuzzer");
  const spareUsers = [
    await createUser(server, root, "fuzz-spare-1"),
    await createUser(server, root, "fuzz-spare-2"),
  ];
  const group = await post("/groups", { name: "fuzz-group", path: "fuzz-group" });
  const spareGroup = await post("/groups", { name: "fuzz-group-spare", path: "fuzz-group-spare" });
  const project = await post("/projects", { name: "fuzz-project" });
  const publicProject = await post("/projects", { name: "fuzz-public", visibility_level: 20 }, user.token);
  const grouped = await post("/projects", {
    name: "fuzz-grouped",
    namespace_id: await namespaceOf("fuzz-group"),
  });
  const spareProjects = [
    await post("/projects", { name: "fuzz-spare-1" }),
    await post("/projects", { name: "fuzz-spare-2" }),
  ];

  const [c1, c2] = seedRepository(server, project.id, [
    { message: "Initial\n", files: { "README.md": "# Fuzz\n", "docs/a.md": "a\n" } },
    { message: "Second\n", files: { "README.md": "# Fuzz\n\nv2\n" } },
    { branch: "feature", message: "Feature\n", files: { "feature.txt": "f\n" } },
    { branch: "topic/slash", message: "Slash\n", files: { "slash.txt": "s\n" } },
    { branch: "spare-branch", message: "Spare\n", files: { "spare.txt": "s\n" } },
  ]) as [string, string];
  seedRepository(server, publicProject.id, [{ message: "Public\n", files: { "README.md": "# Public\n" } }]);
  await api({ method: "PUT", path: `/projects/${project.id}`, json: { default_branch: "master" } });
  await post(`/projects/${project.id}/repository/tags`, { tag_name: "v1.0", ref: "master" });
  await post(`/projects/${project.id}/repository/tags`, { tag_name: "v0.9", ref: c1 });

  for (const [who, level] of [[user, 30], ...spareUsers.map((spare) => [spare, 20] as const)] as const) {
    await post(`/projects/${project.id}/members`, { user_id: who.id, access_level: level });
    await post(`/groups/${group.id}/members`, { user_id: who.id, access_level: level });
  }
  await post(`/projects/${spareProjects[0]?.id}/share`, { group_id: group.id, group_access: 30 });

  const labels = [await post(`/projects/${project.id}/labels`, { name: "bug", color: "#ff0000" })];
  labels.push(await post(`/projects/${project.id}/labels`, { name: "spare-label", color: "#00ff00" }));
  const milestone = await post(`/projects/${project.id}/milestones`, { title: "v1" });
  const spareMilestone = await post(`/projects/${project.id}/milestones`, { title: "v2" });
  const issueFields = { labels: "bug", milestone_id: milestone.id, assignee_id: user.id };
  const issue = await post(`/projects/${project.id}/issues`, { title: "fuzz issue", ...issueFields });
  const spareIssues = [
    await post(`/projects/${project.id}/issues`, { title: "spare issue 1", ...issueFields }),
    await post(`/projects/${project.id}/issues`, { title: "spare issue 2" }),
  ];
  const mergeRequest = await post(`/projects/${project.id}/merge_requests`, {
    source_branch: "feature",
    target_branch: "master",
    title: "fuzz merge request",
    assignee_id: user.id,
  });
  const spareMergeRequest = await post(`/projects/${project.id}/merge_requests`, {
    source_branch: "spare-branch",
    target_branch: "master",
    title: "spare merge request",
  });
  const issueNotes = `/projects/${project.id}/issues/${issue.id}/notes`;
  const mergeRequestNotes = `/projects/${project.id}/merge_requests/${mergeRequest.id}/notes`;
  const notes = [
    await post(issueNotes, { body: "a note @fuzzer" }),
    await post(mergeRequestNotes, { body: "a note" }),
  ];
  const spareNotes = [
    await post(issueNotes, { body: "spare" }),
    await post(mergeRequestNotes, { body: "spare" }),
  ];
  const hook = await post(`/projects/${project.id}/hooks`, { url: "http://kiln-fuzz.invalid/hook" });
  const spareHook = await post(`/projects/${project.id}/hooks`, { url: "http://kiln-fuzz.invalid/spare" });
  const key = await post("/user/keys", { title: "fuzz key", key: sshPublicKey("fuzz@kiln") }, user.token);
  const spareKey = await post(
    "/user/keys",
    { title: "spare key", key: sshPublicKey("spare@kiln") },
    user.token,
  );
  await post(`/projects/${project.id}/issues/${issue.id}/todo`, {});
  await post(`/projects/${project.id}/star`, {}, user.token);
  const todos = await api<{ id: number }[]>({ path: "/todos", token: user.token });
  const uploads = [
    await upload(project.id, "root/fuzz-project"),
    await upload(publicProject.id, "fuzzer/fuzz-public"),
  ];
  const namespaces = await api<{ id: number }[]>({ path: "/namespaces" });
  const tree = await api<{ id: string; type: string }[]>({ path: `/projects/${project.id}/repository/tree` });
  const blobs = tree.filter((entry) => entry.type === "blob").map((entry) => entry.id);

  const ids = (objects: { id: number }[]) => objects.map((object) => object.id);
  return {
    adminToken: root.token,
    userToken: user.token,
    usernames: ["root", "fuzzer", "fuzz-spare-1", "fuzz-spare-2"],
    pools: {
      project: {
        kept: [project.id, "root/fuzz-project", publicProject.id, grouped.id],
        expendable: ids(spareProjects),
        main: 2,
      },
      user: { kept: [root.id, user.id, "fuzzer"], expendable: ids(spareUsers) },
      group: { kept: [group.id, "fuzz-group"], expendable: [spareGroup.id], main: 2 },
      namespace: { kept: ids(namespaces), expendable: [] },
      issue: { kept: [issue.id], expendable: ids(spareIssues) },
      mergeRequest: { kept: [mergeRequest.id], expendable: [spareMergeRequest.id] },
      note: { kept: ids(notes), expendable: ids(spareNotes) },
      label: { kept: [labels[0]?.id ?? 0, "bug"], expendable: [labels[1]?.id ?? 0, "spare-label"] },
      milestone: { kept: [milestone.id], expendable: [spareMilestone.id] },
      hook: { kept: [hook.id], expendable: [spareHook.id] },
      key: { kept: [key.id], expendable: [spareKey.id] },
      todo: { kept: [], expendable: ids(todos) },
      branch: { kept: ["master", "topic/slash"], expendable: ["feature", "spare-branch"] },
      tag: { kept: ["v1.0"], expendable: ["v0.9"] },
      sha: { kept: [c2, c2.slice(0, 8), "master", "feature", "v1.0"], expendable: [c1] },
      blob: { kept: blobs, expendable: [] },
      file: { kept: ["README.md", "docs/a.md", "feature.txt"], expendable: ["new.txt"] },
    },
    repositories: [
      { namespace: "root", project: "fuzz-project" },
      { namespace: "fuzzer", project: "fuzz-public" },
    ],
    uploads,
  };

  async function namespaceOf(path: string): Promise<number> {
    const found = await api<{ id: number; path: string }[]>({ path: "/namespaces", query: { search: path } });
    const namespace = found.find((candidate) => candidate.path === path);
    if (!namespace) throw new Error(`fuzz fixture: no namespace ${path}`);
    return namespace.id;
  }

  async function upload(projectId: number, pathWithNamespace: string): Promise<string> {
    const form = new FormData();
    form.append("file", new Blob([Buffer.from("\x89PNG\r\n\x1a\nfuzz")]), "fuzz.png");
    const res = await fetch(`${server.url}/api/v3/projects/${projectId}/uploads`, {
      method: "POST",
      body: form,
      headers: { "PRIVATE-TOKEN": root.token },
    });
    const body = (await res.json()) as { url?: string };
    if (res.status !== 201 || !body.url) throw new Error(`fuzz fixture: upload: ${res.status}`);
    return `/${pathWithNamespace}${body.url}`;
  }
}
