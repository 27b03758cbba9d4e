import { describe, expect, it } from "vitest";
import { TraceBuffer } from "./trace-buffer.js";

describe("TraceBuffer", () => {
  it("keeps what is written, in order, and hands out what follows an offset", () => {
    const trace = new TraceBuffer(1024);
    trace.write("hello ");
    trace.write(Buffer.from("world\n"));
    expect(trace.toString()).toBe("hello world\n");
    expect(trace.from(6).toString()).toBe("world\n");
    expect(trace.from(12).length).toBe(0);
  });

  it("drops the output past its limit and says so once, as GitLab runner does", () => {
    const trace = new TraceBuffer(10);
    trace.write("0123456789abcdef");
    trace.write("more output that is dropped");
    expect(trace.truncated).toBe(true);
    expect(trace.toString()).toBe("0123456789\n\x1b[31;1mBuild log exceeded limit of 10 bytes.\x1b[0;m\n");
  });

  it("never cuts a character in two at the limit", () => {
    const trace = new TraceBuffer(5);
    trace.write("abcd€"); // € is 3 bytes: the cut falls inside it
    expect(trace.toString().startsWith("abcd\n")).toBe(true);
  });

  it("grows past its first allocation without losing bytes", () => {
    const trace = new TraceBuffer(1024 * 1024);
    const line = `${"x".repeat(1023)}\n`;
    for (let i = 0; i < 200; i++) trace.write(line);
    expect(trace.length).toBe(200 * 1024);
    expect(trace.toString()).toBe(line.repeat(200));
  });
});
