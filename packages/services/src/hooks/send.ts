import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import { type CheckedAddress, checkedAddress, RefusedAddress } from "./address-guard.js";

/** One POST of a delivery. */
export interface HookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  verifyTls: boolean;
  allowLocal: boolean;
  timeoutMs: number;
  /** How many bytes of the response are read (the rest is dropped with the connection). */
  responseCapBytes: number;
}

/**
 * How a POST went: `delivered` (2xx), `retry` (no answer, a timeout, 5xx), `final` (any other
 * status, a refused address, an unusable URL).
 */
export interface HookResponse {
  outcome: "delivered" | "retry" | "final";
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * Connections kept open between deliveries, pooled by the checked address (the request's `host`)
 * rather than by name: a connection is only reused for an address that was just checked again.
 * Idle ones close after 4 s, before receivers' usual 5 s keep-alive ends.
 */
const AGENTS = {
  "http:": new http.Agent({ keepAlive: true, timeout: 4_000, maxFreeSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, timeout: 4_000, maxFreeSockets: 64 }),
};

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

function outcomeOf(status: number): HookResponse["outcome"] {
  if (status >= 200 && status < 300) return "delivered";
  return status >= 500 ? "retry" : "final";
}

/**
 * POSTs a delivery with node's HTTP client: to the address {@link checkedAddress} allowed (a
 * custom `lookup`, so the name is not resolved again), the URL's user and password as basic
 * auth, no redirect followed, TLS certificates checked unless `verifyTls` is false, everything
 * over in `timeoutMs`, and at most `responseCapBytes` of the response read. Never rejects.
 */
export async function sendHook(request: HookRequest): Promise<HookResponse> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (outcome: "retry" | "final", error: string): HookResponse => ({
    outcome,
    status: null,
    headers: null,
    body: null,
    error,
    durationMs: elapsed(),
  });
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failed("final", "the hook's URL is not valid");
  }
  let pinned: CheckedAddress;
  try {
    pinned = await checkedAddress(url.hostname, request.allowLocal);
  } catch (error) {
    if (error instanceof RefusedAddress) return failed("final", `refused: ${error.message}`);
    throw error;
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const secure = url.protocol === "https:";
  const client = secure ? https : http;
  const auth =
    url.username === ""
      ? undefined
      : `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return new Promise<HookResponse>((resolve) => {
    let settled = false;
    const finish = (response: HookResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(response);
    };
    const req = client.request({
      method: "POST",
      protocol: url.protocol,
      // The checked address itself: the name is not resolved again (no DNS rebinding between the
      // check and the connection), and `Host` and TLS still name the host.
      host: pinned.address,
      family: pinned.family,
      port: url.port === "" ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: {
        ...request.headers,
        Host: url.host,
        "Content-Length": String(Buffer.byteLength(request.body)),
      },
      auth,
      agent: AGENTS[secure ? "https:" : "http:"],
      rejectUnauthorized: request.verifyTls,
      ...(secure && pinned.address !== hostname ? { servername: hostname } : {}),
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish(failed("retry", `timed out after ${request.timeoutMs} ms`));
    }, request.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => finish(failed("retry", error.code ?? error.message)));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const status = res.statusCode ?? 0;
        finish({
          outcome: outcomeOf(status),
          status,
          headers: flatHeaders(res.headers),
          body: Buffer.concat(chunks).subarray(0, request.responseCapBytes).toString("utf8"),
          error: status >= 300 && status < 400 ? "redirects are not followed" : null,
          durationMs: elapsed(),
        });
      };
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size < request.responseCapBytes) return;
        done();
        // The rest is not read: the connection goes with it rather than back to the pool.
        res.destroy();
      });
      // A response read to its end leaves its connection to the next delivery.
      res.on("end", done);
      res.on("error", done);
    });
    req.end(request.body);
  });
}
