import { type Readable, Transform, type TransformCallback } from "node:stream";
import { createGunzip } from "node:zlib";
import { BodyError } from "./body-error.js";
import { type Framing, PktLineFraming } from "./framing.js";

export { BodyError };

/** Passes bytes through until more than `limit` went by, then fails. */
class ByteLimit extends Transform {
  private seen = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) callback(new BodyError("too_large", `request body over ${this.limit} bytes`));
    else callback(null, chunk);
  }
}

/**
 * The request body as git must read it: gunzipped when the client sent `Content-Encoding: gzip`,
 * and cut off with a {@link BodyError} once it decompresses to more than `limit` bytes (a gzip
 * bomb ends there). With `framing`, its pkt-lines are checked on the way (see
 * {@link PktLineFraming}): garbage fails it too. Answers the stream to read, or a BodyError for an
 * encoding we cannot read. Errors of the stream are {@link BodyError}s; the source is never
 * destroyed by it.
 */
export function decodeBody(
  source: Readable,
  encoding: string | undefined,
  limit: number,
  framing?: Framing,
): Readable | BodyError {
  const decoded = decompress(source, encoding, limit);
  if (decoded instanceof BodyError || framing === undefined) return decoded;
  const checked = new PktLineFraming(framing);
  decoded.pipe(checked);
  decoded.on("error", (error) => checked.destroy(error));
  checked.once("close", () => {
    decoded.unpipe(checked);
    if (!decoded.destroyed) decoded.destroy();
  });
  return checked;
}

/** The body gunzipped if need be, and held to `limit` bytes once decompressed. */
function decompress(source: Readable, encoding: string | undefined, limit: number): Readable | BodyError {
  const coding = (encoding ?? "").trim().toLowerCase();
  const limiter = new ByteLimit(limit);
  if (coding === "" || coding === "identity") {
    source.pipe(limiter);
    source.on("error", () => limiter.destroy(new BodyError("malformed", "request body interrupted")));
    return limiter;
  }
  if (coding !== "gzip" && coding !== "x-gzip")
    return new BodyError("encoding", `unsupported Content-Encoding ${coding}`);
  const gunzip = createGunzip();
  source.pipe(gunzip);
  source.on("error", () => gunzip.destroy(new Error("request body interrupted")));
  gunzip.on("error", (error) =>
    limiter.destroy(new BodyError("malformed", `request body is not valid gzip (${error.message})`)),
  );
  gunzip.pipe(limiter);
  limiter.once("close", () => {
    gunzip.unpipe(limiter);
    if (!gunzip.destroyed) gunzip.destroy();
  });
  return limiter;
}
