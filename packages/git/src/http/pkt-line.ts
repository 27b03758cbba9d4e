/** The flush packet (`0000`) that ends a section of pkt-lines. */
export const PKT_FLUSH = "0000";

/** Largest pkt-line git sends or accepts, header included. */
export const PKT_MAX = 65520;

/** One pkt-line with its 4-hex-digit length header. */
export function pktLine(payload: string | Buffer): Buffer {
  const body = typeof payload === "string" ? Buffer.from(payload, "utf8") : payload;
  const length = body.length + 4;
  if (length > PKT_MAX) throw new RangeError(`pkt-line of ${length} bytes is longer than ${PKT_MAX}`);
  return Buffer.concat([Buffer.from(length.toString(16).padStart(4, "0"), "ascii"), body]);
}

/** A packet read from a pkt-line stream: data, or one of the special packets of protocol v2. */
export type Packet =
  | { type: "data"; payload: Buffer }
  | { type: "flush" }
  | { type: "delim" }
  | { type: "response-end" };

/**
 * An incremental pkt-line reader: feed it chunks as they arrive, get back the complete packets.
 * It keeps at most one partial packet (< 64 KiB). A malformed header puts it in a failed state
 * in which it ignores further input.
 */
export class PktLineReader {
  private pending: Buffer = Buffer.alloc(0);
  private broken = false;

  /** True once a malformed length header was seen. */
  get failed(): boolean {
    return this.broken;
  }

  /** Adds a chunk and answers the packets it completes. */
  push(chunk: Buffer): Packet[] {
    if (this.broken) return [];
    let buffer = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const packets: Packet[] = [];
    while (buffer.length >= 4) {
      const header = buffer.toString("ascii", 0, 4);
      const length = /^[0-9a-f]{4}$/.test(header) ? Number.parseInt(header, 16) : -1;
      if (length === 0) packets.push({ type: "flush" });
      else if (length === 1) packets.push({ type: "delim" });
      else if (length === 2) packets.push({ type: "response-end" });
      else if (length < 4 || length > PKT_MAX) {
        this.broken = true;
        this.pending = Buffer.alloc(0);
        return packets;
      } else if (buffer.length < length) break;
      else packets.push({ type: "data", payload: buffer.subarray(4, length) });
      buffer = buffer.subarray(Math.max(4, length));
    }
    this.pending = Buffer.from(buffer);
    return packets;
  }
}
