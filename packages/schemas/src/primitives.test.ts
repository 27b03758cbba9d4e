import { describe, expect, it } from "vitest";
import { GroupRef } from "./groups.js";
import { OptionalRefId } from "./issuables.js";
import { LabelPriority } from "./labels.js";
import { Id, MAX_INTEGER } from "./primitives.js";
import { ProjectRef } from "./projects.js";
import { ListTodosInput } from "./todos.js";
import { UpdateUserInput } from "./users.js";

/** The messages of a failed parse, or the parsed value. */
function outcome(
  schema: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  if (result.success) return { value: result.data };
  return {
    messages: (result.error as { issues: { message: string }[] }).issues.map((issue) => issue.message),
  };
}

const TOO_BIG = `must be less than or equal to ${MAX_INTEGER}`;

describe("ids and stored integers", () => {
  it("holds ids to the database's 32-bit integer range", () => {
    expect(MAX_INTEGER).toBe(2 ** 31 - 1);
    expect(outcome(Id, MAX_INTEGER)).toEqual({ value: MAX_INTEGER });
    expect(outcome(Id, MAX_INTEGER + 1)).toEqual({ messages: [TOO_BIG] });
    expect(Id.safeParse(0).success).toBe(false);
  });

  it("refuses id filters and stored integers past the range with the attribute's message", () => {
    expect(outcome(ListTodosInput, { author_id: 2147483648 })).toEqual({ messages: [TOO_BIG] });
    expect(outcome(UpdateUserInput, { id: 1, projects_limit: 2147483648 })).toEqual({ messages: [TOO_BIG] });
    expect(outcome(LabelPriority, 2147483648)).toEqual({ messages: [TOO_BIG] });
    expect(outcome(LabelPriority, "99999999999")).toEqual({ messages: [TOO_BIG] });
    expect(outcome(LabelPriority, String(MAX_INTEGER))).toEqual({ value: MAX_INTEGER });
  });

  it("reads an assignee or milestone id past the range as naming nothing", () => {
    expect(outcome(OptionalRefId, 2147483648)).toEqual({ value: null });
    expect(outcome(OptionalRefId, MAX_INTEGER)).toEqual({ value: MAX_INTEGER });
    // What is in range is for the operation to decide (0 and unknown ids mean none too).
    expect(outcome(OptionalRefId, 0)).toEqual({ value: 0 });
  });
});

describe.each([
  ["ProjectRef", ProjectRef, "group/project"],
  ["GroupRef", GroupRef, "group"],
])("%s", (_name, schema, path) => {
  it("reads digits as an id and anything else as a path", () => {
    expect(outcome(schema, "12")).toEqual({ value: 12 });
    expect(outcome(schema, 12)).toEqual({ value: 12 });
    expect(outcome(schema, path)).toEqual({ value: path });
    expect(outcome(schema, "12a")).toEqual({ value: "12a" });
  });

  it("refuses digits that no id can be instead of taking them for a path", () => {
    expect(outcome(schema, "2147483648")).toEqual({ messages: [TOO_BIG] });
    expect(schema.safeParse("99999999999999999999999999").success).toBe(false);
    expect(schema.safeParse("0").success).toBe(false);
  });
});
