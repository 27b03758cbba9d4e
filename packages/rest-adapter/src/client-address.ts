import type { IncomingMessage } from "node:http";

/**
 * The address a request came from, for throttling sign-ins: the socket's peer. Headers such as
 * `X-Forwarded-For` are not read, as any client can send them; Kiln has no setting that names a
 * trusted proxy, so behind one every client shares the proxy's address (and its limits).
 */
export function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}
