import { describe, expect, it } from "vitest";
import { commitTitle } from "./commits.js";
import { looksBinary } from "./repository.js";

describe("commitTitle", () => {
  it("is the first line of the message", () => {
    expect(commitTitle("Fix the build\n\nIt was broken.\n")).toBe("Fix the build");
    expect(commitTitle("One line")).toBe("One line");
  });

  it("cuts a first line over 100 characters to 80 and an ellipsis, counting characters", () => {
    const long = "é".repeat(101);
    expect(commitTitle(`${long}\nbody`)).toBe(`${"é".repeat(80)}…`);
    expect(commitTitle("x".repeat(100))).toBe("x".repeat(100));
  });

  it("stands in for a blank message", () => {
    expect(commitTitle("")).toBe("--no commit message");
    expect(commitTitle(" \n\n")).toBe("--no commit message");
  });
});

describe("looksBinary", () => {
  it("calls bytes binary when a NUL comes early, as git does", () => {
    expect(looksBinary(Buffer.from("plain text\n"))).toBe(false);
    expect(looksBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]))).toBe(true);
    expect(looksBinary(Buffer.concat([Buffer.alloc(8000, 0x61), Buffer.from([0])]))).toBe(false);
  });
});
