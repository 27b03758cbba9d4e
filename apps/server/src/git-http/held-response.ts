import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { Writable } from "node:stream";
import type { GitHttpResponse } from "@kiln/git";

/**
 * A response that passes everything through to `target` but holds its end until
 * {@link HeldResponse.release}. A push's answer is complete once receive-pack exits, yet what
 * follows it (events, the default branch of a first push) runs after: holding the end of the
 * answer keeps `git push` waiting until then, so that whoever pushes and then asks the API sees
 * the push's effects. Backpressure, a disconnect and a destroy reach `target` and back.
 */
export class HeldResponse extends Writable implements GitHttpResponse {
  readonly #target: ServerResponse;
  readonly #released: Promise<void>;
  #release: () => void = () => undefined;

  constructor(target: ServerResponse) {
    super();
    this.#target = target;
    this.#released = new Promise((resolve) => {
      this.#release = resolve;
    });
    target.once("close", () => {
      if (!target.writableFinished && !this.destroyed) this.destroy();
    });
  }

  get headersSent(): boolean {
    return this.#target.headersSent;
  }

  writeHead(statusCode: number, headers?: OutgoingHttpHeaders): this {
    this.#target.writeHead(statusCode, headers);
    return this;
  }

  /** Lets the answer end (at once if it was already ended, else when it is). */
  release(): void {
    this.#release();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.#target.write(chunk)) callback();
    else this.#target.once("drain", () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    // #released never rejects; a throw while ending the target fails this stream instead of
    // becoming an unhandled rejection.
    this.#released
      .then(() => {
        if (!this.#target.destroyed) this.#target.end();
      })
      .then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#release();
    if (!this.#target.writableEnded) this.#target.destroy();
    callback(error);
  }
}
