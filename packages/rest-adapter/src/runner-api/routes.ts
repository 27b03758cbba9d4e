import { artifactRoutes } from "./artifacts.js";
import { buildRoutes } from "./builds.js";
import type { RunnerRoute } from "./route.js";
import { runnerRegistrationRoutes } from "./runners.js";

/** The whole `/ci/api/v1` table. */
export const runnerRoutes: readonly RunnerRoute[] = [
  ...runnerRegistrationRoutes,
  ...buildRoutes,
  ...artifactRoutes,
];
