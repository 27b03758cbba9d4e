import { runGit } from "./exec.js";

/**
 * Refs with their objects in one `for-each-ref`: each ref's own object and, for an annotated tag,
 * the object it points to, both as raw bytes. Objects are length-prefixed (`%(objectsize)`), so any
 * message (newlines, NULs, other encodings) parses.
 */

/** One object of a listed ref. */
export interface ListedObject {
  id: string;
  type: string;
  raw: Buffer;
}

/** One listed ref: its object, and the peeled object (one level) when it is an annotated tag. */
export interface ListedRef {
  ref: string;
  object: ListedObject;
  peeled: ListedObject | null;
}

const FORMAT = [
  "%(refname)",
  "%(objectname)",
  "%(objecttype)",
  "%(objectsize)",
  "%(raw)",
  "%(*objectname)",
  "%(*objecttype)",
  "%(*objectsize)",
  "%(*raw)",
].join("%00");

class Reader {
  offset = 0;
  constructor(readonly buffer: Buffer) {}

  field(): string {
    const end = this.buffer.indexOf(0, this.offset);
    const text = this.buffer.subarray(this.offset, end < 0 ? this.buffer.length : end).toString("utf8");
    this.offset = end < 0 ? this.buffer.length : end + 1;
    return text;
  }

  bytes(length: number): Buffer {
    const bytes = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return bytes;
  }
}

function object(reader: Reader): ListedObject | null {
  const id = reader.field();
  const type = reader.field();
  const size = Number(reader.field() || "0");
  const raw = reader.bytes(size);
  reader.offset += 1; // the separator after %(raw): a NUL, or the record's newline
  return id === "" ? null : { id, type, raw };
}

/**
 * Lists the refs matching `patterns` (for-each-ref patterns: `refs/heads/`, `refs/tags/v1`…),
 * sorted by name, in one git process.
 */
export async function listRefs(gitDir: string, patterns: readonly string[]): Promise<ListedRef[]> {
  const { stdout } = await runGit(["for-each-ref", `--format=${FORMAT}`, "--sort=refname", ...patterns], {
    gitDir,
  });
  const reader = new Reader(stdout);
  const refs: ListedRef[] = [];
  while (reader.offset < stdout.length) {
    const ref = reader.field();
    const own = object(reader);
    const peeled = object(reader);
    if (own) refs.push({ ref, object: own, peeled });
  }
  return refs;
}
