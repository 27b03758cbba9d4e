import type { Kysely } from "kysely";
import { forgetSubscriber, startSubscriberAtNewestEvent } from "./helpers.js";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * Merge when the build succeeds: the options of the merge to run later (GitLab 8.x's
 * `merge_params`: the commit message and whether to remove the source branch, as JSON), and the
 * outbox subscriber that merges when a pipeline succeeds (and gives `build_failed` todos), placed
 * at the newest event so that an upgraded server does not act on old pipelines.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await startSubscriberAtNewestEvent(db, "merge_when_build_succeeds");
  await db.schema.alterTable("merge_requests").addColumn("merge_params", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("merge_requests").dropColumn("merge_params").execute();
  await forgetSubscriber(db, "merge_when_build_succeeds");
}
