// Seeds a running Kiln server through its v3 API and real git pushes, as people would: a developer
// "dev" opens an issue and a merge request in root's project "widgets" and assigns both to root
// (two todos for root). The workspace folder is a clone on the merge request's branch. Prints the
// test's configuration as JSON. usage: node seed.mjs BASE_URL WORKSPACE_DIR
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [base, workspace] = process.argv.slice(2);
const PASSWORD = "password123";

async function api(method, path, token, body, retried = false) {
  let response;
  try {
    response = await fetch(`${base}/api/v3${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { "PRIVATE-TOKEN": token } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    // An idle keep-alive connection the server closed as the request went out (after the pushes):
    // nothing was handled; send it again on a new one.
    if (retried || error?.cause?.code !== "UND_ERR_SOCKET") throw error;
    return api(method, path, token, body, true);
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

const git = (args, extra = {}) =>
  execFileSync("git", args, {
    cwd: workspace,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Dev",
      GIT_AUTHOR_EMAIL: "dev@example.com",
      GIT_COMMITTER_NAME: "Dev",
      GIT_COMMITTER_EMAIL: "dev@example.com",
      ...extra,
    },
    stdio: ["ignore", "pipe", "pipe"],
  }).toString();

const root = await api("POST", "/session", null, { login: "root", password: PASSWORD });
const devUser = await api("POST", "/users", root.private_token, {
  username: "dev",
  email: "dev@example.com",
  name: "Dee Veloper",
  password: PASSWORD,
});
const dev = await api("POST", "/session", null, { login: "dev", password: PASSWORD });
const project = await api("POST", "/projects", root.private_token, { name: "widgets" });
await api("POST", `/projects/${project.id}/members`, root.private_token, {
  user_id: devUser.id,
  access_level: 30,
});

// The workspace: a repository whose origin is the project, pushed over HTTP as dev.
mkdirSync(join(workspace, "src"), { recursive: true });
const basic = `Authorization: Basic ${Buffer.from(`dev:${PASSWORD}`).toString("base64")}`;
git(["init", "-q", "-b", "master"]);
git(["config", "http.extraHeader", basic]);
git(["remote", "add", "origin", project.http_url_to_repo]);
writeFileSync(join(workspace, "README.md"), "# Widgets\n");
writeFileSync(join(workspace, "src/parse.ts"), 'export const parse = (text: string) => text.split(",");\n');
git(["add", "-A"]);
git(["commit", "-q", "-m", "Initial"]);
git(["push", "-q", "-u", "origin", "master"]);
git(["checkout", "-q", "-b", "feature"]);
writeFileSync(
  join(workspace, "src/parse.ts"),
  'export const parse = (text: string) => text.split(",").map((part) => part.trim());\n',
);
writeFileSync(join(workspace, "src/parse.test.ts"), 'import { parse } from "./parse";\nparse("a, b");\n');
git(["add", "-A"]);
git(["commit", "-q", "-m", "Trim the parts"]);
git(["push", "-q", "-u", "origin", "feature"]);

const issue = await api("POST", `/projects/${project.id}/issues`, dev.private_token, {
  title: "Fix the flaky parser",
  assignee_id: root.id,
});
const mr = await api("POST", `/projects/${project.id}/merge_requests`, dev.private_token, {
  source_branch: "feature",
  target_branch: "master",
  title: "Trim the parsed parts",
  assignee_id: root.id,
});
const todos = await api("GET", "/todos", root.private_token);
if (todos.length !== 2) throw new Error(`root should have 2 todos, has ${todos.length}`);
process.stdout.write(
  JSON.stringify({
    base,
    rootPrivateToken: root.private_token,
    devPrivateToken: dev.private_token,
    projectId: project.id,
    issue,
    mr,
    head: mr.sha,
  }),
);
