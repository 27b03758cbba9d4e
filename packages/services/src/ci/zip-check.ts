import { open } from "node:fs/promises";
import { posix } from "node:path";
import { inflateRawSync } from "node:zlib";
import { badRequest } from "@kiln/domain";

/** The most an artifacts archive may unpack to, in bytes (declared sizes). */
export const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** The highest compression ratio an entry past {@link RATIO_FLOOR} may declare (a zip bomb's mark). */
export const MAX_RATIO = 200;
const RATIO_FLOOR = 1024 * 1024;
const MAX_ENTRIES = 100_000;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

type Problem = "not_zip" | "unsafe_path" | "unsafe_link" | "too_large";
const refuse = (problem: Problem) => badRequest({ reason: "artifacts_invalid", problem });

/** True when a path inside the archive is absolute or leads out of it. */
function leadsOut(path: string): boolean {
  if (path.startsWith("/") || path.includes("\\") || /^[A-Za-z]:/.test(path)) return true;
  return posix.normalize(path).split("/")[0] === "..";
}

/**
 * Checks an artifacts archive before it is kept: a zip (its central directory read, nothing
 * unpacked) whose entries all stay inside the folder it unpacks into (no absolute path, no `..`,
 * no symbolic link pointing out), with at most {@link MAX_UNPACKED_BYTES} declared in all and no
 * entry compressed past {@link MAX_RATIO} to one (zip bombs). Throws `artifacts_invalid`.
 */
export async function checkArtifactsArchive(path: string, size: number): Promise<void> {
  const file = await open(path, "r");
  try {
    const read = async (position: number, length: number): Promise<Buffer> => {
      if (position < 0 || length < 0 || position + length > size) throw refuse("not_zip");
      const buffer = Buffer.alloc(length);
      await file.read(buffer, 0, length, position);
      return buffer;
    };
    const tailLength = Math.min(size, 22 + 65_535);
    const tail = await read(size - tailLength, tailLength);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw refuse("not_zip");
    const entries = tail.readUInt16LE(eocd + 10);
    const directorySize = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    if (entries > MAX_ENTRIES) throw refuse("too_large");
    const directory = await read(directoryOffset, directorySize);
    let at = 0;
    let unpacked = 0;
    for (let n = 0; n < entries; n++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL) throw refuse("not_zip");
      const method = directory.readUInt16LE(at + 10);
      const compressed = directory.readUInt32LE(at + 20);
      const uncompressed = directory.readUInt32LE(at + 24);
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const mode = directory.readUInt32LE(at + 38) >>> 16;
      const localOffset = directory.readUInt32LE(at + 42);
      const name = directory.subarray(at + 46, at + 46 + nameLength).toString("utf8");
      at += 46 + nameLength + extraLength + commentLength;
      if (name === "" || leadsOut(name)) throw refuse("unsafe_path");
      unpacked += uncompressed;
      if (unpacked > MAX_UNPACKED_BYTES) throw refuse("too_large");
      if (uncompressed > RATIO_FLOOR && uncompressed > MAX_RATIO * Math.max(compressed, 1))
        throw refuse("too_large");
      if ((mode & S_IFMT) === S_IFLNK) {
        const target = await linkTarget(read, localOffset, method, compressed);
        if (leadsOut(posix.join(posix.dirname(name), target)) || target.startsWith("/"))
          throw refuse("unsafe_link");
      }
    }
  } finally {
    await file.close();
  }
}

/** A symbolic link entry's target (its content), stored or deflated; at most 4 KiB. */
async function linkTarget(
  read: (position: number, length: number) => Promise<Buffer>,
  localOffset: number,
  method: number,
  compressed: number,
): Promise<string> {
  if (compressed > 4096) throw refuse("unsafe_link");
  const header = await read(localOffset, 30);
  if (header.readUInt32LE(0) !== LOCAL) throw refuse("not_zip");
  const data = await read(localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28), compressed);
  if (method === 0) return data.toString("utf8");
  if (method !== 8) throw refuse("unsafe_link");
  try {
    return inflateRawSync(data, { maxOutputLength: 4096 }).toString("utf8");
  } catch {
    throw refuse("unsafe_link");
  }
}
