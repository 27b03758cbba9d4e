import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { UploadedFile } from "@kiln/schemas";
import { bodyTooLarge } from "./body-error.js";

/** Where a route's uploaded file goes and how large it may be. */
export interface FileIntake {
  /** The multipart field that carries the file; file parts of other fields are skipped. */
  field: string;
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** The directory of temp files (created when missing), on the data dir's file system. */
  tempDir: string;
}

/**
 * Streams one file part to a new temp file (owner-only, never overwriting), counting bytes and
 * failing with 413 as soon as it passes the limit. Until the body is fully read the receiver owns
 * the temp file: {@link discard} stops a write in progress and removes what was written.
 */
export class FileReceiver {
  #tempPath: string | null = null;
  #writing: Promise<UploadedFile> | null = null;
  readonly #abort = new AbortController();

  constructor(readonly intake: FileIntake) {}

  /** True once a file part was taken: the first part of the field is the file, later ones are skipped. */
  get started(): boolean {
    return this.#writing !== null;
  }

  /** Starts writing `part`; the promise settles once the temp file is complete and closed. */
  receive(part: Readable, filename: string, mimeType: string): Promise<UploadedFile> {
    // The part may fail while the temp dir is being made, before the pipeline listens: the
    // pipeline still sees that error, this only keeps it from being an uncaught one.
    part.on("error", () => undefined);
    this.#writing = this.#write(part, filename, mimeType);
    return this.#writing;
  }

  async #write(part: Readable, filename: string, mimeType: string): Promise<UploadedFile> {
    const { tempDir, maxBytes } = this.intake;
    await mkdir(tempDir, { recursive: true, mode: 0o700 });
    const tempPath = join(tempDir, `upload-${randomUUID()}`);
    this.#tempPath = tempPath;
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > maxBytes ? bodyTooLarge() : null, chunk);
      },
    });
    const out = createWriteStream(tempPath, { flags: "wx", mode: 0o600 });
    const closed = new Promise<void>((resolve) => out.once("close", () => resolve()));
    try {
      await pipeline(part, counter, out, { signal: this.#abort.signal });
    } finally {
      // Only a closed file can be removed for good: a late open would bring it back.
      await closed;
    }
    return new UploadedFile({ tempPath, filename, size, mimeType });
  }

  /** The received file once it is complete, or null when the body carried none. */
  async finished(): Promise<UploadedFile | null> {
    return this.#writing ?? null;
  }

  /** Stops a write in progress and removes the temp file, if any. */
  async discard(): Promise<void> {
    this.#abort.abort();
    await this.#writing?.catch(() => undefined);
    if (this.#tempPath) await rm(this.#tempPath, { force: true });
  }
}
