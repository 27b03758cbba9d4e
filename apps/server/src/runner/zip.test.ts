import {
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { collectPaths } from "./project-paths.js";
import { extractZip, ZipRefused } from "./zip-read.js";
import { writeZip } from "./zip-write.js";

const scratch = mkdtempSync(join(tmpdir(), "kiln-zip-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let case_ = 0;
let root: string;
let dest: string;
let outside: string;
beforeEach(() => {
  case_++;
  root = join(scratch, `case-${case_}`, "project");
  dest = join(scratch, `case-${case_}`, "dest");
  outside = join(scratch, `case-${case_}`, "outside");
  for (const dir of [root, dest, outside]) mkdirSync(dir, { recursive: true });
});

/** A zip made with yazl from `entries`; `rename` then swaps same-length names in the raw bytes (yazl refuses hostile names). */
async function zipOf(
  entries: { name: string; data?: string | Buffer; mode?: number; dir?: boolean }[],
  rename: [string, string][] = [],
): Promise<string> {
  const zip = new ZipFile();
  const file = join(scratch, `case-${case_}`, `made-${Math.random()}.zip`);
  const written = pipeline(zip.outputStream, createWriteStream(file));
  for (const entry of entries) {
    if (entry.dir) zip.addEmptyDirectory(entry.name);
    else zip.addBuffer(Buffer.from(entry.data ?? ""), entry.name, entry.mode ? { mode: entry.mode } : {});
  }
  zip.end();
  await written;
  let bytes = readFileSync(file);
  for (const [from, to] of rename) {
    expect(from.length).toBe(to.length);
    bytes = Buffer.from(bytes.toString("latin1").split(from).join(to), "latin1");
  }
  writeFileSync(file, bytes);
  return file;
}

describe("writeZip then extractZip", () => {
  it("round-trips files, folders, the executable bit and links that stay inside", async () => {
    mkdirSync(join(root, "dist/bin"), { recursive: true });
    writeFileSync(join(root, "dist/app.js"), "console.log(1)\n");
    writeFileSync(join(root, "dist/bin/run"), "#!/bin/sh\necho run\n", { mode: 0o755 });
    mkdirSync(join(root, "dist/empty"));
    symlinkSync("app.js", join(root, "dist/latest.js"));
    writeFileSync(join(root, "ignored.txt"), "not named");
    const { paths, warnings } = await collectPaths(root, ["dist"], false);
    expect(warnings).toEqual([]);
    expect(paths).toEqual([
      "dist",
      "dist/app.js",
      "dist/bin",
      "dist/bin/run",
      "dist/empty",
      "dist/latest.js",
    ]);
    const file = join(scratch, `case-${case_}`, "out.zip");
    expect(await writeZip(root, paths, file)).toBe(6);

    expect(await extractZip(file, dest)).toBe(6);
    expect(readFileSync(join(dest, "dist/app.js"), "utf8")).toBe("console.log(1)\n");
    expect(lstatSync(join(dest, "dist/bin/run")).mode & 0o111).not.toBe(0);
    expect(lstatSync(join(dest, "dist/empty")).isDirectory()).toBe(true);
    expect(readlinkSync(join(dest, "dist/latest.js"))).toBe("app.js");
    expect(existsSync(join(dest, "ignored.txt"))).toBe(false);
  });

  it("collects globs (`*`, `**`), warns for paths outside the project or matching nothing, and never follows a link out", async () => {
    mkdirSync(join(root, "a/b"), { recursive: true });
    writeFileSync(join(root, "a/one.log"), "1");
    writeFileSync(join(root, "a/b/two.log"), "2");
    writeFileSync(join(root, "a/b/keep.txt"), "3");
    writeFileSync(join(outside, "secret.log"), "secret");
    symlinkSync(outside, join(root, "linked"));
    const { paths, warnings } = await collectPaths(
      root,
      ["a/*.log", "**/two.log", "../outside/secret.log", "linked/secret.log", "missing/"],
      false,
    );
    expect(paths).toEqual(["a/b/two.log", "a/one.log"]);
    expect(warnings).toEqual([
      "../outside/secret.log: outside the project directory, skipped",
      "linked/secret.log: no matching files",
      "missing/: no matching files",
    ]);
  });
});

describe("extractZip refuses hostile archives and writes nothing outside its folder", () => {
  it("an entry named with `..`", async () => {
    const file = await zipOf(
      [{ name: "xx/escaped.txt", data: "pwned" }],
      [["xx/escaped.txt", "../escaped.txt"]],
    );
    await expect(extractZip(file, dest)).rejects.toThrow(ZipRefused);
    expect(existsSync(join(dest, "../escaped.txt"))).toBe(false);
  });

  it("an entry with an absolute name", async () => {
    const target = join(outside, "abs.txt");
    const placeholder = `x${target.slice(1)}`;
    const file = await zipOf([{ name: placeholder, data: "pwned" }], [[placeholder, target]]);
    await expect(extractZip(file, dest)).rejects.toThrow(ZipRefused);
    expect(existsSync(target)).toBe(false);
  });

  it("a link pointing out of the folder", async () => {
    const file = await zipOf([{ name: "link", data: outside, mode: 0o120777 }]);
    await expect(extractZip(file, dest)).rejects.toThrow(/link pointing outside/);
    expect(existsSync(join(dest, "link"))).toBe(false);
    const relative = await zipOf([{ name: "a/link", data: "../../outside", mode: 0o120777 }]);
    await expect(extractZip(relative, dest)).rejects.toThrow(/link pointing outside/);
  });

  it("an entry below a link already in the folder (a checkout's symlink), and a link at a file's place", async () => {
    symlinkSync(outside, join(dest, "out"));
    const below = await zipOf([{ name: "out/planted.txt", data: "pwned" }]);
    await expect(extractZip(below, dest)).rejects.toThrow(/below a link/);
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);

    writeFileSync(join(outside, "target.txt"), "original");
    symlinkSync(join(outside, "target.txt"), join(dest, "file.txt"));
    await extractZip(await zipOf([{ name: "file.txt", data: "replaced" }]), dest);
    expect(readFileSync(join(outside, "target.txt"), "utf8")).toBe("original");
    expect(lstatSync(join(dest, "file.txt")).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dest, "file.txt"), "utf8")).toBe("replaced");
  });

  it("an archive that unpacks past its bounds (a zip bomb) or has too many entries", async () => {
    const bomb = await zipOf([{ name: "zeros.bin", data: Buffer.alloc(8 * 1024 * 1024) }]);
    expect(readFileSync(bomb).length).toBeLessThan(64 * 1024);
    await expect(extractZip(bomb, dest, { maxEntries: 10, maxBytes: 1024 * 1024 })).rejects.toThrow(
      /more than 1048576 bytes/,
    );
    expect(existsSync(join(dest, "zeros.bin"))).toBe(false);
    const many = await zipOf(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, data: "x" })));
    await expect(extractZip(many, dest, { maxEntries: 3, maxBytes: 1024 })).rejects.toThrow(
      /more than 3 entries/,
    );
  });

  it("a file that is not a zip", async () => {
    const file = join(scratch, `case-${case_}`, "not.zip");
    writeFileSync(file, "this is not a zip archive at all");
    await expect(extractZip(file, dest)).rejects.toThrow(/not a zip archive/);
  });
});
