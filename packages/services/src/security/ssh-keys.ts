import { createHash } from "node:crypto";

/** Key types, and how many length-prefixed fields their blob holds (the type name included). */
const KEY_FIELDS: ReadonlyMap<string, number> = new Map([
  ["ssh-rsa", 3],
  ["ssh-dss", 5],
  ["ssh-ed25519", 2],
  ["ecdsa-sha2-nistp256", 3],
  ["ecdsa-sha2-nistp384", 3],
  ["ecdsa-sha2-nistp521", 3],
  ["sk-ssh-ed25519@openssh.com", 3],
  ["sk-ecdsa-sha2-nistp256@openssh.com", 4],
]);

/** The length-prefixed fields of an SSH wire blob, or null when the lengths do not add up. */
function wireFields(blob: Buffer): Buffer[] | null {
  const fields: Buffer[] = [];
  let offset = 0;
  while (offset < blob.length) {
    if (offset + 4 > blob.length) return null;
    const length = blob.readUInt32BE(offset);
    offset += 4;
    if (offset + length > blob.length) return null;
    fields.push(blob.subarray(offset, offset + length));
    offset += length;
  }
  return fields;
}

/** A public key that parsed: its normalised text and MD5 fingerprint (`aa:bb:…`, as GitLab 8 shows). */
export interface ParsedSshKey {
  key: string;
  fingerprint: string;
}

/**
 * Parses an OpenSSH public key line (`type base64 [comment]`). The blob must be valid base64 made
 * of exactly the fields its type has, the first naming the declared type; anything else is null.
 */
export function parseSshKey(text: string): ParsedSshKey | null {
  const line = text.trim();
  if (line.includes("\n") || line.includes("\r")) return null;
  const [type, data, ...comment] = line.split(/\s+/);
  if (!type || !data || !KEY_FIELDS.has(type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return null;
  const blob = Buffer.from(data, "base64");
  const fields = wireFields(blob);
  if (!fields || fields.length !== KEY_FIELDS.get(type) || fields[0]?.toString("latin1") !== type)
    return null;
  const digest = createHash("md5").update(blob).digest("hex");
  return {
    key: [type, data, ...comment].join(" "),
    fingerprint: digest.match(/../g)?.join(":") ?? digest,
  };
}
