import { describe, expect, it } from "vitest";
import { z } from "zod";
import { problems } from "./__tests__/samples.js";
import {
  DateParam,
  IidList,
  IssuableTitle,
  LabelList,
  requireOneOf,
  splitLabels,
  TimeParam,
} from "./issuables.js";

describe("LabelList", () => {
  it.each([
    ["bug", ["bug"]],
    ["bug,ui", ["bug", "ui"]],
    [" bug , ui ,", ["bug", "ui"]],
    ["bug,,bug, ui", ["bug", "ui"]],
    ["needs review?, a&b", ["needs review?", "a&b"]],
    ["", []],
    [" , ", []],
  ])("splits %j into %j", (value, expected) => {
    expect(LabelList.parse(value)).toEqual(expected);
  });

  it("reads repeated labels[] values the same way", () => {
    expect(LabelList.parse(["bug", "ui, docs", " "])).toEqual(["bug", "ui", "docs"]);
  });

  it("refuses what is neither text nor a list of text", () => {
    expect(LabelList.safeParse(5).success).toBe(false);
    expect(LabelList.safeParse([1]).success).toBe(false);
  });

  it("splitLabels keeps the first of repeated names, in order", () => {
    expect(splitLabels("b,a,b,c,a")).toEqual(["b", "a", "c"]);
  });
});

describe("IidList", () => {
  it("takes a list of positive integers", () => {
    expect(IidList.parse([1, 2])).toEqual([1, 2]);
    expect(IidList.safeParse([0]).success).toBe(false);
    expect(IidList.safeParse([1.5]).success).toBe(false);
  });
});

describe("DateParam", () => {
  it("takes YYYY-MM-DD calendar dates", () => {
    expect(DateParam.parse("2026-02-28")).toBe("2026-02-28");
    expect(DateParam.parse("2024-02-29")).toBe("2024-02-29");
  });

  it("reads an empty value or null as clearing the date", () => {
    expect(DateParam.parse("")).toBeNull();
    expect(DateParam.parse(null)).toBeNull();
  });

  it.each(["2026-13-01", "2026-02-30", "2026-2-3", "03/04/2026", "2026-01-02T00:00:00Z", "tomorrow"])(
    "refuses %j",
    (value) => {
      expect(DateParam.safeParse(value).success).toBe(false);
    },
  );
});

describe("TimeParam", () => {
  it.each([
    "2016-01-02T03:04:05Z",
    "2016-01-02T03:04:05.678Z",
    "2016-01-02T03:04:05+02:00",
    "2016-01-02T03:04:05",
    "2016-01-02",
  ])("takes %j", (value) => {
    expect(TimeParam.parse(value)).toBe(value);
  });

  it.each(["yesterday", "2016-01-02 03:04", "1451703845"])("refuses %j", (value) => {
    expect(TimeParam.safeParse(value).success).toBe(false);
  });
});

describe("IssuableTitle", () => {
  it("refuses blank and over-long titles with GitLab's wording", () => {
    expect(problems(z.object({ title: IssuableTitle }).safeParse({ title: "  " }))).toEqual({
      title: "can't be blank",
    });
    expect(problems(z.object({ title: IssuableTitle }).safeParse({ title: "x".repeat(256) }))).toEqual({
      title: "is too long (maximum is 255 characters)",
    });
    expect(IssuableTitle.parse("x".repeat(255))).toHaveLength(255);
  });
});

describe("requireOneOf", () => {
  const Edit = requireOneOf(z.object({ id: z.number(), a: z.string().optional(), b: z.null().optional() }), [
    "a",
    "b",
  ]);

  it("accepts an edit that names one of the fields, null included", () => {
    expect(Edit.parse({ id: 1, a: "x" })).toEqual({ id: 1, a: "x" });
    expect(Edit.parse({ id: 1, b: null })).toEqual({ id: 1, b: null });
  });

  it("refuses one that names none, with GitLab's wording, on the object itself", () => {
    const result = Edit.safeParse({ id: 1 });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: [],
        message: "a, b are missing, at least one parameter must be provided",
      }),
    ]);
  });

  it("stays an object schema, so that routes can read its shape", () => {
    expect(Edit).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(Edit.shape)).toEqual(["id", "a", "b"]);
  });
});
