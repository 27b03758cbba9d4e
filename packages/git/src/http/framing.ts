import { Transform, type TransformCallback } from "node:stream";
import { BodyError } from "./body-error.js";
import { PKT_MAX } from "./pkt-line.js";

/**
 * How much of a request body is pkt-lines: all of it (an upload-pack request), or its commands up
 * to the first flush packet (a receive-pack request, whose pack follows as raw bytes).
 */
export type Framing = "pkt-lines" | "commands";

const HEADER = /^[0-9a-fA-F]{4}$/;

/**
 * Passes a request body through unchanged while checking its pkt-line framing as git would read
 * it: a length header that is not four hex digits, a length git refuses (3, or over
 * {@link PKT_MAX}), or a body that ends inside a packet fails the stream with a
 * {@link BodyError} (`malformed`), so that a client's garbage answers 400 instead of reaching git.
 * What the packets say is left to git. Nothing is buffered but a partial header.
 */
export class PktLineFraming extends Transform {
  private header = "";
  private remaining = 0;
  private checked = false;

  constructor(private readonly framing: Framing) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let at = 0;
    while (at < chunk.length && !this.checked) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - at);
        this.remaining -= take;
        at += take;
        continue;
      }
      const part = chunk.toString("latin1", at, at + 4 - this.header.length);
      this.header += part;
      at += part.length;
      if (this.header.length < 4) break;
      const problem = this.packet(this.header);
      this.header = "";
      if (problem) {
        callback(new BodyError("malformed", `protocol error: ${problem}`));
        return;
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const inside = !this.checked && (this.header.length > 0 || this.remaining > 0);
    callback(
      inside ? new BodyError("malformed", "protocol error: the request ends inside a pkt-line") : null,
    );
  }

  /** Reads one length header; answers what is wrong with it, if anything. */
  private packet(header: string): string | undefined {
    if (!HEADER.test(header)) return "bad pkt-line length header";
    const length = Number.parseInt(header, 16);
    if (length === 0) this.checked = this.framing === "commands";
    else if (length === 3 || length > PKT_MAX) return `bad pkt-line length ${length}`;
    else if (length > 3) this.remaining = length - 4;
    return undefined; // 0001 and 0002 (delimiter, response end) carry nothing
  }
}
