import type { ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import type { RawBody } from "./route.js";

/**
 * Writes a body that is not JSON. Bytes go in one piece. A stream is piped at the pace the client
 * reads; a client that goes away makes the pipeline destroy the stream, which stops its producer.
 * The response ends only once the producer says it finished well: otherwise it is cut off, so
 * that the client sees a broken transfer rather than a complete-looking truncated file.
 */
export async function sendRaw(res: ServerResponse, status: number, raw: RawBody): Promise<void> {
  const headers = { ...raw.headers };
  const { content } = raw;
  if (Buffer.isBuffer(content)) {
    headers["Content-Length"] = content.length;
    res.writeHead(status, headers);
    res.end(content);
    return;
  }
  res.writeHead(status, headers);
  try {
    await pipeline(content, res, { end: false });
    await raw.finished;
    res.end();
  } catch {
    content.destroy();
    res.destroy();
  }
}
