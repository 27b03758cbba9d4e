import { describe, expect, it } from "vitest";
import { qualifyReferences } from "./references.js";

describe("qualifyReferences", () => {
  it("spells out the project of local issue and merge request references", () => {
    expect(qualifyReferences("See #1, !2 and (#33).", "g/p")).toBe("See g/p#1, g/p!2 and (g/p#33).");
  });

  it("leaves references to other projects, anchors, words and URLs alone", () => {
    const text = "other/proj#4 a#5 http://x.org/#6 #7a ##8 &#9;";
    expect(qualifyReferences(text, "g/p")).toBe(text);
  });
});
