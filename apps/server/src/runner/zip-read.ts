import { createWriteStream } from "node:fs";
import { mkdir, rm, symlink } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Entry, openPromise, type ZipFile } from "yauzl";
import { throughLink } from "./project-paths.js";

/** An archive that is refused: not a zip, an entry that would land outside, or past the bounds. */
export class ZipRefused extends Error {}

/** How much an archive may unpack to; a zip bomb stops at the first bound it passes. */
export interface ZipBounds {
  maxEntries: number;
  maxBytes: number;
}

export const DEFAULT_ZIP_BOUNDS: ZipBounds = { maxEntries: 100_000, maxBytes: 4 * 1024 ** 3 };

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;
/** Longest link target read from an archive. */
const MAX_LINK_TARGET = 4096;

/**
 * Unpacks the zip at `file` into `root`, refusing (with {@link ZipRefused}) anything that would
 * write outside it: absolute names and `..` (yauzl refuses those itself), an entry below a link,
 * a link whose target leaves `root`. Sizes are checked as the data is inflated (yauzl compares
 * them with the declared ones), and the total against `bounds`. An existing file or link at an
 * entry's place is replaced, never written through. Answers how many entries were unpacked.
 */
export async function extractZip(
  file: string,
  root: string,
  bounds: ZipBounds = DEFAULT_ZIP_BOUNDS,
): Promise<number> {
  let zip: ZipFile;
  try {
    zip = await openPromise(file, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true });
  } catch (error) {
    throw new ZipRefused(`not a zip archive: ${(error as Error).message}`);
  }
  const budget = { entries: 0, bytes: 0 };
  try {
    for await (const entry of entriesOf(zip)) {
      if (++budget.entries > bounds.maxEntries)
        throw new ZipRefused(`more than ${bounds.maxEntries} entries`);
      budget.bytes += entry.uncompressedSize;
      if (budget.bytes > bounds.maxBytes)
        throw new ZipRefused(`unpacks to more than ${bounds.maxBytes} bytes`);
      await extractEntry(zip, entry, root);
    }
  } finally {
    zip.close();
  }
  return budget.entries;
}

/** The entries of a zip, one at a time; a broken entry (bad name, bad sizes) is a {@link ZipRefused}. */
async function* entriesOf(zip: ZipFile): AsyncGenerator<Entry> {
  try {
    for await (const entry of zip.eachEntry()) yield entry;
  } catch (error) {
    if (error instanceof ZipRefused) throw error;
    throw new ZipRefused((error as Error).message);
  }
}

async function extractEntry(zip: ZipFile, entry: Entry, root: string): Promise<void> {
  const name = entry.fileName.replace(/\/+$/, "");
  const target = join(root, name);
  if (name === "" || !isInside(root, target)) throw new ZipRefused(`${entry.fileName}: outside the folder`);
  if (await throughLink(root, name)) throw new ZipRefused(`${entry.fileName}: below a link`);
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (entry.fileName.endsWith("/") || type === S_IFDIR) {
    await mkdir(target, { recursive: true });
    return;
  }
  await mkdir(dirname(target), { recursive: true });
  await rm(target, { recursive: true, force: true });
  const data = await openEntry(zip, entry);
  if (type === S_IFLNK) {
    const link = (await readSmall(data, MAX_LINK_TARGET)).toString("utf8");
    if (isAbsolute(link) || !isInside(root, resolve(dirname(target), link)))
      throw new ZipRefused(`${entry.fileName}: a link pointing outside the folder (${link})`);
    await symlink(link, target);
    return;
  }
  const mode = (entry.externalFileAttributes >>> 16) & 0o777 || 0o644;
  try {
    await pipeline(data, createWriteStream(target, { flags: "wx", mode: mode | 0o600 }));
  } catch (error) {
    throw new ZipRefused(`${entry.fileName}: ${(error as Error).message}`);
  }
}

async function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  try {
    return await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw new ZipRefused(`${entry.fileName}: ${(error as Error).message}`);
  }
}

async function readSmall(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    length += (chunk as Buffer).length;
    if (length > limit) {
      stream.destroy();
      throw new ZipRefused(`a link target longer than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function isInside(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === "" || (rel.split(sep)[0] !== ".." && !isAbsolute(rel));
}
