import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkArtifactsArchive } from "./zip-check.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A zip made by Python's zipfile: files (name → text, or a size of zeros) and symbolic links. */
function zip(files: Record<string, string | number>, links: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "kiln-zip-check-"));
  dirs.push(dir);
  const path = join(dir, "a.zip");
  const script = [
    "import json, sys, zipfile",
    "files, links = json.loads(sys.argv[2]), json.loads(sys.argv[3])",
    "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:",
    "    for name, content in files.items(): z.writestr(name, content if isinstance(content, str) else bytes(content))",
    "    for name, target in links.items():",
    "        info = zipfile.ZipInfo(name); info.external_attr = (0o120777 << 16); z.writestr(info, target)",
  ].join("\n");
  execFileSync("python3", ["-c", script, path, JSON.stringify(files), JSON.stringify(links)]);
  return path;
}

const check = (path: string) => checkArtifactsArchive(path, statSync(path).size);
const problem = (path: string) =>
  check(path).then(
    () => "ok",
    (error: { failure: { problem: string } }) => error.failure.problem,
  );

describe("artifacts archives", () => {
  it("takes a zip of files and links that stay inside", async () => {
    expect(
      await problem(zip({ "out/app": "binary", "out/lib/a.so": "x" }, { "out/current": "lib/a.so" })),
    ).toBe("ok");
  });

  it("refuses what is not a zip, paths and links leading out, and bombs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-zip-check-"));
    dirs.push(dir);
    writeFileSync(join(dir, "text.zip"), "just text, no central directory");
    expect(await problem(join(dir, "text.zip"))).toBe("not_zip");
    expect(await problem(zip({ "../evil": "x" }))).toBe("unsafe_path");
    expect(await problem(zip({ "/etc/passwd": "x" }))).toBe("unsafe_path");
    expect(await problem(zip({ "a/../../evil": "x" }))).toBe("unsafe_path");
    expect(await problem(zip({}, { "out/link": "../../etc" }))).toBe("unsafe_link");
    expect(await problem(zip({}, { "out/link": "/etc/passwd" }))).toBe("unsafe_link");
    // 50 MB of zeros deflates about a thousand to one.
    expect(await problem(zip({ "zeros.bin": 50 * 1024 * 1024 }))).toBe("too_large");
  });
});
