import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/** The client bundled as an extension bundles it: everything inlined, for Node. */
async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("./index.ts", import.meta.url))],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@kiln/source"],
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles.map((file) => file.text).join("\n");
}

describe("the client's bundle", () => {
  it("holds the client and no server code: no database driver, query builder, hashing or use case", async () => {
    const code = await bundle();
    expect(code).toContain("createKilnClient");
    for (const server of [
      "better-sqlite3",
      "kysely",
      'from "pg"',
      'require("pg")',
      "@node-rs/argon2",
      "publicRouter",
      "appRouter",
      "initTRPC",
      "ServiceRuntime",
    ]) {
      expect(code, server).not.toContain(server);
    }
  });
});
