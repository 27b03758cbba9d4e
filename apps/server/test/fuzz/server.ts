import type { KilnProcess } from "@kiln/testkit";
import { outcomeLabel } from "./checks.js";
import { exchange, type FuzzRequest, type Outcome } from "./wire.js";

/** The server under fuzz, as the campaign watches it. */
export interface FuzzServer {
  port: number;
  /** Why the process is gone (`exit code 1`, `signal SIGSEGV`), or null while it runs. */
  exited(): string | null;
  /** The JSON log lines it printed so far. */
  logs: readonly Record<string, unknown>[];
  /** The end of what it wrote to stderr (a crash's stack). */
  stderr(): string;
}

/** How much of the server's stderr is kept. */
const STDERR_TAIL = 4096;

/** A test server as the campaign watches it (from now on: its stderr is read from here). */
export function fuzzServerOf(server: KilnProcess): FuzzServer {
  const child = server.process;
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
  });
  return {
    port: server.port,
    exited: () =>
      child.signalCode !== null
        ? `signal ${child.signalCode}`
        : child.exitCode !== null
          ? `exit code ${child.exitCode}`
          : null,
    logs: server.logs,
    stderr: () => stderr,
  };
}

/** What `GET /api/v3/user` answered, if it names the user. */
function usernameOf(outcome: Outcome): unknown {
  if (outcome.kind !== "answered" || outcome.status !== 200) return undefined;
  try {
    return (JSON.parse(outcome.body.toString("utf8")) as { username?: unknown }).username;
  } catch {
    return undefined;
  }
}

/** Whether the process runs and still serves root's `GET /api/v3/user`; what is wrong otherwise. */
export async function liveness(server: FuzzServer, token: string): Promise<string | null> {
  const gone = () => {
    const why = server.exited();
    return why ? `the server process is gone (${why})` : null;
  };
  if (gone()) return gone();
  const probe: FuzzRequest = {
    seed: 0,
    index: -1,
    family: "liveness",
    traits: [],
    method: "GET",
    target: "/api/v3/user",
    headers: [["PRIVATE-TOKEN", token]],
    body: Buffer.alloc(0),
  };
  const outcome = await exchange(probe, server.port);
  if (usernameOf(outcome) === "root") return null;
  // Refused: the process is going; give it a moment to be reaped, so that its exit code is known.
  for (let wait = 0; outcome.kind === "refused" && !gone() && wait < 20; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const body = outcome.kind === "answered" ? ` ${outcome.body.toString("utf8").slice(0, 200)}` : "";
  return gone() ?? `GET /api/v3/user as root no longer answers 200 (${outcomeLabel(outcome)}${body})`;
}
