import { type Packet, PktLineReader } from "../http/pkt-line.js";

/** What receive-pack told the client about each ref (its `report-status`). */
export interface ReceiveReport {
  /** `ok`, or why the pack could not be unpacked. */
  unpack: string;
  /** Refs git updated. */
  ok: Set<string>;
  /** Refs git did not update, with git's reason (`pre-receive hook declined`, `non-fast-forward`…). */
  rejected: Map<string, string>;
}

const SIDEBAND_DATA = 1;

/**
 * Reads the `report-status` out of receive-pack's output while it streams to the client, with or
 * without side-band multiplexing, keeping nothing but the report itself.
 */
export class ReportStatusReader {
  private readonly outer = new PktLineReader();
  private readonly inner = new PktLineReader();
  private sideband: boolean | undefined;
  private report: ReceiveReport | undefined;
  private done = false;

  /** Feeds a chunk of receive-pack's standard output. */
  push(chunk: Buffer): void {
    if (this.done) return;
    for (const packet of this.outer.push(chunk)) {
      if (packet.type !== "data") {
        if (this.sideband !== true) this.line(packet);
        continue;
      }
      if (this.sideband === undefined) this.sideband = packet.payload[0]! <= 3;
      if (!this.sideband) this.line(packet);
      else if (packet.payload[0] === SIDEBAND_DATA) {
        for (const inner of this.inner.push(packet.payload.subarray(1))) this.line(inner);
      }
      if (this.done) return;
    }
  }

  /**
   * The report, once receive-pack sent all of it (clients that do not ask for one get none, and
   * a report cut short counts as none).
   */
  result(): ReceiveReport | undefined {
    return this.done ? this.report : undefined;
  }

  private line(packet: Packet): void {
    if (packet.type === "flush") {
      if (this.report) this.done = true;
      return;
    }
    if (packet.type !== "data") return;
    const text = packet.payload.toString("utf8").replace(/\n$/, "");
    if (text.startsWith("unpack ")) {
      this.report = { unpack: text.slice(7), ok: new Set(), rejected: new Map() };
      return;
    }
    if (!this.report) return;
    if (text.startsWith("ok ")) this.report.ok.add(text.slice(3));
    else if (text.startsWith("ng ")) {
      const rest = text.slice(3);
      const space = rest.indexOf(" ");
      if (space < 0) this.report.rejected.set(rest, "rejected");
      else this.report.rejected.set(rest.slice(0, space), rest.slice(space + 1));
    }
  }
}
