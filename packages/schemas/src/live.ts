import { z } from "zod";
import { MergeRequestJson } from "./merge-requests.js";

/** `live.events`: from just after the event named by `lastEventId` (a reconnect), else from now on. */
export const LiveEventsInput = z
  .object({
    lastEventId: z
      .string()
      .regex(/^\d{1,15}$/)
      .nullish(),
  })
  .optional();
export type LiveEventsInput = z.infer<typeof LiveEventsInput>;

/** What was done to a merge request. */
export const MergeRequestAction = z.enum(["open", "update", "close", "reopen", "merge"]);

/**
 * One change on the live stream: a merge request the user opened or is assigned to was opened,
 * changed, closed, reopened or merged, with the merge request as `GET …/merge_requests/:id` shows
 * it to them now.
 */
export const LiveEventJson = z.object({
  kind: z.literal("merge_request"),
  action: MergeRequestAction,
  merge_request: MergeRequestJson,
});
export type LiveEventJson = z.infer<typeof LiveEventJson>;
