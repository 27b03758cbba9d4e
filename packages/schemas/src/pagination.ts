import { z } from "zod";

/** `page` and `per_page`, accepted by every list. Out-of-range values are clamped, not refused. */
export const PaginationParams = z.object({
  page: z.number().int().optional(),
  per_page: z.number().int().optional(),
});

/** The pagination parameters of a list input. */
export type PaginationParams = z.infer<typeof PaginationParams>;
