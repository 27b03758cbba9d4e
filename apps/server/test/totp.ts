import { createHmac } from "node:crypto";

/**
 * The 6-digit TOTP code of a base32 secret at a moment (RFC 6238: SHA-1, 30-second steps), written
 * out here on purpose, as an authenticator app computes it, rather than taken from Kiln.
 */
export function totpAt(secret: string, atMs: number): string {
  let bits = "";
  for (const char of secret)
    bits += "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".indexOf(char).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = (mac.at(-1) as number) & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}
