import { randomUUID } from "node:crypto";
import type { HookScope } from "@kiln/domain";
import type { NewDelivery } from "@kiln/storage-kysely";
import type { DomainEvent } from "../domain-events.js";
import type { OutboxSubscriber } from "../outbox/dispatcher.js";
import type { ServiceRuntime } from "../runtime.js";
import { type HookMessage, hookMessageOf } from "./event-payloads.js";

/** The project's hooks and the system hooks `message` goes to. */
async function recipients(
  runtime: ServiceRuntime,
  event: DomainEvent,
  message: HookMessage,
): Promise<DeliveryTarget[]> {
  const { hooks, systemHooks } = runtime.stores;
  const project = message.flag === null ? [] : await hooks.subscribed(event.projectId, message.flag);
  const system = (await systemHooks.list()).filter(
    (hook) =>
      message.flag === null ||
      (message.flag === "push_events" && hook.push_events) ||
      (message.flag === "tag_push_events" && hook.tag_push_events),
  );
  return [
    ...project.map((hook) => ({ scope: "project" as const, id: hook.id, projectId: hook.project_id })),
    ...system.map((hook) => ({ scope: "system" as const, id: hook.id, projectId: null })),
  ];
}

/** A hook a message goes to. */
export interface DeliveryTarget {
  scope: HookScope;
  id: number;
  projectId: number | null;
}

/**
 * Queues `message` for each target; `eventId` null for a test delivery. Answers the delivery ids
 * (those already queued for the event are not queued again, and keep theirs).
 */
export async function queueDeliveries(
  runtime: ServiceRuntime,
  eventId: number | null,
  targets: readonly DeliveryTarget[],
  message: HookMessage,
): Promise<string[]> {
  const body = JSON.stringify(message.payload);
  const rows: NewDelivery[] = targets.map((target) => ({
    uuid: randomUUID(),
    event_id: eventId,
    hook_scope: target.scope,
    hook_id: target.id,
    project_id: target.projectId,
    event_name: message.eventName,
    payload: body,
  }));
  // Redone if lost: the subscriber's position moves past the event only in a later, durable commit.
  await runtime.stores.relaxedTransaction((tx) => tx.deliveries.queue(rows));
  return rows.map((row) => row.uuid);
}

/**
 * The outbox's `webhooks` subscriber: turns each push, tag push, issue, merge request, note, build,
 * pipeline and system event into one delivery per subscribed hook, with its payload built at that moment, for
 * the delivery worker to send. The dispatcher hands it each event at least once; the deliveries'
 * unique (event, hook) key makes a second handling (after a crash before the position moved) add
 * nothing. `onQueued` wakes the worker of this process.
 */
export function webhookDeliveries(
  runtime: ServiceRuntime,
  onQueued: () => void = () => {},
): OutboxSubscriber {
  return {
    name: "webhooks",
    kinds: ["push", "issue", "merge_request", "note", "system", "build", "pipeline"],
    async handle(event, eventId) {
      // Most projects have no hooks, and most instances no system hooks: look before building a payload.
      const { hooks, systemHooks } = runtime.stores;
      const projectHooks = event.kind !== "system" && (await hooks.anyForProject(event.projectId));
      if (!projectHooks && !(await systemHooks.any())) return;
      const message = await hookMessageOf(runtime, event);
      if (!message) return;
      const targets = await recipients(runtime, event, message);
      if (targets.length === 0) return;
      await queueDeliveries(runtime, eventId, targets, message);
      onQueued();
    },
  };
}
