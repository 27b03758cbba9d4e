import { z } from "zod";
import { requireOneOf } from "./issuables.js";
import { PaginationParams } from "./pagination.js";
import { Id } from "./primitives.js";
import { ProjectRef } from "./projects.js";

// GitLab 8.x's `/runners` and `/projects/:id/runners` (lib/api/runners.rb).

/** The `scope` of a user's runners (`GET /runners`). */
export const OwnRunnerScope = z.enum(["active", "paused", "online"]);

/** The `scope` of every runner (`GET /runners/all`) or of a project's (`GET /projects/:id/runners`). */
export const RunnerScope = z.enum(["active", "paused", "online", "specific", "shared"]);
export type RunnerScope = z.infer<typeof RunnerScope>;

/** `GET /runners`. */
export const ListOwnRunnersInput = PaginationParams.extend({ scope: OwnRunnerScope.optional() });
export type ListOwnRunnersInput = z.infer<typeof ListOwnRunnersInput>;

/** `GET /runners/all`. */
export const ListAllRunnersInput = PaginationParams.extend({ scope: RunnerScope.optional() });
export type ListAllRunnersInput = z.infer<typeof ListAllRunnersInput>;

/** Routes that name one runner. */
export const RunnerRefInput = z.object({ id: Id });
export type RunnerRefInput = z.infer<typeof RunnerRefInput>;

/** `PUT /runners/:id`: at least one of the settings. */
export const UpdateRunnerInput = requireOneOf(
  z.object({
    id: Id,
    description: z.string().optional(),
    active: z.boolean().optional(),
    tag_list: z.array(z.string()).optional(),
    run_untagged: z.boolean().optional(),
    locked: z.boolean().optional(),
  }),
  ["description", "active", "tag_list", "run_untagged", "locked"],
);
export type UpdateRunnerInput = z.infer<typeof UpdateRunnerInput>;

/** `GET /projects/:id/runners`. */
export const ListProjectRunnersInput = PaginationParams.extend({
  id: ProjectRef,
  scope: RunnerScope.optional(),
});
export type ListProjectRunnersInput = z.infer<typeof ListProjectRunnersInput>;

/** `POST /projects/:id/runners` and `DELETE /projects/:id/runners/:runner_id`. */
export const ProjectRunnerInput = z.object({ id: ProjectRef, runner_id: Id });
export type ProjectRunnerInput = z.infer<typeof ProjectRunnerInput>;
