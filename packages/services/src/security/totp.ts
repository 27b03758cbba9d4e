import { createHmac, randomBytes } from "node:crypto";
import { constantTimeEqual } from "./tokens.js";

/**
 * Time-based one-time passwords (RFC 6238) as authenticator apps make them by default: HMAC-SHA-1,
 * 30-second steps counted from the Unix epoch, 6 digits.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;

/** The hash of the HMAC; apps use SHA-1, the others are here for RFC 6238's test vectors. */
export type TotpAlgorithm = "sha1" | "sha256" | "sha512";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding, the form `otpauth://` URIs and authenticator apps use. */
export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes {@link base32Encode}'s output (any case, padding and spaces ignored). */
export function base32Decode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.toUpperCase().replace(/[\s=]/g, "")) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new secret: 20 random bytes (RFC 4226's recommended 160 bits), in base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The step a moment falls in. */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_STEP_SECONDS);
}

/** The HOTP value (RFC 4226) of `key` for `counter`, with its leading zeros. */
export function hotp(
  key: Buffer,
  counter: number,
  digits = TOTP_DIGITS,
  algorithm: TotpAlgorithm = "sha1",
): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/**
 * The step within ±`window` steps of `atMs` whose code is `code` for the base32 `secret`, or
 * null. The caller must still refuse a step it accepted before.
 */
export function matchingStep(secret: string, code: string, atMs: number, window = 1): number | null {
  const candidate = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(candidate)) return null;
  const key = base32Decode(secret);
  const now = totpStep(atMs);
  let found: number | null = null;
  // Every candidate step is computed and compared alike, so timing does not tell which matched.
  for (let step = now - window; step <= now + window; step++) {
    if (constantTimeEqual(hotp(key, step), candidate) && found === null) found = step;
  }
  return found;
}

/**
 * The `otpauth://totp/` URI an authenticator app reads from the QR code (the Key Uri Format of
 * Google Authenticator): the issuer and account label, the secret, and the defaults spelt out.
 */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
