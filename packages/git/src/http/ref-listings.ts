import type { BigIntStats, Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** How long a remembered listing is served before git is asked again, whatever the refs did. */
const TTL_MS = 60_000;

/**
 * A listing is remembered only when every timestamp of its fingerprint is at least this much
 * older than the moment the fingerprint was taken. A file system stamps a change with a clock
 * that ticks in steps (a jiffy, 1–10 ms, on kernels without fine-grained timestamps; a whole
 * second on ext4 with small inodes or on some network file systems), so two ref updates within
 * one step can leave a directory with the same mtime: only once that step is over is every later
 * change sure to show. This costs nothing in practice: the refs of a repository that was changed
 * in the last two seconds are simply listed by git, as before.
 */
const SETTLE_MS = 2_000;

/** Largest listing remembered (about 15,000 refs); a larger one is always streamed from git. */
export const MAX_LISTING_BYTES = 1024 * 1024;

/**
 * Bounds of the whole cache: listings and their bytes (request keys included); and listings per
 * repository (a repository sees a few distinct requests: one per client version and command), so
 * that requests flooding one repository only push out its own listings.
 */
const MAX_ENTRIES = 4096;
const MAX_BYTES = 16 * 1024 * 1024;
const MAX_PER_REPOSITORY = 32;

/**
 * Past this many directories under `refs/` (one per merge request, say), stat'ing them all would
 * cost about what git's own listing costs: such a repository's listings are not remembered.
 */
export const MAX_REF_DIRECTORIES = 128;

/** The files outside `refs/` whose change can change what `ls-refs` answers. */
const FILES = ["HEAD", "packed-refs", "config", "shallow", "reftable/tables.list"] as const;

/** The state of a repository's refs as the file system shows it, and whether it can be trusted. */
export interface RefsFingerprint {
  /** Changes whenever a ref, HEAD, packed-refs, the config or the shallow file changes. */
  value: string;
  /**
   * True when every mtime is older than the moment the fingerprint was taken by more than the
   * file system's timestamp granularity (see {@link SETTLE_MS}): a later change cannot leave the
   * same fingerprint. Only a settled fingerprint is worth remembering a listing under.
   */
  settled: boolean;
}

/**
 * The refs fingerprint of the repository at `gitDir`, or undefined when it cannot be read (no
 * HEAD: not a repository) or has more than {@link MAX_REF_DIRECTORIES} directories under `refs/`.
 * Git changes a ref by writing `<ref>.lock` and renaming it into place, deletes a loose ref by
 * unlinking it, and packs refs by renaming `packed-refs.lock` over `packed-refs`: each changes
 * the mtime of the directory that holds the ref, or the inode of the file. So the fingerprint is
 * the inode, size, mtime and ctime (nanoseconds) of HEAD, packed-refs, config, shallow,
 * reftable's table list, and every directory under `refs/` (and symlink, followed as git does).
 * A directory is stat'ed before it is read, so that a subdirectory created in between shows as a
 * change of its parent. Cost: a typical repository (refs, refs/heads, refs/tags) takes 8 stats
 * and 3 reads of a directory, about 0.5 ms on the thread pool of the 2-vCPU development VM
 * (0.08 ms if done synchronously, which would block the event loop instead).
 */
export async function refsFingerprint(
  gitDir: string,
  now = Date.now(),
): Promise<RefsFingerprint | undefined> {
  const items: string[] = [];
  let newest = 0n;
  const record = (name: string, stats: BigIntStats | undefined) => {
    if (!stats) {
      items.push(`${name}\0-`);
      return;
    }
    items.push(`${name}\0${stats.ino}\0${stats.size}\0${stats.mtimeNs}\0${stats.ctimeNs}`);
    if (stats.mtimeNs > newest) newest = stats.mtimeNs;
  };
  const [files, refs] = await Promise.all([
    Promise.all(FILES.map((name) => statOrMissing(join(gitDir, name)))),
    walkRefs(gitDir),
  ]);
  if (!files[0] || !refs) return undefined; // no HEAD, or too many directories
  for (const [i, name] of FILES.entries()) record(name, files[i]);
  for (const [name, stats] of refs) record(name, stats);
  return { value: items.join("\n"), settled: newest < BigInt(now - SETTLE_MS) * 1_000_000n };
}

/**
 * Every directory under `refs/` (itself included), sorted by path, with its stats; undefined past
 * {@link MAX_REF_DIRECTORIES}.
 */
async function walkRefs(gitDir: string): Promise<[string, BigIntStats | undefined][] | undefined> {
  const found: [string, BigIntStats | undefined][] = [];
  const seen = new Set<string>(); // a symlink loop is walked once
  const visit = async (relative: string): Promise<void> => {
    if (found.length > MAX_REF_DIRECTORIES) return;
    // stat, not lstat: git's files backend follows a symlinked directory under refs/.
    const stats = await statOrMissing(join(gitDir, relative));
    found.push([relative, stats]);
    if (!stats?.isDirectory() || seen.has(`${stats.dev}:${stats.ino}`)) return;
    seen.add(`${stats.dev}:${stats.ino}`);
    let entries: Dirent[];
    try {
      entries = await readdir(join(gitDir, relative), { withFileTypes: true });
    } catch {
      return; // removed since the stat: the stats of its parent show it
    }
    await Promise.all(
      entries
        .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
        .map((entry) => visit(`${relative}/${entry.name}`)),
    );
  };
  await visit("refs");
  if (found.length > MAX_REF_DIRECTORIES) return undefined;
  return found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

async function statOrMissing(path: string): Promise<BigIntStats | undefined> {
  try {
    return await stat(path, { bigint: true });
  } catch {
    return undefined;
  }
}

interface Listing {
  body: Buffer;
  bytes: number;
  expiresAt: number;
}

/** The listings remembered for one repository, all under its current fingerprint. */
interface Repository {
  fingerprint: string;
  listings: Map<string, Listing>;
}

/**
 * Protocol v2's `ls-refs` answer is a function of the request (its bytes: capabilities,
 * `symrefs`, `peel`, `unborn`, the `ref-prefix`es), the server's `-c` settings, the
 * `Git-Protocol` value, and the repository's refs and config; nothing else. A no-op fetch is one
 * `ls-refs` and nothing more, and starting git for it costs a process: on a VM where fork copies
 * the page tables of a large server, several milliseconds of blocked event loop per request. So
 * git's answer is remembered per repository under its {@link refsFingerprint}: any change of a
 * ref, by any path (a push, the API, an operator's `git gc`), makes a new fingerprint and git is
 * asked again. Listings expire after {@link TTL_MS} whatever happens (which bounds how long an
 * invalidation the fingerprint missed, or an upgraded git binary, goes unnoticed), and the cache
 * keeps at most {@link MAX_ENTRIES} listings and {@link MAX_BYTES} bytes, the least recently used
 * repositories going first, and {@link MAX_PER_REPOSITORY} listings per repository. Keys include the repository's path: a listing never answers for
 * another repository. Authorization is the caller's, before any of this.
 */
export class RefListingCache {
  /** Repositories by path, least recently used first. */
  private readonly repositories = new Map<string, Repository>();
  private entries = 0;
  private bytes = 0;

  /** The remembered answer to `request` for the repository in this state, if still fresh. */
  get(gitDir: string, fingerprint: string, request: string, now = Date.now()): Buffer | undefined {
    const repository = this.repositories.get(gitDir);
    if (!repository) return undefined;
    if (repository.fingerprint !== fingerprint) {
      this.drop(gitDir, repository); // its refs changed: every listing of it is stale
      return undefined;
    }
    const listing = repository.listings.get(request);
    if (!listing) return undefined;
    if (listing.expiresAt <= now) {
      this.remove(repository, request, listing);
      if (repository.listings.size === 0) this.repositories.delete(gitDir);
      return undefined;
    }
    this.repositories.delete(gitDir);
    this.repositories.set(gitDir, repository);
    return listing.body;
  }

  /** Remembers what git answered to `request` for the repository in this state. */
  set(gitDir: string, fingerprint: string, request: string, body: Buffer, now = Date.now()): void {
    if (body.length > MAX_LISTING_BYTES) return;
    let repository = this.repositories.get(gitDir);
    if (repository && repository.fingerprint !== fingerprint) {
      this.drop(gitDir, repository);
      repository = undefined;
    }
    if (repository) {
      const previous = repository.listings.get(request);
      if (previous) this.remove(repository, request, previous);
      this.repositories.delete(gitDir);
    }
    repository ??= { fingerprint, listings: new Map() };
    const listing = {
      body,
      bytes: body.length + request.length + fingerprint.length,
      expiresAt: now + TTL_MS,
    };
    repository.listings.set(request, listing);
    this.repositories.set(gitDir, repository);
    this.entries += 1;
    this.bytes += listing.bytes;
    for (const [oldest, victim] of this.repositories) {
      if (this.entries <= MAX_ENTRIES && this.bytes <= MAX_BYTES) break;
      if (victim === repository) continue;
      this.drop(oldest, victim);
    }
    // Over its own bound (or alone over the global ones): its oldest listings go.
    for (const [key, victim] of repository.listings) {
      if (
        repository.listings.size <= MAX_PER_REPOSITORY &&
        this.entries <= MAX_ENTRIES &&
        this.bytes <= MAX_BYTES
      )
        break;
      this.remove(repository, key, victim);
    }
  }

  /** How many listings and bytes are held (for tests and diagnostics). */
  size(): { entries: number; bytes: number } {
    return { entries: this.entries, bytes: this.bytes };
  }

  /** Forgets everything. */
  clear(): void {
    this.repositories.clear();
    this.entries = 0;
    this.bytes = 0;
  }

  private drop(gitDir: string, repository: Repository): void {
    for (const listing of repository.listings.values()) {
      this.entries -= 1;
      this.bytes -= listing.bytes;
    }
    this.repositories.delete(gitDir);
  }

  private remove(repository: Repository, request: string, listing: Listing): void {
    repository.listings.delete(request);
    this.entries -= 1;
    this.bytes -= listing.bytes;
  }
}

/** The process's cache, shared by every call of `serviceRpc` that asks for it. */
export const refListingCache = new RefListingCache();
