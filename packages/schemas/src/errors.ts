import { z } from "zod";

/**
 * Every v3 error body: `{"message": "..."}` or, for validation failures,
 * `{"message": {"field": ["...", ...]}}`.
 */
export const ErrorBody = z.object({
  message: z.union([z.string(), z.record(z.string(), z.array(z.string()))]),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
