import type { BuildTraceJson } from "@kiln/schemas";

/**
 * A build's trace as far as it was read, grown piece by piece (`builds.trace` from `offset`):
 * a piece from 0 again (the trace was erased or replaced) starts the text over.
 */
export class FollowedTrace {
  text = "";
  /** Where the next piece starts, in bytes. */
  offset = 0;
  /** True once the build finished: the trace will not grow. */
  complete = false;

  /** Takes a piece in; answers whether the text changed. */
  apply(piece: Pick<BuildTraceJson, "offset" | "next_offset" | "content" | "complete">): boolean {
    const before = this.text;
    this.text = piece.offset === this.offset ? this.text + piece.content : piece.content;
    this.offset = piece.next_offset;
    this.complete = piece.complete;
    return this.text !== before;
  }
}

/** How long to wait before reading a running trace again: sooner while it grows, up to `maxMs`. */
export function nextTraceDelay(grew: boolean, previousMs: number, baseMs = 1000, maxMs = 8000): number {
  return grew ? baseMs : Math.min(maxMs, previousMs * 2);
}

/** ANSI escape sequences (colours, cursor moves) that runners write into traces. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-?]*[ -/]*[@-~]`, "g");

/** A trace as plain text: the colours a terminal would draw are left out. */
export const plainTrace = (text: string): string => text.replace(ANSI, "");
