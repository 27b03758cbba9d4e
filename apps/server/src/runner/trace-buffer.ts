/** GitLab runner's default `output_limit`: 4096 KiB of trace per build. */
export const DEFAULT_TRACE_LIMIT = 4096 * 1024;

/**
 * A build's trace as it is written: bytes appended in order, up to `limit`. Past the limit the
 * rest of the output is dropped and one note says so (as GitLab runner does), so a build that
 * prints without end cannot fill the server or the runner's memory.
 */
export class TraceBuffer {
  private bytes: Buffer = Buffer.alloc(64 * 1024);
  private used = 0;
  private full = false;

  constructor(readonly limit: number = DEFAULT_TRACE_LIMIT) {}

  get length(): number {
    return this.used;
  }

  /** Whether output was dropped past the limit. */
  get truncated(): boolean {
    return this.full;
  }

  /** Appends output; past the limit, cuts it (at a character boundary) and adds the note once. */
  write(chunk: Buffer | string): void {
    if (this.full) return;
    const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    const room = this.limit - this.used;
    if (data.length <= room) {
      this.append(data);
      return;
    }
    this.append(data.subarray(0, utf8Boundary(data, room)));
    this.append(Buffer.from(`\n\x1b[31;1mBuild log exceeded limit of ${this.limit} bytes.\x1b[0;m\n`));
    this.full = true;
  }

  /** The bytes from `offset` to the end (a copy: later writes do not change it). */
  from(offset: number): Buffer {
    return Buffer.from(this.bytes.subarray(Math.min(offset, this.used), this.used));
  }

  toString(): string {
    return this.bytes.toString("utf8", 0, this.used);
  }

  private append(data: Buffer): void {
    if (this.used + data.length > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(this.bytes.length * 2, this.used + data.length));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    data.copy(this.bytes, this.used);
    this.used += data.length;
  }
}

/** The largest `end` ≤ `limit` that does not split a UTF-8 sequence of `data`. */
function utf8Boundary(data: Buffer, limit: number): number {
  let end = Math.max(0, limit);
  // Step back over continuation bytes (10xxxxxx) to the start of the character that is cut.
  while (end > 0 && end < data.length && ((data[end] as number) & 0xc0) === 0x80) end--;
  return end;
}
