import type { Dirent } from "node:fs";
import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** Something a killed git or Kiln process may have left in a repository or the repositories root. */
export interface Leftover {
  path: string;
  /** A lock file (removed only if it is still the file judged), a file, or a whole directory. */
  kind: "lock" | "file" | "directory";
  /** When it was last written (for a directory, the newest mtime inside it). */
  written: number;
}

async function entries(dir: string): Promise<Dirent[]> {
  return readdir(dir, { withFileTypes: true }).catch(() => []);
}

async function mtime(path: string): Promise<number | undefined> {
  return (await lstat(path).catch(() => undefined))?.mtimeMs;
}

/** The newest mtime of a directory and everything in it (a directory being filled is in use). */
export async function newestWrite(path: string): Promise<number> {
  let newest = (await mtime(path)) ?? 0;
  for (const entry of await entries(path)) {
    const inner = join(path, entry.name);
    const time = entry.isDirectory() ? await newestWrite(inner) : await mtime(inner);
    newest = Math.max(newest, time ?? 0);
  }
  return newest;
}

async function file(path: string, kind: "lock" | "file"): Promise<Leftover | undefined> {
  const written = await mtime(path);
  return written === undefined ? undefined : { path, kind, written };
}

async function directory(path: string): Promise<Leftover> {
  return { path, kind: "directory", written: await newestWrite(path) };
}

/** `*.lock` files anywhere under `refs/`: a loose ref's lock. */
async function refLocks(dir: string): Promise<Leftover[]> {
  const found: Leftover[] = [];
  for (const entry of await entries(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await refLocks(path)));
    else if (entry.name.endsWith(".lock")) {
      const lock = await file(path, "lock");
      if (lock) found.push(lock);
    }
  }
  return found;
}

// Files git writes under a temporary name and renames into place: a loose object
// (`objects/ab/tmp_obj_*`), a pack and its index (`objects/pack/tmp_pack_*`, `tmp_idx_*`…, and
// repack's `.tmp-<pid>-pack-*`).
const TEMPORARY_OBJECT = /^(tmp_|\.tmp-)/;
// receive-pack's quarantine: `tmp_objdir-incoming-*` (git 2.33 and later), `incoming-*` before.
const QUARANTINE = /^(tmp_objdir-|incoming-)/;
const FAN_OUT = /^[0-9a-f]{2}$/;
// A pack receive-pack keeps (`index-pack --keep`) until the refs are updated: "receive-pack <pid> on <host>".
const RECEIVE_KEEP = /^receive-pack \d+ on /;

async function objectLeftovers(objects: string): Promise<Leftover[]> {
  const found: (Leftover | undefined)[] = [];
  for (const entry of await entries(objects)) {
    const path = join(objects, entry.name);
    if (!entry.isDirectory()) continue;
    if (QUARANTINE.test(entry.name)) found.push(await directory(path));
    else if (FAN_OUT.test(entry.name) || entry.name === "pack") {
      for (const inner of await entries(path)) {
        const innerPath = join(path, inner.name);
        if (!inner.isFile()) continue;
        if (TEMPORARY_OBJECT.test(inner.name)) found.push(await file(innerPath, "file"));
        else if (entry.name === "pack" && inner.name.endsWith(".keep")) {
          const text = await readFile(innerPath, "utf8").catch(() => "");
          if (RECEIVE_KEEP.test(text)) found.push(await file(innerPath, "file"));
        }
      }
    }
  }
  return found.filter((leftover) => leftover !== undefined);
}

// Locks of a bare repository's own files (and the packed refs git writes while it holds
// packed-refs.lock); Kiln's temporary index files (see `files.ts`) and theirs.
const REPOSITORY_LOCKS = ["HEAD.lock", "config.lock", "packed-refs.lock", "packed-refs.new"];
const TEMPORARY_INDEX = /^kiln-index-[0-9a-f]+(\.lock)?$/;

/** What a killed git or Kiln process may have left in the bare repository `gitDir`. */
export async function repositoryLeftovers(gitDir: string): Promise<Leftover[]> {
  const found: (Leftover | undefined)[] = [];
  for (const entry of await entries(gitDir)) {
    const path = join(gitDir, entry.name);
    if (!entry.isFile()) continue;
    if (REPOSITORY_LOCKS.includes(entry.name)) found.push(await file(path, "lock"));
    else if (TEMPORARY_INDEX.test(entry.name)) found.push(await file(path, "file"));
  }
  found.push(...(await refLocks(join(gitDir, "refs"))), ...(await objectLeftovers(join(gitDir, "objects"))));
  return found.filter((leftover) => leftover !== undefined);
}

// `RepositoryStore` builds a repository as `.tmp-<id>-<hex>.git` and removes one as `.trash-<id>-<hex>`.
const STORE_SCRATCH = /^\.(tmp|trash)-\d+-[0-9a-f]+(\.git)?$/;
const REPOSITORY = /^[1-9]\d*\.git$/;

/** The repositories under `root`, and the directories a killed `RepositoryStore` left there. */
export async function rootContents(root: string): Promise<{ repositories: string[]; leftovers: Leftover[] }> {
  const repositories: string[] = [];
  const leftovers: Leftover[] = [];
  for (const entry of await entries(root)) {
    if (!entry.isDirectory()) continue;
    const path = join(root, entry.name);
    if (REPOSITORY.test(entry.name)) repositories.push(path);
    else if (STORE_SCRATCH.test(entry.name)) leftovers.push(await directory(path));
  }
  return { repositories, leftovers };
}
