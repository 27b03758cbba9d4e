import { describe, expect, it } from "vitest";
import { durationSeconds } from "./duration.js";

describe("durationSeconds (artifacts:expire_in, as 8.x's chronic_duration reads it)", () => {
  it.each([
    ["1 week", 604_800],
    ["3 mins 4 sec", 184],
    ["2 hrs 20 min", 8400],
    ["2h20min", 8400],
    ["6 mos 1 day", 6 * 2_592_000 + 86_400],
    ["47 yrs 6 mos and 4d", 47 * 31_557_600 + 6 * 2_592_000 + 4 * 86_400],
    ["3 weeks and 2 days", 3 * 604_800 + 2 * 86_400],
    ["1.5 hours", 5400],
    ["42", 42],
    ["day", 86_400],
    ["1:30", 90],
    ["1:00:00", 3600],
    ["30 Minutes", 1800],
  ])("reads %s", (text, seconds) => {
    expect(durationSeconds(text)).toBe(seconds);
  });

  it.each(["7 elephants", "", "soon", "0", "0 days", "1 week!", "1:2:3:4:5:6:7"])("refuses %j", (text) => {
    expect(durationSeconds(text)).toBeNull();
  });
});
