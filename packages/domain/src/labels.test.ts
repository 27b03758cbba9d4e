import { describe, expect, it } from "vitest";
import { DEFAULT_LABEL_COLOR, labelColorProblem, labelTitleProblem } from "./labels.js";

describe("label colours", () => {
  it.each<[string, boolean]>([
    ["#428BCA", true],
    ["#428bca", true],
    ["#FFF", true],
    ["#abc", true],
    ["#000000", true],
    ["428BCA", false],
    ["#42", false],
    ["#4280", false],
    ["#428BC", false],
    ["#428BCA0", false],
    ["#GGGGGG", false],
    ["red", false],
    ["#428BCA ", false],
    ["", false],
  ])("%j is valid: %s", (color, valid) => {
    expect(labelColorProblem(color)).toBe(valid ? null : "must be a valid color code");
  });

  it("default to a valid colour", () => {
    expect(labelColorProblem(DEFAULT_LABEL_COLOR)).toBeNull();
  });
});

describe("label titles", () => {
  it.each<[string, string | null]>([
    ["bug", null],
    ["needs review?", null],
    ["a&b", null],
    ["é", null],
    ["", "can't be blank"],
    ["   ", "can't be blank"],
    ["a,b", "is invalid"],
    ["x".repeat(255), null],
    ["x".repeat(256), "is too long (maximum is 255 characters)"],
  ])("%j: %j", (title, problem) => {
    expect(labelTitleProblem(title)).toBe(problem);
  });
});
