import { v3Routes } from "@kiln/rest-adapter";
import { beforeAll, expect, it } from "vitest";
import { runCampaign } from "./fuzz/campaign.js";
import { seedFixture } from "./fuzz/fixture.js";
import type { FuzzTarget } from "./fuzz/generate.js";
import { randomSeed } from "./fuzz/prng.js";
import { campaignReport } from "./fuzz/report.js";
import { routeShapes } from "./fuzz/route-shapes.js";
import { fuzzServerOf } from "./fuzz/server.js";
import { onEachDatabase } from "./support.js";

/** Always run, so that what it found once is checked on every run. */
const FIXED_SEED = 0x6b696c6e;
/** New on every run (or `KILN_FUZZ_SEED`), so that runs together cover more than one sequence. */
const RUN_SEED = Number(process.env["KILN_FUZZ_SEED"] ?? randomSeed()) >>> 0;
/**
 * Per seed and database: about 10 s on the 2-core machine when quiet, 20–30 s under the load of
 * other test runs (so 30–60 s per database with the fixture). `bench/fuzz.mjs` runs more.
 */
const REQUESTS = Number(process.env["KILN_FUZZ_REQUESTS"] ?? 800);
/** Trait prefixes not to send (`KILN_FUZZ_EXCLUDE=multipart:unnamed-part,…`): none unless asked. */
const EXCLUDE = (process.env["KILN_FUZZ_EXCLUDE"] ?? "").split(",").filter((trait) => trait !== "");

console.log(
  `fuzz seeds: fixed ${FIXED_SEED}, this run ${RUN_SEED} (run it again with KILN_FUZZ_SEED=${RUN_SEED})`,
);

onEachDatabase("fuzzed requests on every route family", (ctx) => {
  let target: FuzzTarget;
  beforeAll(async () => {
    target = { fixture: await seedFixture(ctx().server, ctx().root), routes: routeShapes(v3Routes) };
  }, 120_000);

  for (const [label, seed] of [
    ["the fixed seed", FIXED_SEED],
    ["this run's seed", RUN_SEED],
  ] as const) {
    it(`answers ${REQUESTS} fuzzed requests of ${label} (${seed}) without a 5xx, and stays up`, async () => {
      const { server } = ctx();
      const watched = fuzzServerOf(server);
      const result = await runCampaign({
        server: watched,
        target,
        seed,
        requests: REQUESTS,
        exclude: EXCLUDE,
      });
      const report = campaignReport(result);
      console.log(report.split("\n", 1)[0]);
      expect(
        {
          broken: result.broken?.detail ?? null,
          failures: result.failures.length,
          loggedErrors: result.loggedErrors.length,
        },
        report,
      ).toEqual({ broken: null, failures: 0, loggedErrors: 0 });
    }, 600_000);
  }
});
