import { z } from "zod";

/** `page` and `per_page`, accepted by every list. Out-of-range values are clamped, not refused. */
export const PaginationParams = z.object({
  page: z.number().int().optional(),
  per_page: z.number().int().optional(),
});

/** The pagination parameters of a list input. */
export type PaginationParams = z.infer<typeof PaginationParams>;

/**
 * One page of a list as the tRPC procedures answer it (v3 puts the same facts in `X-*` headers):
 * `total` is null when the list was too long to count, `next_page` null on the last page.
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int().min(1),
    per_page: z.number().int().min(1),
    total: z.number().int().min(0).nullable(),
    next_page: z.number().int().min(2).nullable(),
  });
}

/** A page of items of type `T`, as {@link pageOf} describes it. */
export interface PageJson<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number | null;
  next_page: number | null;
}
