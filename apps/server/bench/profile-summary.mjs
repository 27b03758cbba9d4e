// Where a Kiln server's CPU went: self time from a V8 .cpuprofile (written by `node --cpu-prof`, e.g.
// with BENCH_PROFILE=1), grouped by source package through dist/main.js.map, plus the top functions.
// Usage: node bench/profile-summary.mjs <file.cpuprofile> [top=25]
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8"));
// The bundle that was profiled: dist/main.js, or BENCH_KILN_MAIN as for run.mjs.
const bundle = process.env.BENCH_KILN_MAIN
  ? resolve(process.env.BENCH_KILN_MAIN)
  : fileURLToPath(new URL("../dist/main.js", import.meta.url));
const mapFile = `${bundle}.map`;
const sourceMap = new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")));

/** The package a source file belongs to: node_modules/<pkg>, packages/<name> or apps/server. */
function packageOf(source) {
  const nm = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (nm) return nm[1];
  const ws = /(packages\/[^/]+|apps\/[^/]+)\//.exec(source);
  return ws ? ws[1] : source;
}

/** Where a call frame's code came from: the original source for the bundle, the URL otherwise. */
function locate({ functionName, url, lineNumber, columnNumber }) {
  const name = functionName || "(anonymous)";
  if (url.endsWith(bundle)) {
    // An empty object where nothing maps.
    const entry = /** @type {Partial<import("node:module").SourceMapping>} */ (
      sourceMap.findEntry(lineNumber, columnNumber)
    );
    if (entry?.originalSource) {
      const source = entry.originalSource.replace(/^.*?(node_modules|packages|apps)\//, "$1/");
      return { group: packageOf(source), name: `${name} ${source}:${(entry.originalLine ?? 0) + 1}` };
    }
    return { group: "main.js (unmapped)", name };
  }
  if (url.startsWith("node:"))
    return { group: "node internals (JS)", name: `${name} ${url}:${lineNumber + 1}` };
  if (url === "") return { group: name.startsWith("(") ? name : "native / builtins", name };
  return {
    group: url.includes("node_modules") ? packageOf(url) : url,
    name: `${name} ${url}:${lineNumber + 1}`,
  };
}

// Self time per node: each sample is attributed to the node that was on top of the stack.
const selfUs = new Map();
const deltas = profile.timeDeltas ?? [];
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0));
});

// Total (inclusive) time per function: each sample counts once for every distinct function on its stack.
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const names = new Map(profile.nodes.map((node) => [node.id, locate(node.callFrame).name]));
const inclusive = new Map();
profile.samples.forEach((id, i) => {
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) seen.add(names.get(at));
  for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + (deltas[i] ?? 0));
});

const byGroup = new Map();
const byFunction = new Map();
let total = 0;
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  const { group, name } = locate(node.callFrame);
  total += us;
  byGroup.set(group, (byGroup.get(group) ?? 0) + us);
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
}

const idle = byGroup.get("(idle)") ?? 0;
const busy = total - idle;
const print = (title, map, limit) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    if (key === "(idle)") continue;
    console.log(
      `${((100 * us) / busy).toFixed(1).padStart(6)} %  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${key}`,
    );
  }
};
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (percentages of busy)`,
);
print("self time by package", byGroup, 30);
print(`top ${top} functions by self time`, byFunction, top);
const structural =
  /^\((root|program|idle|garbage collector)\)|^processTicksAndRejections|^runMicrotasks|^\(anonymous\)$/;
const kept = new Map([...inclusive].filter(([name]) => !structural.test(name)));
print(`top ${top} functions by total (inclusive) time`, kept, top);
