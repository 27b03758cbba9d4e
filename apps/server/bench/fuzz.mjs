// The larger fuzz run (the test suite runs a small one: test/fuzz.test.ts). Usage: bench/README.md.
//   node bench/fuzz.mjs [--seed N] [--requests N] [--database sqlite|postgres|both]
//                       [--exclude trait,trait] [--concurrency N] [--replay INDEX] [--examples N] [--by-route]
// The fuzzer is TypeScript (test/fuzz/); it is bundled here with esbuild, as build.mjs bundles the server.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { MAIN_JS } from "./lib/servers.mjs";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const RESULTS_DIR = join(BENCH_DIR, "results");

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    requests: { type: "string", default: "20000" },
    database: { type: "string", default: "sqlite" },
    exclude: { type: "string", default: "" },
    concurrency: { type: "string", default: "4" },
    replay: { type: "string" },
    examples: { type: "string", default: "1" },
    "by-route": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (values.help) {
  console.log(`usage: node bench/fuzz.mjs [options]   (after corepack pnpm build)

  --seed N            the run's seed (default: a random one, printed)
  --requests N        requests per database (default 20000)
  --database D        sqlite, postgres or both (default sqlite; postgres needs KILN_TEST_PG_URL)
  --exclude A,B       leave out requests carrying these traits (e.g. multipart:unnamed-part)
  --concurrency N     requests in flight at once (default 4)
  --replay I          send only request I of the seed, and show it
  --examples N        example requests shown per failing route and status (default 1)
  --by-route          also summarise every answer per route
  -h, --help          this text`);
  process.exit(0);
}
const databases = values.database === "both" ? ["sqlite", "postgres"] : [values.database];
if (!databases.every((database) => database === "sqlite" || database === "postgres")) {
  throw new Error(`--database: sqlite, postgres or both, not ${values.database}`);
}
if (databases.includes("postgres") && !process.env.KILN_TEST_PG_URL) {
  throw new Error(
    "--database postgres needs KILN_TEST_PG_URL (a PostgreSQL server the run may create databases on)",
  );
}

mkdirSync(RESULTS_DIR, { recursive: true });
const bundle = join(RESULTS_DIR, "fuzz-bundle.mjs");
await build({
  entryPoints: [join(BENCH_DIR, "..", "test", "fuzz", "bench.ts")],
  outfile: bundle,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  conditions: ["@kiln/source"],
  external: ["better-sqlite3", "@node-rs/argon2", "pg-native"],
  banner: {
    js: "import { createRequire as __kilnCreateRequire } from 'node:module';\nconst require = __kilnCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
const { runFuzzBench } = await import(pathToFileURL(bundle).href);

const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 32) : Number(values.seed) >>> 0;
process.exitCode = await runFuzzBench({
  entry: MAIN_JS,
  seed,
  requests: Number(values.requests),
  databases,
  exclude: values.exclude
    .split(",")
    .map((trait) => trait.trim())
    .filter((trait) => trait !== ""),
  concurrency: Number(values.concurrency),
  replay: values.replay === undefined ? null : Number(values.replay),
  examples: Number(values.examples),
  byRoute: values["by-route"],
  print: (text) => console.log(text),
});
