import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Several processes must race on one data dir, so the module under test is bundled for plain
// `node` children.
const work = mkdtempSync(join(tmpdir(), "kiln-secret-key-"));
const bundle = join(work, "data-dir.mjs");

beforeAll(async () => {
  await build({
    entryPoints: [fileURLToPath(new URL("../src/data-dir.ts", import.meta.url))],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "esm",
    logLevel: "warning",
  });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Says "ready", waits for a line on stdin, then loads or creates the key and prints it.
const CHILD = `
const [modulePath, dataDir] = process.argv.slice(1);
const { loadOrCreateSecretKey } = await import(modulePath);
process.stdout.write("ready\\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
try {
  process.stdout.write(loadOrCreateSecretKey(dataDir).toString("base64") + "\\n");
} catch (error) {
  process.stdout.write("failed: " + error.message + "\\n");
}
`;

interface Child {
  ready: Promise<void>;
  go(): void;
  /** The key it printed, or the error it failed with. */
  result: Promise<string>;
}

function startChild(dataDir: string): Child {
  const child: ChildProcess = spawn(process.execPath, ["--input-type=module", "-e", CHILD, bundle, dataDir], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    if (line === "ready") markReady();
    else lines.push(line);
  });
  const result = new Promise<string>((resolve) => {
    child.once("exit", (code) => {
      markReady(); // a child that failed early must not hold the others back
      resolve(code === 0 ? (lines[0] ?? "") : `exit ${code}: ${stderr}`);
    });
  });
  return { ready, go: () => child.stdin?.end("go\n"), result };
}

describe("secret.key", () => {
  it("several processes starting at once on an empty data dir all end with the one key on disk", async () => {
    for (let round = 0; round < 3; round++) {
      const dataDir = mkdtempSync(join(work, "data-"));
      const children = Array.from({ length: 5 }, () => startChild(dataDir));
      await Promise.all(children.map((child) => child.ready));
      for (const child of children) child.go();
      const keys = await Promise.all(children.map((child) => child.result));

      const onDisk = readFileSync(join(dataDir, "secret.key"), "utf8").trim();
      expect(Buffer.from(onDisk, "base64")).toHaveLength(32);
      expect(keys).toEqual(children.map(() => onDisk));
      expect(statSync(join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);
      // Whoever lost the race left nothing behind.
      expect(readdirSync(dataDir)).toEqual(["secret.key"]);
    }
  });
});
