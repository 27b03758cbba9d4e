import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "./config.js";

const KEY_FILE = "secret.key";

/** Creates the data directory if needed, failing with one line when it cannot be used. */
export function ensureDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ConfigError(`KILN_DATA_DIR ${dataDir} cannot be created: ${(error as Error).message}`);
  }
}

/**
 * The server key (32 bytes) that seals private tokens, created on first start in the data dir
 * with owner-only permissions. Back it up with the database: without it, `POST /session` cannot
 * return the private tokens sealed under it.
 */
export function loadOrCreateSecretKey(dataDir: string): Buffer {
  const file = join(dataDir, KEY_FILE);
  try {
    const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
    if (key.length !== 32) throw new ConfigError(`${file} does not hold a 32-byte key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const key = randomBytes(32);
  // `wx`: if another process created it meanwhile, fail rather than overwrite its key.
  writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  return key;
}
