import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApiResponse, call, type KilnProcess } from "@kiln/testkit";

/** What a runner of the 8.x era sends as its user agent (the API answers 204 for "no build" to it). */
export const RUNNER_AGENT = "gitlab-ci-multi-runner 1.8.0 (1-8-stable; go1.6.3; linux/amd64)";

/** A request to `/ci/api/v1`, as a runner sends it (form parameters, the runner's user agent). */
export function runnerCall<T = unknown>(
  server: KilnProcess,
  method: string,
  path: string,
  form: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<ApiResponse<T>> {
  return call<T>(server.url, {
    method,
    path: `${server.url}/ci/api/v1${path}`,
    form,
    headers: { "User-Agent": RUNNER_AGENT, ...headers },
  });
}

/** A zip archive made by Python's zipfile: `entries` maps names to contents; `links` to symlink targets. */
export function zipOf(entries: Record<string, string>, links: Record<string, string> = {}): Buffer {
  const dir = mkdtempSync(join(tmpdir(), "kiln-zip-"));
  try {
    const path = join(dir, "a.zip");
    const script = [
      "import json, sys, zipfile",
      "entries, links = json.loads(sys.argv[2]), json.loads(sys.argv[3])",
      "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:",
      "    for name, text in entries.items(): z.writestr(name, text)",
      "    for name, target in links.items():",
      "        info = zipfile.ZipInfo(name); info.external_attr = (0o120777 << 16); z.writestr(info, target)",
    ].join("\n");
    execFileSync("python3", ["-c", script, path, JSON.stringify(entries), JSON.stringify(links)]);
    return readFileSync(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A multipart body with one file part named `file`. */
export function multipartFile(content: Buffer, filename = "artifacts.zip"): { body: Buffer; type: string } {
  const boundary = `----kiln${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/zip\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, content, tail]), type: `multipart/form-data; boundary=${boundary}` };
}
