import { describe, expect, it } from "vitest";
import {
  base32Decode,
  base32Encode,
  hotp,
  matchingStep,
  newTotpSecret,
  otpauthUri,
  type TotpAlgorithm,
  totpStep,
} from "./totp.js";

// RFC 6238 appendix B: the seeds are ASCII "1234567890" repeated to the hash's length.
const seed = (length: number) => Buffer.from("1234567890".repeat(7).slice(0, length), "ascii");
const KEYS: Record<TotpAlgorithm, Buffer> = { sha1: seed(20), sha256: seed(32), sha512: seed(64) };
const VECTORS: [number, string, TotpAlgorithm][] = [
  [59, "94287082", "sha1"],
  [59, "46119246", "sha256"],
  [59, "90693936", "sha512"],
  [1111111109, "07081804", "sha1"],
  [1111111109, "68084774", "sha256"],
  [1111111109, "25091201", "sha512"],
  [1111111111, "14050471", "sha1"],
  [1111111111, "67062674", "sha256"],
  [1111111111, "99943326", "sha512"],
  [1234567890, "89005924", "sha1"],
  [1234567890, "91819424", "sha256"],
  [1234567890, "93441116", "sha512"],
  [2000000000, "69279037", "sha1"],
  [2000000000, "90698825", "sha256"],
  [2000000000, "38618901", "sha512"],
  [20000000000, "65353130", "sha1"],
  [20000000000, "77737706", "sha256"],
  [20000000000, "47863826", "sha512"],
];

describe("TOTP (RFC 6238)", () => {
  it.each(VECTORS)("at %i s the code is %s (%s)", (seconds, code, algorithm) => {
    expect(hotp(KEYS[algorithm], totpStep(seconds * 1000), 8, algorithm)).toBe(code);
  });

  it("accepts the 6-digit code of the step before, the step and the step after, and no other", () => {
    const secret = base32Encode(KEYS.sha1);
    const at = 1111111111 * 1000;
    const step = totpStep(at);
    const code = (s: number) => hotp(KEYS.sha1, s);
    expect(matchingStep(secret, code(step), at)).toBe(step);
    expect(matchingStep(secret, code(step - 1), at)).toBe(step - 1);
    expect(matchingStep(secret, code(step + 1), at)).toBe(step + 1);
    expect(matchingStep(secret, code(step - 2), at)).toBeNull();
    expect(matchingStep(secret, code(step + 2), at)).toBeNull();
    expect(matchingStep(secret, `${code(step).slice(0, 3)} ${code(step).slice(3)}`, at)).toBe(step);
    expect(matchingStep(secret, "abcdef", at)).toBeNull();
    expect(matchingStep(secret, "", at)).toBeNull();
  });

  it("round-trips base32 and makes 160-bit secrets", () => {
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    expect(base32Decode("mzxw6ytboi======").toString()).toBe("foobar");
    expect(base32Decode(newTotpSecret())).toHaveLength(20);
  });

  it("writes the otpauth URI authenticator apps read", () => {
    expect(otpauthUri("Kiln", "alice@example.com", "MZXW6YTBOI")).toBe(
      "otpauth://totp/Kiln:alice%40example.com?secret=MZXW6YTBOI&issuer=Kiln&algorithm=SHA1&digits=6&period=30",
    );
  });
});
