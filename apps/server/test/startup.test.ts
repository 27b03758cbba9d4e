import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createThrowawayPostgres, TEST_PG_URL_ENV } from "@kiln/storage-kysely/testing";
import { call, postgresUnavailable, signIn } from "@kiln/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { ENTRY, runKiln, start } from "./support.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "kiln-startup-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("first start", () => {
  // How fast it gets there is the benchmark's to say (`bench: first start answered in … ms`).
  it("answers GET /user without a token with 401 once listening", async () => {
    const server = await start();
    try {
      const res = await call(server.url, { path: "/user" });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "401 Unauthorized" });
      expect(res.headers.get("content-type")).toBe("application/json");
    } finally {
      await server.stop();
    }
  });

  it("creates root with KILN_ROOT_PASSWORD once; later starts leave root alone", async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir, env: { KILN_ROOT_PASSWORD: "first-password" } });
    const root = await signIn(first, "root", "first-password");
    const me = await call<Record<string, unknown>>(first.url, { path: "/user", token: root.token });
    expect(me.body).toMatchObject({
      username: "root",
      name: "Administrator",
      email: "admin@example.com",
      is_admin: true,
    });
    expect(await first.stop({ remove: false })).toBe(0);

    const second = await start({ dataDir, env: { KILN_ROOT_PASSWORD: "second-password" } });
    try {
      await expect(signIn(second, "root", "second-password")).rejects.toThrow(/401/);
      expect((await signIn(second, "root", "first-password")).token).toBe(root.token);
      expect(second.logs.some((line) => String(line["msg"]).includes("created the administrator"))).toBe(
        false,
      );
    } finally {
      await second.stop({ remove: false });
    }
  });

  it("without KILN_ROOT_PASSWORD prints a generated password once, and it works", async () => {
    const dataDir = tempDir();
    const server = await start({ dataDir, env: { KILN_ROOT_PASSWORD: "" } });
    try {
      const line = server.logs.find(
        (entry) => entry["msg"] === "created the administrator; this password is shown once",
      );
      const password = line?.["password"];
      expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect((await signIn(server, "root", password as string)).username).toBe("root");
    } finally {
      await server.stop({ remove: false });
    }
  });
});

describe("shutdown", () => {
  it("on SIGTERM finishes the request in flight, exits 0 and closes the database cleanly", async () => {
    const server = await start();
    // A sign-in whose body is still arriving when SIGTERM lands.
    const body = JSON.stringify({ login: "root", password: server.rootPassword });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${server.url}/api/v3/session`,
        {
          method: "POST",
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => {
            text += chunk.toString();
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 5));
      setTimeout(() => {
        server.process.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(5)), 300);
      }, 200);
    });
    const answered = await response;
    expect(answered.status).toBe(201);
    expect(JSON.parse(answered.text)).toHaveProperty("private_token");
    const code = await server.stop({ remove: false });
    expect(code).toBe(0);
    // A clean close checkpoints the WAL into the database file and removes it.
    expect(existsSync(join(server.dataDir, "kiln.sqlite-wal"))).toBe(false);
    expect(existsSync(join(server.dataDir, "kiln.sqlite"))).toBe(true);
    rmSync(server.dataDir, { recursive: true, force: true });
  });
});

describe("bad configuration", () => {
  it.each([
    [{ PORT: "eighty" }, /^kiln: PORT must be a number from 0 to 65535, got "eighty"\n$/],
    [{ DATABASE_URL: "mysql://localhost/kiln" }, /^kiln: DATABASE_URL must be a postgres:\/\/ URL/],
    [{ KILN_BASE_URL: "not a url" }, /^kiln: KILN_BASE_URL must be an absolute http\(s\) URL/],
    [{ KILN_ROOT_PASSWORD: "short" }, /^kiln: KILN_ROOT_PASSWORD must be at least 8 characters\n$/],
    [{ KILN_SQLITE_SYNCHRONOUS: "SOMETIMES" }, /^kiln: KILN_SQLITE_SYNCHRONOUS must be FULL or NORMAL/],
    [{ KILN_WORKERS: "sometimes" }, /^kiln: KILN_WORKERS must be on or off, got "sometimes"\n$/],
    [{ KILN_EMBEDDED_RUNNER: "yes" }, /^kiln: KILN_EMBEDDED_RUNNER must be on or off, got "yes"\n$/],
    [
      { KILN_RUNNER_WAIT_SECONDS: "forever" },
      /^kiln: KILN_RUNNER_WAIT_SECONDS must be a number from 0 to 300/,
    ],
    [{ KILN_CI_SWEEP_SECONDS: "0" }, /^kiln: KILN_CI_SWEEP_SECONDS must be a positive number of seconds/],
    [{ KILN_CI_STUCK_SECONDS: "a day" }, /^kiln: KILN_CI_STUCK_SECONDS must be a positive number of seconds/],
  ])("%j fails at start with one line", async (env, message) => {
    const { code, stderr, stdout } = await runKiln(["serve"], { KILN_DATA_DIR: tempDir(), ...env });
    expect(code).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stdout).toBe("");
  });

  it("an unreachable PostgreSQL fails at start with one line", async () => {
    const { code, stderr } = await runKiln(["serve"], {
      KILN_DATA_DIR: tempDir(),
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/kiln",
    });
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^kiln: /);
  });
});

describe.skipIf(postgresUnavailable() !== null)("a start that fails after opening PostgreSQL", () => {
  it("closes the database and exits as soon as it says why (not after the pool's idle timeout)", async () => {
    const database = await createThrowawayPostgres(process.env[TEST_PG_URL_ENV] as string);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "0.0.0.0", resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const child = spawn(process.execPath, [ENTRY, "serve"], {
        env: { ...process.env, KILN_DATA_DIR: tempDir(), DATABASE_URL: database.url, PORT: String(port) },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let said = 0;
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        said ||= performance.now();
      });
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      const lingered = performance.now() - said;
      expect(code).toBe(1);
      expect(stderr).toMatch(/^kiln: listen EADDRINUSE/);
      // An open pg pool kept the process 10 s after its last line; closed, it ends at once.
      expect(lingered).toBeLessThan(5_000);
    } finally {
      taken.close();
      await database.drop();
    }
  });
});
