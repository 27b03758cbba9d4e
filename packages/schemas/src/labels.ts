import { labelColorProblem, labelTitleProblem } from "@kiln/domain";
import { z } from "zod";
import { requireOneOf } from "./issuables.js";
import { Id, ruled, StoredInt } from "./primitives.js";
import { ProjectRef } from "./projects.js";

// ---------------------------------------------------------------------------------------- input

/** A label colour: `#` and 3 or 6 hex digits, as GitLab's colour validator allows. */
export const LabelColor = ruled(labelColorProblem);

const NonNegativePriority = StoredInt.min(0, { error: "must be greater than or equal to 0" });

/**
 * A label priority as sent: an integer of 0 or more, or `""` / null to remove it (a query string
 * cannot send null, and the decoder drops empty numbers, so the string form is read here).
 */
export const LabelPriority = z.union([
  NonNegativePriority,
  z
    .string()
    .regex(/^\s*\d*\s*$/, { error: "is not a number" })
    .transform((value) => (value.trim() === "" ? null : Number(value)))
    .pipe(NonNegativePriority.nullable()),
  z.null(),
]);
export type LabelPriority = z.output<typeof LabelPriority>;

/**
 * Checks a label title named by `key` and reports problems under `title`, the attribute GitLab's
 * validation messages use, instead of under the parameter's own name.
 */
function titled<S extends z.ZodObject>(schema: S, key: "name" | "new_name"): S {
  return schema.superRefine(
    (input, ctx) => {
      const title = (input as Record<string, unknown>)[key];
      if (typeof title !== "string") return;
      const message = labelTitleProblem(title);
      if (message) ctx.addIssue({ code: "custom", path: ["title"], message });
    },
    // Also when other fields failed, so that every field's problem is reported at once.
    { when: (payload) => typeof (payload.value as Record<string, unknown> | undefined)?.[key] === "string" },
  );
}

/** `GET /projects/:id/labels`: not paginated, ordered by title. */
export const ListLabelsInput = z.object({ id: ProjectRef });
export type ListLabelsInput = z.infer<typeof ListLabelsInput>;

/** `POST /projects/:id/labels` (reporters and above): the title must be new in the project. */
export const CreateLabelInput = titled(
  z.object({
    id: ProjectRef,
    name: z.string(),
    color: LabelColor,
    description: z.string().nullable().optional(),
    priority: LabelPriority.optional(),
  }),
  "name",
);
export type CreateLabelInput = z.infer<typeof CreateLabelInput>;

/**
 * `PUT /projects/:id/labels`: the label is named by its current `name`, not by an id in the path,
 * and at least one change must be asked for. An empty `priority` removes the priority.
 */
export const UpdateLabelInput = titled(
  requireOneOf(
    z.object({
      id: ProjectRef,
      name: z.string().min(1),
      new_name: z.string().optional(),
      color: LabelColor.optional(),
      description: z.string().nullable().optional(),
      priority: LabelPriority.optional(),
    }),
    ["new_name", "color", "description", "priority"],
  ),
  "new_name",
);
export type UpdateLabelInput = z.infer<typeof UpdateLabelInput>;

/** `DELETE /projects/:id/labels`: by name, as GitLab 8.x's route has no label id. */
export const DeleteLabelInput = z.object({ id: ProjectRef, name: z.string().min(1) });
export type DeleteLabelInput = z.infer<typeof DeleteLabelInput>;

/**
 * A label named in a path (`:label_id` of the subscription routes): its id or its title. A path
 * segment arrives as a string, so digits-only strings are ids, as with project references.
 */
export const LabelRef = z.union([Id, z.string().min(1)]);
export type LabelRef = z.infer<typeof LabelRef>;

/** `POST` and `DELETE /projects/:id/labels/:label_id/subscription`. */
export const LabelSubscriptionInput = z.object({ id: ProjectRef, label_id: LabelRef });
export type LabelSubscriptionInput = z.infer<typeof LabelSubscriptionInput>;

// --------------------------------------------------------------------------------------- output

/**
 * A label (GitLab 8.15). The counts are of what the caller may read (confidential issues are left
 * out), open meaning opened or reopened; `subscribed` is the caller's own subscription.
 */
export const LabelJson = z.object({
  id: Id,
  name: z.string(),
  color: z.string(),
  description: z.string().nullable(),
  open_issues_count: z.number().int().min(0),
  closed_issues_count: z.number().int().min(0),
  open_merge_requests_count: z.number().int().min(0),
  priority: z.number().int().nullable(),
  subscribed: z.boolean(),
});
export type LabelJson = z.infer<typeof LabelJson>;
