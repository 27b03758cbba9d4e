import { createWriteStream } from "node:fs";
import { lstat, readlink } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { ZipFile } from "yazl";

/**
 * Writes `paths` (relative to `root`, "/"-separated, as {@link collectPaths} answers them) into a
 * zip at `file`: files with their mode (the executable bit survives), folders, and links as links
 * (their target as content, mode 0120777, as GitLab runner's archives hold them). A path that is
 * gone by now is left out. Answers how many entries were written.
 */
export async function writeZip(root: string, paths: readonly string[], file: string): Promise<number> {
  const zip = new ZipFile();
  const written = pipeline(zip.outputStream, createWriteStream(file));
  let entries = 0;
  try {
    for (const path of paths) {
      const absolute = join(root, path);
      const stats = await lstat(absolute).catch(() => null);
      if (!stats) continue;
      const options = { mtime: stats.mtime, mode: stats.mode };
      if (stats.isSymbolicLink()) zip.addBuffer(Buffer.from(await readlink(absolute)), path, options);
      else if (stats.isDirectory()) zip.addEmptyDirectory(path, options);
      else if (stats.isFile()) zip.addFile(absolute, path, options);
      else continue; // sockets, fifos, devices: nothing a build hands on
      entries++;
    }
  } finally {
    zip.end();
  }
  await written;
  return entries;
}
