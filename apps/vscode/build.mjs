// Bundles the extension into one CommonJS file, dist/extension.cjs; `vscode` is the host's.
import { build } from "esbuild";

await build({
  entryPoints: ["src/extension.ts"],
  outfile: "dist/extension.cjs",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: true,
  conditions: ["@kiln/source"],
  external: ["vscode"],
  logLevel: "warning",
});
