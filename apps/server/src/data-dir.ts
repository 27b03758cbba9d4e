import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from "node:fs";
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
 * return the private tokens sealed under it. Several processes may start at once on one data dir:
 * one of them creates the key and all of them use it.
 */
export function loadOrCreateSecretKey(dataDir: string): Buffer {
  const file = join(dataDir, KEY_FILE);
  const existing = readKey(file);
  if (existing) return existing;
  // The key is written whole under a name of its own, then linked into place. A link never
  // replaces a file, so of several first starts exactly one puts its key there; and the key file
  // appears complete, so nobody reads half a key.
  const temp = join(dataDir, `${KEY_FILE}.${randomBytes(8).toString("hex")}.tmp`);
  try {
    writeDurably(temp, `${randomBytes(32).toString("base64")}\n`);
    linkSync(temp, file);
    syncDir(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  const key = readKey(file);
  if (!key) throw new Error(`${file} vanished while it was being created`);
  return key;
}

/** The key in `file`, or null when there is no such file. */
function readKey(file: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const key = Buffer.from(text.trim(), "base64");
  if (key.length !== 32) throw new ConfigError(`${file} does not hold a 32-byte key`);
  return key;
}

/** Writes a new owner-only file and flushes it to disk, so it is whole before any name points to it. */
function writeDurably(file: string, text: string): void {
  const fd = openSync(file, "wx", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flushes a directory's entries, so a name just added survives a power loss. */
function syncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
