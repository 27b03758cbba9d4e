import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** How long a remembered advertisement is served before git is asked again. */
const TTL_MS = 60_000;

/** Distinct keys kept (repositories normally share one configuration, so one or two are used). */
const MAX_ENTRIES = 64;

interface Entry {
  body: Buffer;
  expiresAt: number;
}

/**
 * Protocol v2's answer to `info/refs` lists no refs: only git's capabilities, which depend on
 * git's version, the server's `-c` settings and the repository's own configuration (object
 * format, `uploadpack.*`, `lsrefs.unborn`…), nothing else. Every clone and fetch starts with
 * it, and starting git for it costs a process: on a VM where fork copies the page tables of a
 * large server, that is several milliseconds of blocked event loop per request. So the bytes git
 * wrote are remembered, keyed by the settings and the text of the repository's config file,
 * for {@link TTL_MS} (which bounds how long an upgraded git binary goes unnoticed).
 */
export class CapabilityCache {
  private readonly entries = new Map<string, Entry>();

  /** The cache key of a repository under these settings, or undefined when its config cannot be read. */
  async key(gitDir: string, settings: readonly string[]): Promise<string | undefined> {
    try {
      const config = await readFile(join(gitDir, "config"), "utf8");
      // With transfer.advertiseSID each git process names its own session: nothing to share.
      if (/advertisesid/i.test(config) || settings.some((setting) => /advertisesid/i.test(setting)))
        return undefined;
      return `${settings.join("\0")}\0\0${config}`;
    } catch {
      return undefined;
    }
  }

  /** The remembered advertisement, if still fresh. */
  get(key: string, now = Date.now()): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.body;
    this.entries.delete(key);
    return undefined;
  }

  /** Remembers what git answered. */
  set(key: string, body: Buffer, now = Date.now()): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { body, expiresAt: now + TTL_MS });
  }
}

/** The process's cache, shared by every call of `advertiseRefs` that asks for it. */
export const capabilityCache = new CapabilityCache();
