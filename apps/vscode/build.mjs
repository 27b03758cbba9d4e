// Bundles the extension into one CommonJS file and stages what ships (the .vsix's content, and the
// folder the end-to-end test loads) in dist/extension/: the bundle, the manifest, the README.
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { build } from "esbuild";

const stage = "dist/extension";
await mkdir(`${stage}/dist`, { recursive: true });
await build({
  entryPoints: ["src/extension.ts"],
  outfile: `${stage}/dist/extension.cjs`,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: "linked",
  conditions: ["@kiln/source"],
  external: ["vscode"],
  logLevel: "warning",
});

// The workspace's package is "@kiln/vscode"; VS Code and vsce take a bare lower-case name, and the
// extension ships with no dependency (everything is in the bundle).
const manifest = JSON.parse(await readFile("package.json", "utf8"));
const { devDependencies: _dev, scripts: _scripts, type: _type, private: _private, ...shipped } = manifest;
await writeFile(`${stage}/package.json`, `${JSON.stringify({ ...shipped, name: "kiln" }, null, 2)}\n`);
await copyFile("README.md", `${stage}/README.md`);
// The source map stays beside the staged bundle for debugging; the .vsix ships without it.
await writeFile(`${stage}/.vscodeignore`, "**/*.map\n");
