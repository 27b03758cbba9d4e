import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, signIn } from "@kiln/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runKiln, start } from "./support.js";

describe("kiln --help", () => {
  it("lists the commands, and each command explains its options", async () => {
    const overview = await runKiln(["--help"], {});
    expect(overview.code).toBe(0);
    for (const command of ["serve", "migrate", "user create", "user disable-two-factor", "token create"])
      expect(overview.stdout).toContain(command);
    for (const [args, text] of [
      [["serve", "--help"], "KILN_ROOT_PASSWORD"],
      [["migrate", "--help"], "migrations"],
      [["user", "create", "--help"], "--username"],
      [["token", "create", "--help"], "--user"],
      [["user", "disable-two-factor", "--help"], "--user USERNAME"],
    ] as const) {
      const help = await runKiln([...args], {});
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(text);
    }
  });

  it("refuses an unknown command with the overview", async () => {
    const result = await runKiln(["frobnicate"], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^kiln: unknown command "frobnicate"/);
  });
});

describe("operator commands on a data dir", () => {
  let dataDir: string;
  const env = () => ({ KILN_DATA_DIR: dataDir, KILN_ROOT_PASSWORD: "operator-password" });

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "kiln-cli-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("migrate creates the database and is idempotent", async () => {
    expect(await runKiln(["migrate"], env())).toMatchObject({ code: 0, stdout: "migrations applied\n" });
    expect(await runKiln(["migrate"], env())).toMatchObject({ code: 0 });
  });

  it("user create makes an account, generating a password when none is given", async () => {
    const made = await runKiln(
      ["user", "create", "--username", "alice", "--email", "alice@example.com", "--name", "Alice A"],
      env(),
    );
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^created user alice \(id \d+\)\npassword: [A-Za-z0-9]{20}\n$/);
    const again = await runKiln(
      [
        "user",
        "create",
        "--username",
        "alice",
        "--email",
        "other@example.com",
        "--name",
        "x",
        "--password",
        "password123",
      ],
      env(),
    );
    expect(again).toMatchObject({ code: 1, stderr: "kiln: Username has already been taken\n" });
    const invalid = await runKiln(
      ["user", "create", "--username", "bob", "--email", "nope", "--name", "Bob", "--password", "short"],
      env(),
    );
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^kiln: .*email.*\n$/);
    const missing = await runKiln(["user", "create", "--username", "carol"], env());
    expect(missing).toMatchObject({
      code: 1,
      stderr: "kiln: --email is required (see kiln user create --help)\n",
    });
  });

  it("token create prints a personal access token once, which then authenticates", async () => {
    await runKiln(
      [
        "user",
        "create",
        "--username",
        "dave",
        "--email",
        "dave@example.com",
        "--name",
        "Dave",
        "--password",
        "password123",
      ],
      env(),
    );
    const minted = await runKiln(["token", "create", "--user", "dave", "--name", "laptop"], env());
    expect(minted.code).toBe(0);
    const token = minted.stdout.trim();
    expect(token).toMatch(/^[A-Za-z0-9]{20}$/);
    const server = await start({ dataDir, env: env() });
    try {
      const me = await call<{ username: string }>(server.url, { path: "/user", token });
      expect(me).toMatchObject({ status: 200, body: { username: "dave" } });
      // and a password set on the command line signs in
      expect((await signIn(server, "dave", "password123")).username).toBe("dave");
    } finally {
      await server.stop({ remove: false });
    }
    expect(await runKiln(["token", "create", "--user", "nobody"], env())).toMatchObject({
      code: 1,
      stderr: "kiln: 404 User Not Found\n",
    });
  });
});
