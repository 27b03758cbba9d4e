import { createCipheriv, createDecipheriv, hash, randomBytes, timingSafeEqual } from "node:crypto";

const TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A new random token of `length` characters from [A-Za-z0-9] (20 characters carry about 119 bits),
 * drawn without modulo bias.
 */
export function generateToken(length = 20): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it would favour the first letters.
      if (byte < 248 && out.length < length) out += TOKEN_ALPHABET[byte % 62];
    }
  }
  return out;
}

/** The SHA-256 hex digest under which a token is stored and looked up. */
export function tokenDigest(token: string): string {
  return hash("sha256", token, "hex");
}

/** Compares two strings in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const SEALED_PREFIX = "v1:";

/**
 * Reversible encryption (AES-256-GCM) under the server key, for the one secret the v3 API must
 * hand back: the private token returned by `POST /session`.
 */
export class SecretBox {
  readonly #key: Buffer;

  /** @param key 32 bytes, kept outside the database (the server keeps it in the data dir). */
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error("the secret key must be 32 bytes");
    this.#key = key;
  }

  /** Encrypts `plain`; the result carries its IV and authentication tag. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
  }

  /** Decrypts what {@link seal} produced; throws if it was tampered with or sealed under another key. */
  open(sealed: string): string {
    if (!sealed.startsWith(SEALED_PREFIX)) throw new Error("unknown sealed format");
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }
}
