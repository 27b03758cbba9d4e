import { z } from "zod";
import { PaginationParams } from "./pagination.js";
import { Id, Timestamp } from "./primitives.js";
import { ProjectRef } from "./projects.js";

// ---------------------------------------------------------------------------------------- input

/** The event flags and the secret token a hook may be given; flags left out keep their value. */
const HookSettings = {
  push_events: z.boolean().optional(),
  issues_events: z.boolean().optional(),
  merge_requests_events: z.boolean().optional(),
  tag_push_events: z.boolean().optional(),
  note_events: z.boolean().optional(),
  build_events: z.boolean().optional(),
  pipeline_events: z.boolean().optional(),
  wiki_page_events: z.boolean().optional(),
  /** GitLab 8.x's parameter name for `wiki_page_events`; `wiki_page_events` wins when both are sent. */
  wiki_events: z.boolean().optional(),
  enable_ssl_verification: z.boolean().optional(),
  /** The secret sent as `X-Gitlab-Token` (GitLab 8.14+); stored sealed, never answered. Empty removes it. */
  token: z.string().max(255, { error: "is too long (maximum is 255 characters)" }).optional(),
};

/** `GET /projects/:id/hooks`. */
export const ListHooksInput = PaginationParams.extend({ id: ProjectRef });
export type ListHooksInput = z.infer<typeof ListHooksInput>;

/** Routes that name one hook of a project. */
export const HookRefInput = z.object({ id: ProjectRef, hook_id: Id });
export type HookRefInput = z.infer<typeof HookRefInput>;

/** `POST /projects/:id/hooks`. The URL is checked by the operation, which knows the settings. */
export const AddHookInput = z.object({ id: ProjectRef, url: z.string(), ...HookSettings });
export type AddHookInput = z.infer<typeof AddHookInput>;

/** `PUT /projects/:id/hooks/:hook_id`: the URL is required, as on add. */
export const EditHookInput = AddHookInput.extend({ hook_id: Id });
export type EditHookInput = z.infer<typeof EditHookInput>;

// --------------------------------------------------------------------------------------- output

/** A project hook, as every hook endpoint answers it (never with its token). */
export const ProjectHookJson = z.object({
  id: Id,
  url: z.string(),
  project_id: Id,
  push_events: z.boolean(),
  issues_events: z.boolean(),
  merge_requests_events: z.boolean(),
  tag_push_events: z.boolean(),
  note_events: z.boolean(),
  build_events: z.boolean(),
  pipeline_events: z.boolean(),
  wiki_page_events: z.boolean(),
  enable_ssl_verification: z.boolean(),
  created_at: Timestamp,
});
export type ProjectHookJson = z.infer<typeof ProjectHookJson>;

/** `GET /projects/:id/hooks/:hook_id/deliveries` (Kiln's delivery log). */
export const ListHookDeliveriesInput = PaginationParams.extend({ id: ProjectRef, hook_id: Id });
export type ListHookDeliveriesInput = z.infer<typeof ListHookDeliveriesInput>;

/** `POST /hooks`: a system hook (administrators). */
export const AddSystemHookInput = z.object({
  url: z.string(),
  token: HookSettings.token,
  push_events: z.boolean().optional(),
  tag_push_events: z.boolean().optional(),
  enable_ssl_verification: z.boolean().optional(),
});
export type AddSystemHookInput = z.infer<typeof AddSystemHookInput>;

/** Routes that name one system hook. */
export const SystemHookRefInput = z.object({ id: Id });
export type SystemHookRefInput = z.infer<typeof SystemHookRefInput>;

/** `GET /hooks`. */
export const ListSystemHooksInput = PaginationParams;
export type ListSystemHooksInput = z.infer<typeof ListSystemHooksInput>;

/** A system hook, as `/hooks` answers it (never with its token). */
export const SystemHookJson = z.object({
  id: Id,
  url: z.string(),
  created_at: Timestamp,
  push_events: z.boolean(),
  tag_push_events: z.boolean(),
  enable_ssl_verification: z.boolean(),
});
export type SystemHookJson = z.infer<typeof SystemHookJson>;

/** One delivery of the log: what was sent, and how its last attempt went. */
export const HookDeliveryJson = z.object({
  id: Id,
  /** The `X-Kiln-Delivery` header, the same on every attempt. */
  delivery_id: z.string(),
  event: z.string(),
  state: z.enum(["pending", "delivered", "failed"]),
  url: z.string().nullable(),
  request_headers: z.record(z.string(), z.string()).nullable(),
  request_body: z.string(),
  response_status: z.number().int().nullable(),
  response_headers: z.record(z.string(), z.string()).nullable(),
  response_body: z.string().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  attempts: z.number().int(),
  next_retry_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type HookDeliveryJson = z.infer<typeof HookDeliveryJson>;
