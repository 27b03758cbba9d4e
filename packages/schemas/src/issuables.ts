import { z } from "zod";
import { Id, MAX_INTEGER, ShortText } from "./primitives.js";

// Parameters that issues and merge requests (and, for dates and iids, milestones) share, written
// once so that both families decode them the same way.

/**
 * Label names out of a v3 `labels` parameter. GitLab takes one comma-separated string; repeated
 * `labels[]` values are read the same way for clients that send arrays. Names are trimmed, empty
 * ones dropped and repeats removed (first one kept), so `""` is the empty list, which on an edit
 * removes every label while leaving the parameter out keeps them.
 */
export function splitLabels(value: string | readonly string[]): string[] {
  const parts = (typeof value === "string" ? [value] : value).flatMap((item) => item.split(","));
  const names = parts.map((part) => part.trim()).filter((part) => part.length > 0);
  return [...new Set(names)];
}

/** The `labels` parameter: a comma-separated string (or `labels[]`), decoded to label names. */
export const LabelList = z.union([z.string(), z.array(z.string())]).transform(splitLabels);
export type LabelList = z.output<typeof LabelList>;

/**
 * An `iid` filter, one value or several (`iid=5`, `iid[]=5&iid[]=6`): the request decoder wraps a
 * lone value in an array, so the operation always sees a list.
 */
export const IidList = z.array(Id);
export type IidList = z.infer<typeof IidList>;

/** The columns an issue or merge request list may be ordered by; GitLab's default is `created_at`. */
export const IssuableOrderBy = z.enum(["created_at", "updated_at"]);
export type IssuableOrderBy = z.infer<typeof IssuableOrderBy>;

/** The direction of a list's order; GitLab's default for issuables is `desc`, newest first. */
export const SortDirection = z.enum(["asc", "desc"]);
export type SortDirection = z.infer<typeof SortDirection>;

/** The order parameters of every issue and merge request list, with GitLab's defaults filled in. */
export const IssuableOrderParams = {
  order_by: IssuableOrderBy.default("created_at"),
  sort: SortDirection.default("desc"),
};

/**
 * A calendar date parameter (`due_date`, `start_date`), `YYYY-MM-DD`. An empty string or null
 * clears the date, as GitLab's blank value does; anything else that is not a real date is refused
 * rather than silently dropped.
 */
export const DateParam = z
  .union([z.iso.date(), z.literal(""), z.null()])
  .transform((value) => (value === "" ? null : value));
export type DateParam = z.output<typeof DateParam>;

/**
 * A time parameter (`created_at` of a new issue or note, `updated_at` of an edit): ISO 8601, with
 * `Z`, an offset, or no zone (read as UTC), or a bare date. The operation honours it only for
 * administrators and project owners, as GitLab does.
 */
export const TimeParam = z.union([z.iso.datetime({ offset: true, local: true }), z.iso.date()]);
export type TimeParam = z.infer<typeof TimeParam>;

/**
 * `assignee_id` or `milestone_id` as GitLab reads them: null, 0 or an id that names no user (no
 * milestone of the project) leaves the issuable without one rather than failing, so any integer
 * is accepted here and the operation decides. One past the id range names nothing: it becomes
 * null here, as the database could not even look it up.
 */
export const OptionalRefId = z
  .number()
  .int()
  .nullable()
  .transform((id) => (id !== null && id > MAX_INTEGER ? null : id));

/** The title of an issue, merge request or milestone: not blank, at most 255 characters. */
export const IssuableTitle = ShortText.refine((title) => title.trim().length > 0, {
  error: "can't be blank",
});

/**
 * The fields an issue and a merge request both take on create and edit. `labels` names labels of
 * the project; missing ones are created when the caller may administer labels.
 */
export const IssuableFields = {
  description: z.string().nullable().optional(),
  assignee_id: OptionalRefId.optional(),
  milestone_id: OptionalRefId.optional(),
  labels: LabelList.optional(),
};

/**
 * GitLab's `at_least_one_of` on an edit: one that names none of `keys` is refused with GitLab's
 * wording rather than answered with the entity unchanged. The decoder reports it under `base`.
 */
export function requireOneOf<S extends z.ZodObject>(
  schema: S,
  keys: readonly (keyof z.output<S> & string)[],
): S {
  return schema.superRefine((input, ctx) => {
    if (keys.some((key) => (input as Record<string, unknown>)[key] !== undefined)) return;
    ctx.addIssue({
      code: "custom",
      path: [],
      message: `${keys.join(", ")} are missing, at least one parameter must be provided`,
    });
  });
}
