import type { Socket } from "node:net";
import { isAbsolute, join, normalize } from "node:path";
import { isNullSha, type RefUpdate } from "./types.js";

/** What the pre-receive hook sends the gate, once validated. */
export interface HookRequest {
  id: string;
  gitDir: string;
  updates: RefUpdate[];
  env: Record<string, string>;
}

const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
// What git lets through as a ref name: no spaces, no control characters, no `..`, `~^:?*[\`.
const REF = /^refs\/(?!.*\.\.)(?!.*[~^:?*[\\])[!-~\u0080-\uffff]+$/;

/** Reads the hook's one-line JSON request; undefined when it is too long or malformed. */
export function readHookRequest(connection: Socket): Promise<HookRequest | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: HookRequest | undefined) => {
      connection.off("data", onData);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      const newline = chunk.indexOf(0x0a);
      chunks.push(newline < 0 ? chunk : chunk.subarray(0, newline));
      size += chunk.length;
      if (newline >= 0) finish(parseHookRequest(Buffer.concat(chunks).toString("utf8")));
      else if (size > MAX_REQUEST_BYTES) finish(undefined);
    };
    connection.on("data", onData);
    connection.once("close", () => finish(undefined));
  });
}

/** Validates a request line from the hook. Kinds are worked out again from the values. */
export function parseHookRequest(line: string): HookRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { id, gitDir, updates, env } = value as Record<string, unknown>;
  if (typeof id !== "string" || typeof gitDir !== "string" || !Array.isArray(updates)) return undefined;
  const parsed: RefUpdate[] = [];
  for (const update of updates) {
    const valid = parseUpdate(update);
    if (!valid) return undefined;
    parsed.push(valid);
  }
  const strings: Record<string, string> = {};
  if (typeof env === "object" && env !== null) {
    for (const [key, item] of Object.entries(env)) if (typeof item === "string") strings[key] = item;
  }
  return { id, gitDir, updates: parsed, env: strings };
}

function parseUpdate(value: unknown): RefUpdate | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { ref, oldSha, newSha, forced } = value as Record<string, unknown>;
  if (typeof ref !== "string" || !REF.test(ref) || ref.endsWith(".lock")) return undefined;
  if (typeof oldSha !== "string" || typeof newSha !== "string") return undefined;
  if (!SHA.test(oldSha) || !SHA.test(newSha) || oldSha.length !== newSha.length) return undefined;
  if (isNullSha(oldSha) && isNullSha(newSha)) return undefined;
  const kind = isNullSha(oldSha) ? "create" : isNullSha(newSha) ? "delete" : "update";
  return { ref, oldSha, newSha, kind, forced: kind === "update" && forced !== false };
}

/**
 * The quarantine variables the hook saw, kept only when they point inside the repository's
 * object directory (where receive-pack puts its quarantine), so a callback reading objects with
 * them reads this push and this repository.
 */
export function quarantineEnv(env: Record<string, string>, gitDir: string): Record<string, string> {
  const objects = join(gitDir, "objects");
  const quarantine = clean(env.GIT_QUARANTINE_PATH);
  const objectDir = clean(env.GIT_OBJECT_DIRECTORY);
  const alternates = env.GIT_ALTERNATE_OBJECT_DIRECTORIES?.split(":").map(clean);
  if (quarantine === undefined || !quarantine.startsWith(`${objects}/`) || objectDir !== quarantine)
    return {};
  if (!alternates?.every((path) => path !== undefined)) return {};
  return {
    GIT_QUARANTINE_PATH: quarantine,
    GIT_OBJECT_DIRECTORY: quarantine,
    GIT_ALTERNATE_OBJECT_DIRECTORIES: alternates.join(":"),
  };
}

// An absolute path without the `.` and `..` segments git leaves in (`repo/./objects`).
function clean(path: string | undefined): string | undefined {
  if (path === undefined || !isAbsolute(path) || /[\n\0"]/.test(path)) return undefined;
  return normalize(path).replace(/\/+$/, "");
}
