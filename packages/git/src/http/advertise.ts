import { DEFAULT_GIT_TIMEOUT_MS } from "../exec.js";
import { capabilityCache } from "./capabilities.js";
import { checkGitDir, configArgs } from "./git-args.js";
import { PKT_FLUSH, pktLine } from "./pkt-line.js";
import {
  advertisementContentType,
  type GitService,
  NO_CACHE_HEADERS,
  sanitizeGitProtocol,
  serviceCommand,
  wantsProtocolV2,
} from "./service.js";
import { type GitHttpResponse, type GitHttpResult, streamGit } from "./stream.js";

/** Options of {@link advertiseRefs}. */
export interface AdvertiseRefsOptions {
  /** The client's `Git-Protocol` header, as received (it is sanitized here). */
  gitProtocol?: string | string[] | undefined;
  /** Time limit of the git process (default 60 s). */
  timeoutMs?: number;
  /** Kills git when aborted. */
  signal?: AbortSignal;
  /** Server-chosen git settings for this service (`uploadpack.allowFilter: "true"`…). */
  gitConfig?: Readonly<Record<string, string>>;
  /**
   * Serve a protocol v2 advertisement (capabilities only, no refs) from memory when git gave the
   * same one for the same settings and repository configuration within the last minute, instead
   * of starting git (see {@link CapabilityCache}). Protocol v0 and receive-pack always run git.
   */
  cacheCapabilities?: boolean;
}

/**
 * Answers `GET …/info/refs?service=<service>` for the repository at `gitDir` (an absolute path
 * the caller resolved and authorized): 200 with `application/x-<service>-advertisement`,
 * no-cache headers, the `# service=…` pkt-line and flush (protocol v0/v1; protocol v2 has none),
 * then `git <service> --stateless-rpc --advertise-refs`. Status decisions before that (401, 404)
 * are the caller's; a git failure before any output answers 500. Never rejects once started.
 */
export async function advertiseRefs(
  gitDir: string,
  service: GitService,
  res: GitHttpResponse,
  options: AdvertiseRefsOptions = {},
): Promise<GitHttpResult> {
  checkGitDir(gitDir);
  const command = serviceCommand(service);
  const protocol = sanitizeGitProtocol(options.gitProtocol);
  const v2 = command === "upload-pack" && wantsProtocolV2(protocol);
  const strict = command === "upload-pack" ? ["--strict"] : [];
  const settings = configArgs(options.gitConfig);
  const headers = { ...NO_CACHE_HEADERS, "Content-Type": advertisementContentType(service) };
  const key =
    v2 && options.cacheCapabilities
      ? await capabilityCache.key(gitDir, [...settings, protocol ?? ""])
      : undefined;
  const cached = key === undefined ? undefined : capabilityCache.get(key);
  if (cached) {
    res.writeHead(200, { ...headers, "Content-Length": cached.length });
    res.end(cached);
    return { ok: true, exitCode: 0, stderr: "" };
  }
  const output: Buffer[] = [];
  const result = await streamGit({
    args: [...settings, command, "--stateless-rpc", "--advertise-refs", ...strict, gitDir],
    env: { GIT_PROTOCOL: protocol },
    timeoutMs: options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    signal: options.signal,
    res,
    headers,
    prefix: v2 ? undefined : Buffer.concat([pktLine(`# service=${service}\n`), Buffer.from(PKT_FLUSH)]),
    onOutput: key === undefined ? undefined : (chunk) => output.push(chunk),
  });
  if (key !== undefined && result.ok) capabilityCache.set(key, Buffer.concat(output));
  return result;
}
