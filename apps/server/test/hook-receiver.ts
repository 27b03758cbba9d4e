import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { until } from "./crash-support.js";

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
  /** Set when the receiver's answer was sent (never, for a request it hangs on). */
  answered: boolean;
}

/** How the receiver answers a path: statuses in turn (the last repeats), or never ("hang"). */
export type Answer = number[] | "hang";

/** A webhook receiver on loopback that records what it gets. */
export interface Receiver {
  /** `http(s)://127.0.0.1:<port>`. */
  url: string;
  port: number;
  received: Received[];
  /** How `path` answers from now on (default: 200). */
  answer(path: string, answer: Answer): void;
  /** The requests to `path` (all paths when omitted). */
  at(path?: string): Received[];
  /** Waits until `path` has received `count` requests; answers them. */
  waitFor(path: string, count?: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

function listen(server: Server, protocol: "http" | "https"): Promise<Receiver> {
  const received: Received[] = [];
  const answers = new Map<string, Answer>();
  const hanging = new Set<ServerResponse>();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      const entry: Received = {
        path,
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>,
        answered: false,
      };
      received.push(entry);
      const answer = answers.get(path) ?? [200];
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      const status = answer.length > 1 ? (answer.shift() as number) : (answer[0] as number);
      res.writeHead(status, { "content-type": "text/plain", "x-receiver": "yes" });
      res.end(`answered ${status}`);
      entry.answered = true;
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      const at = (path?: string) => received.filter((entry) => path === undefined || entry.path === path);
      resolve({
        url: `${protocol}://127.0.0.1:${port}`,
        port,
        received,
        answer: (path, answer) => answers.set(path, Array.isArray(answer) ? [...answer] : answer),
        at,
        waitFor: async (path, count = 1, ms = 20_000) => {
          await until(() => at(path).length >= count, ms);
          return at(path);
        },
        close: () =>
          new Promise((done) => {
            for (const res of hanging) res.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Starts an HTTP receiver on 127.0.0.1. */
export function startReceiver(): Promise<Receiver> {
  return listen(createHttpServer(), "http");
}

/** Starts an HTTPS receiver on 127.0.0.1 with a self-signed certificate made by openssl. */
export function startTlsReceiver(): Promise<Receiver> {
  const dir = mkdtempSync(join(tmpdir(), "kiln-tls-"));
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"].concat([
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ]),
      { stdio: "ignore" },
    );
    const server = createHttpsServer({
      key: readFileSync(join(dir, "key.pem")),
      cert: readFileSync(join(dir, "cert.pem")),
    });
    return listen(server, "https");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
