import { z } from "zod";
import { StoredInt, Timestamp } from "./primitives.js";

const Visibility012 = z
  .number()
  .int()
  .refine((value) => [0, 1, 2, 10, 20].includes(value), {
    error: "must be 0 (private), 1 (internal) or 2 (public)",
  });

const NonNegative = z.number().int().min(0, { error: "must be greater than or equal to 0" });

/**
 * `PUT /application/settings`: every field optional. Visibility levels may be written 0/1/2, as
 * GitLab documents them, or 0/10/20, as it stores them.
 */
export const UpdateSettingsInput = z.object({
  default_projects_limit: NonNegative.optional(),
  signup_enabled: z.boolean().optional(),
  signin_enabled: z.boolean().optional(),
  gravatar_enabled: z.boolean().optional(),
  sign_in_text: z.string().nullable().optional(),
  home_page_url: z.string().nullable().optional(),
  default_branch_protection: z
    .number()
    .int()
    .refine((value) => value === 0 || value === 1 || value === 2, { error: "must be 0, 1 or 2" })
    .optional(),
  restricted_visibility_levels: z.array(Visibility012).optional(),
  max_attachment_size: z.number().int().min(1, { error: "must be greater than 0" }).optional(),
  max_artifacts_size: StoredInt.min(1, { error: "must be greater than 0" }).optional(),
  session_expire_delay: NonNegative.optional(),
  default_project_visibility: Visibility012.optional(),
  default_snippet_visibility: Visibility012.optional(),
  domain_whitelist: z.array(z.string()).optional(),
  domain_blacklist_enabled: z.boolean().optional(),
  domain_blacklist: z.array(z.string()).optional(),
  user_oauth_applications: z.boolean().optional(),
  after_sign_out_path: z.string().nullable().optional(),
  container_registry_token_expire_delay: NonNegative.optional(),
  repository_storage: z.string().min(1).optional(),
  /** `ssh`, `http`, or `nil` (or empty) for both. */
  enabled_git_access_protocol: z.enum(["ssh", "http", "nil", ""]).nullable().optional(),
  allow_local_requests_from_hooks: z.boolean().optional(),
  require_two_factor_authentication: z.boolean().optional(),
  /** Hours; Kiln's own bound (about 14 months) keeps the sum with a date in range. */
  two_factor_grace_period: NonNegative.max(10_000, {
    error: "must be less than or equal to 10000",
  }).optional(),
});
export type UpdateSettingsInput = z.infer<typeof UpdateSettingsInput>;

/** The application settings, as `GET /application/settings` answers them. */
export const SettingsJson = z.object({
  id: z.number().int(),
  default_projects_limit: z.number().int(),
  signup_enabled: z.boolean(),
  signin_enabled: z.boolean(),
  gravatar_enabled: z.boolean(),
  sign_in_text: z.string().nullable(),
  home_page_url: z.string().nullable(),
  default_branch_protection: z.number().int(),
  restricted_visibility_levels: z.array(z.number().int()),
  max_attachment_size: z.number().int(),
  max_artifacts_size: z.number().int(),
  session_expire_delay: z.number().int(),
  default_project_visibility: z.number().int(),
  default_snippet_visibility: z.number().int(),
  domain_whitelist: z.array(z.string()),
  domain_blacklist_enabled: z.boolean(),
  domain_blacklist: z.array(z.string()),
  user_oauth_applications: z.boolean(),
  after_sign_out_path: z.string().nullable(),
  container_registry_token_expire_delay: z.number().int(),
  repository_storage: z.string(),
  enabled_git_access_protocol: z.string().nullable(),
  allow_local_requests_from_hooks: z.boolean(),
  require_two_factor_authentication: z.boolean(),
  two_factor_grace_period: z.number().int(),
  created_at: Timestamp.nullable(),
  updated_at: Timestamp.nullable(),
});
export type SettingsJson = z.infer<typeof SettingsJson>;
