import { z } from "zod";
import { PaginationParams } from "./pagination.js";
import { ProjectRef } from "./projects.js";

// GitLab 8.x's build triggers (lib/api/triggers.rb).

/** `GET /projects/:id/triggers`. */
export const ListTriggersInput = PaginationParams.extend({ id: ProjectRef });
export type ListTriggersInput = z.infer<typeof ListTriggersInput>;

/** `POST /projects/:id/triggers`. */
export const CreateTriggerInput = z.object({ id: ProjectRef });
export type CreateTriggerInput = z.infer<typeof CreateTriggerInput>;

/** Routes that name one trigger of a project by its token. */
export const TriggerRefInput = z.object({ id: ProjectRef, token: z.string().min(1) });
export type TriggerRefInput = z.infer<typeof TriggerRefInput>;

/**
 * `POST /projects/:id/trigger/builds` (and `…/ref/:ref/trigger/builds`): the trigger's token, the
 * branch or tag to build, and variables handed to the builds (`variables[KEY]=value`). Values that
 * are not strings are refused by the operation, with 8.x's wording.
 */
export const TriggerBuildsInput = z.object({
  id: ProjectRef,
  ref: z.string().min(1),
  token: z.string().min(1),
  variables: z.record(z.string(), z.unknown()).optional(),
});
export type TriggerBuildsInput = z.infer<typeof TriggerBuildsInput>;
