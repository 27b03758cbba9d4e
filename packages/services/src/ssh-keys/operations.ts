import { invalid, notFound, type SshKey } from "@kiln/domain";
import { AddSshKeyInput, NoInput, SshKeyIdInput, UserIdInput } from "@kiln/schemas";
import type { Stores } from "@kiln/storage-kysely";
import { UniqueViolation } from "@kiln/storage-kysely";
import { recordDomainEvent } from "../domain-events.js";
import { keySystemEvent } from "../hooks/payloads/system.js";
import { mutation, query } from "../operation.js";
import { parseSshKey } from "../security/ssh-keys.js";

async function addKey(stores: Stores, userId: number, input: AddSshKeyInput): Promise<SshKey> {
  const parsed = parseSshKey(input.key);
  if (!parsed) throw invalid({ key: ["is invalid"] });
  const taken = invalid({ fingerprint: ["has already been taken"] });
  if (await stores.sshKeys.fingerprintTaken(parsed.fingerprint)) throw taken;
  try {
    return await stores.transaction(async (tx) => {
      const key = await tx.sshKeys.create({ user_id: userId, title: input.title, ...parsed });
      await recordKeyEvent(tx, "key_create", key);
      return key;
    });
  } catch (error) {
    throw error instanceof UniqueViolation ? taken : error;
  }
}

async function removeKey(stores: Stores, userId: number, keyId: number): Promise<SshKey> {
  return stores.transaction(async (tx) => {
    const key = await tx.sshKeys.findForUser(userId, keyId);
    if (!key || !(await tx.sshKeys.delete(userId, keyId))) throw notFound("key");
    await recordKeyEvent(tx, "key_destroy", key);
    return key;
  });
}

/** The system hooks' event of a key added or removed, in the transaction `tx` of that change. */
async function recordKeyEvent(tx: Stores, name: "key_create" | "key_destroy", key: SshKey): Promise<void> {
  const owner = await tx.users.findById(key.user_id);
  if (owner) await recordDomainEvent(tx, keySystemEvent(name, key, owner));
}

async function userExists(stores: Stores, id: number): Promise<void> {
  if (!(await stores.users.findById(id))) throw notFound("user");
}

/** SSH keys: the caller's own, and any user's for administrators. */
export const sshKeys = {
  listMine: query("signed_in", NoInput, (ctx) => ctx.runtime.stores.sshKeys.listForUser(ctx.actor.user.id)),

  getMine: query("signed_in", SshKeyIdInput, async (ctx, input) => {
    const key = await ctx.runtime.stores.sshKeys.findForUser(ctx.actor.user.id, input.key_id);
    if (!key) throw notFound("key");
    return key;
  }),

  addMine: mutation("signed_in", AddSshKeyInput, (ctx, input) =>
    addKey(ctx.runtime.stores, ctx.actor.user.id, input),
  ),

  removeMine: mutation("signed_in", SshKeyIdInput, (ctx, input) =>
    removeKey(ctx.runtime.stores, ctx.actor.user.id, input.key_id),
  ),

  listFor: query("admin", UserIdInput, async (ctx, input) => {
    await userExists(ctx.runtime.stores, input.id);
    return ctx.runtime.stores.sshKeys.listForUser(input.id);
  }),

  addFor: mutation("admin", UserIdInput.extend(AddSshKeyInput.shape), async (ctx, input) => {
    await userExists(ctx.runtime.stores, input.id);
    return addKey(ctx.runtime.stores, input.id, input);
  }),

  removeFor: mutation("admin", UserIdInput.extend(SshKeyIdInput.shape), async (ctx, input) => {
    await userExists(ctx.runtime.stores, input.id);
    return removeKey(ctx.runtime.stores, input.id, input.key_id);
  }),
};
