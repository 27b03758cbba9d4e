// Bundles the server into dist/main.js (ESM). Native addons stay external and load from node_modules.
import { chmod } from "node:fs/promises";
import { build } from "esbuild";

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/main.js",
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
await chmod("dist/main.js", 0o755);
