import { TextDecoder } from "node:util";
import type { RawCommit } from "./types.js";

/**
 * Parsing of raw commit and tag objects (what `cat-file --batch` and `for-each-ref %(raw)` print)
 * into this package's shapes, the same values `git log --format=%aI…` gives.
 */

/** Formats a git timestamp (`1451700245`, `+0100`) as git's strict ISO 8601 (`%aI`). */
export function isoDate(seconds: number, tz: string): string {
  const match = /^([+-])(\d\d)(\d\d)$/.exec(tz);
  const sign = match?.[1] === "-" ? -1 : 1;
  const hours = match ? Number(match[2]) : 0;
  const minutes = match ? Number(match[3]) : 0;
  const local = new Date((seconds + sign * (hours * 60 + minutes) * 60) * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  const date = `${String(local.getUTCFullYear()).padStart(4, "0")}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  return `${date}T${time}${sign < 0 ? "-" : "+"}${pad(hours)}:${pad(minutes)}`;
}

/** A `Name <email> 1451700245 +0100` line, split as git's `split_ident_line` does. */
export interface IdentLine {
  name: string;
  email: string;
  date: string;
}

/** Parses an author, committer or tagger line (without its keyword). */
export function parseIdent(line: string): IdentLine {
  const open = line.indexOf("<");
  const close = open < 0 ? -1 : line.indexOf(">", open + 1);
  if (open < 0 || close < 0) return { name: line.trim(), email: "", date: isoDate(0, "+0000") };
  const rest = /^\s*(\d+)\s*([+-]\d{4})?/.exec(line.slice(close + 1));
  return {
    name: line.slice(0, open).trim(),
    email: line.slice(open + 1, close),
    date: isoDate(rest ? Number(rest[1]) : 0, rest?.[2] ?? "+0000"),
  };
}

function decoderFor(encoding: string | undefined): TextDecoder {
  if (encoding) {
    try {
      return new TextDecoder(encoding);
    } catch {
      // An encoding Node does not know: read the bytes as UTF-8, as git does for unknown ones.
    }
  }
  return new TextDecoder("utf-8");
}

/** The header lines (continuation lines of multi-line headers dropped) and the message bytes. */
function splitObject(raw: Buffer): { headers: Map<string, string[]>; body: Buffer } {
  const end = raw.indexOf("\n\n");
  const head = (end < 0 ? raw : raw.subarray(0, end)).toString("latin1");
  const body = end < 0 ? Buffer.alloc(0) : raw.subarray(end + 2);
  const headers = new Map<string, string[]>();
  for (const line of head.split("\n")) {
    if (line.startsWith(" ")) continue; // a continuation of gpgsig or mergetag
    const space = line.indexOf(" ");
    const key = space < 0 ? line : line.slice(0, space);
    const list = headers.get(key) ?? [];
    list.push(space < 0 ? "" : line.slice(space + 1));
    headers.set(key, list);
  }
  return { headers, body };
}

/** Reads header text (kept as latin1 so far) as the object's encoding. */
function recode(latin1: string, decoder: TextDecoder): string {
  return decoder.decode(Buffer.from(latin1, "latin1"));
}

/** Parses a raw commit object into a {@link RawCommit}, honouring its `encoding` header. */
export function parseCommitObject(id: string, raw: Buffer): RawCommit {
  const { headers, body } = splitObject(raw);
  const decoder = decoderFor(headers.get("encoding")?.[0]);
  const author = parseIdent(recode(headers.get("author")?.[0] ?? "", decoder));
  const committer = parseIdent(recode(headers.get("committer")?.[0] ?? "", decoder));
  return {
    id,
    message: decoder.decode(body),
    parent_ids: headers.get("parent") ?? [],
    authored_date: author.date,
    author_name: author.name,
    author_email: author.email,
    committed_date: committer.date,
    committer_name: committer.name,
    committer_email: committer.email,
  };
}

/** The parts of an annotated tag object this package uses. */
export interface TagObject {
  /** The object the tag points to. */
  object: string;
  type: string;
  /** The tag message as stored, the signature block included. */
  message: string;
  tagger: IdentLine | null;
}

/** Parses a raw tag object. */
export function parseTagObject(raw: Buffer): TagObject {
  const { headers, body } = splitObject(raw);
  const decoder = decoderFor(headers.get("encoding")?.[0]);
  const tagger = headers.get("tagger")?.[0];
  return {
    object: headers.get("object")?.[0] ?? "",
    type: headers.get("type")?.[0] ?? "",
    message: decoder.decode(body),
    tagger: tagger === undefined ? null : parseIdent(recode(tagger, decoder)),
  };
}
