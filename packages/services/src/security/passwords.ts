import { type Algorithm, hash, verify } from "@node-rs/argon2";

// Algorithm.Argon2id; the enum is `const`, which verbatimModuleSyntax cannot import.
const ARGON2ID = 2 as Algorithm;

/** Hashes and checks passwords. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
}

/**
 * argon2id with OWASP's baseline (19 MiB, 2 passes). The encoded hash carries its parameters, so
 * they can be raised later without invalidating stored hashes. Work runs off the event loop.
 */
export const argon2idHasher: PasswordHasher = {
  hash: (password) =>
    hash(password, { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 }),
  verify: async (hashed, password) => {
    try {
      return await verify(hashed, password);
    } catch {
      return false; // a malformed stored hash never matches
    }
  },
};
