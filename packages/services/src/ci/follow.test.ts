import { describe, expect, it } from "vitest";
import { wholeCharacters } from "./follow.operations.js";

describe("a piece of a trace ends on a whole character", () => {
  it("keeps whole characters and leaves a cut one for the next piece", () => {
    const text = Buffer.from("ok ✓ é 🔥");
    expect(wholeCharacters(text)).toBe(text.length);
    expect(wholeCharacters(Buffer.from("ab"))).toBe(2);
    expect(wholeCharacters(Buffer.alloc(0))).toBe(0);
    const fire = Buffer.from("🔥");
    for (const cut of [1, 2, 3]) {
      expect(wholeCharacters(Buffer.concat([Buffer.from("a"), fire.subarray(0, cut)]))).toBe(1);
    }
    const check = Buffer.from("✓");
    expect(wholeCharacters(Buffer.concat([Buffer.from("x"), check.subarray(0, 2)]))).toBe(1);
  });
});
