// Plain JS on purpose: Node 20 loads it without a TypeScript loader.
import { defineConfig } from "vitest/config";

/**
 * The shared vitest config. Workspace packages resolve to their TypeScript sources through the
 * `@kiln/source` export condition, so tests never run against a stale `dist/`.
 * Each package writes `.vitest-report.json`, which `.ci/run` sums into its closing line.
 */
// Vite's default server conditions, after ours (vite is not a direct dependency here).
const serverConditions = ["module", "node", "development|production"];

export default defineConfig({
  ssr: { resolve: { conditions: ["@kiln/source", ...serverConditions] } },
  resolve: { conditions: ["@kiln/source"] },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-report.json" },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // What a background worker does is awaited by polling; under CI's load a second is not enough.
    expect: { poll: { timeout: 10_000 } },
  },
});
