import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";
import { parseSshKey } from "../security/ssh-keys.js";

/** A fresh ed25519 public key in OpenSSH form: string "ssh-ed25519" then string <32 key bytes>. */
function ed25519PublicKey(comment = ""): string {
  const jwk = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
  const withLength = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const blob = Buffer.concat([
    withLength(Buffer.from("ssh-ed25519")),
    withLength(Buffer.from(jwk.x as string, "base64url")),
  ]);
  return `ssh-ed25519 ${blob.toString("base64")}${comment ? ` ${comment}` : ""}`;
}

const ED25519 = ed25519PublicKey("kiln@test");
const OTHER = ed25519PublicKey();

describe("parseSshKey", () => {
  it("fingerprints a valid key as colon-separated MD5", () => {
    expect(parseSshKey(ED25519)?.fingerprint).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
  });

  it("refuses keys whose blob does not match their type, bad base64, and multi-line input", () => {
    expect(parseSshKey(ED25519.replace("ssh-ed25519", "ssh-rsa"))).toBeNull();
    expect(parseSshKey(`ssh-ed25519 ${ED25519.split(" ")[1]!.slice(0, -8)}`)).toBeNull();
    expect(parseSshKey("ssh-ed25519 not*base64")).toBeNull();
    expect(parseSshKey(`${ED25519}\n${OTHER}`)).toBeNull();
    expect(parseSshKey("hello")).toBeNull();
  });
});

forEachDialect((h) => {
  describe("ssh keys", () => {
    it("adds, lists, gets and deletes the caller's keys", async () => {
      const alice = await h().user("alice");
      const me = h().as(alice);
      const key = await me.sshKeys.addMine({ title: "laptop", key: ED25519 });
      expect(key).toMatchObject({ title: "laptop", key: ED25519 });
      expect(await me.sshKeys.listMine()).toHaveLength(1);
      expect(await me.sshKeys.getMine({ key_id: key.id })).toMatchObject({ id: key.id });
      expect((await me.sshKeys.removeMine({ key_id: key.id })).id).toBe(key.id);
      await expect(me.sshKeys.getMine({ key_id: key.id })).rejects.toMatchObject({
        cause: { failure: { kind: "not_found", subject: "key" } },
      });
    });

    it("refuses invalid keys and a fingerprint registered by anyone", async () => {
      const bob = await h().user("bob");
      const carol = await h().user("carol");
      await h().as(bob).sshKeys.addMine({ title: "k", key: ED25519 });
      await expect(h().as(carol).sshKeys.addMine({ title: "k", key: ED25519 })).rejects.toMatchObject({
        cause: { kind: "validation", fields: { fingerprint: ["has already been taken"] } },
      });
      await expect(h().as(carol).sshKeys.addMine({ title: "k", key: "ssh-rsa AAAA" })).rejects.toMatchObject({
        cause: { kind: "validation", fields: { key: ["is invalid"] } },
      });
    });

    it("never shows another user's key, except to administrators through the user routes", async () => {
      const dan = await h().user("dan");
      const erin = await h().user("erin");
      const key = await h().as(dan).sshKeys.addMine({ title: "k", key: OTHER });
      await expect(h().as(erin).sshKeys.getMine({ key_id: key.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      await expect(h().as(erin).sshKeys.listFor({ id: dan.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
      expect(await h().system.sshKeys.listFor({ id: dan.id })).toHaveLength(1);
      await expect(h().system.sshKeys.listFor({ id: 999_999 })).rejects.toMatchObject({
        cause: { failure: { kind: "not_found", subject: "user" } },
      });
    });
  });
});
