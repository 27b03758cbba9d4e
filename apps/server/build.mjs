// Bundles the server into dist/main.js (ESM). Native addons stay external and load from node_modules.
import { chmod } from "node:fs/promises";
import { build } from "esbuild";

// KILN_BUILD_OUT lets parallel work bundle to its own file (tests then read KILN_SERVER_ENTRY).
const outfile = process.env.KILN_BUILD_OUT ?? "dist/main.js";

await build({
  entryPoints: ["src/main.ts"],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  conditions: ["@kiln/source"],
  external: ["better-sqlite3", "@node-rs/argon2", "pg-native"],
  // CommonJS dependencies (pg, pino) call require(); give the ESM bundle one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __kilnCreateRequire } from 'node:module';\nconst require = __kilnCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
await chmod(outfile, 0o755);
