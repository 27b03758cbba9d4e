import { describe, expect, it } from "vitest";
import { problems } from "./__tests__/samples.js";
import {
  CreateLabelInput,
  DeleteLabelInput,
  LabelJson,
  LabelSubscriptionInput,
  UpdateLabelInput,
} from "./labels.js";

describe("CreateLabelInput", () => {
  it("needs a name and a colour", () => {
    const input = { id: 5, name: "bug", color: "#FF0000" };
    expect(CreateLabelInput.parse(input)).toEqual(input);
    expect(CreateLabelInput.safeParse({ id: 5, color: "#f00" }).error?.issues.map((i) => i.path)).toEqual([
      ["name"],
    ]);
    expect(CreateLabelInput.safeParse({ id: 5, name: "bug" }).error?.issues.map((i) => i.path)).toEqual([
      ["color"],
    ]);
  });

  it.each(["#f00", "#FF0000", "#a1B2c3"])("takes the colour %j", (color) => {
    expect(CreateLabelInput.safeParse({ id: 5, name: "bug", color }).success).toBe(true);
  });

  it.each(["red", "#ff00", "FF0000", "#gg0000", "#ff0000 "])("refuses the colour %j", (color) => {
    expect(problems(CreateLabelInput.safeParse({ id: 5, name: "bug", color }))).toEqual({
      color: "must be a valid color code",
    });
  });

  it("reports name problems under `title`, as GitLab does, with the colour's", () => {
    expect(problems(CreateLabelInput.safeParse({ id: 5, name: "a,b", color: "blue" }))).toEqual({
      color: "must be a valid color code",
      title: "is invalid",
    });
    expect(problems(CreateLabelInput.safeParse({ id: 5, name: " ", color: "#fff" }))).toEqual({
      title: "can't be blank",
    });
  });

  it("reads a priority as a number, and an empty one as none", () => {
    expect(CreateLabelInput.parse({ id: 5, name: "bug", color: "#fff", priority: 3 })).toMatchObject({
      priority: 3,
    });
    expect(CreateLabelInput.parse({ id: 5, name: "bug", color: "#fff", priority: "4" })).toMatchObject({
      priority: 4,
    });
    expect(CreateLabelInput.parse({ id: 5, name: "bug", color: "#fff", priority: "" })).toMatchObject({
      priority: null,
    });
    expect(CreateLabelInput.safeParse({ id: 5, name: "bug", color: "#fff", priority: -1 }).success).toBe(
      false,
    );
    expect(CreateLabelInput.safeParse({ id: 5, name: "bug", color: "#fff", priority: "high" }).success).toBe(
      false,
    );
  });
});

describe("UpdateLabelInput", () => {
  it("names the label by its current name and needs one change", () => {
    expect(UpdateLabelInput.parse({ id: 5, name: "bug", new_name: "defect" })).toEqual({
      id: 5,
      name: "bug",
      new_name: "defect",
    });
    expect(UpdateLabelInput.parse({ id: 5, name: "bug", priority: "" })).toEqual({
      id: 5,
      name: "bug",
      priority: null,
    });
    expect(problems(UpdateLabelInput.safeParse({ id: 5, name: "bug" }))).toEqual({
      base: "new_name, color, description, priority are missing, at least one parameter must be provided",
    });
  });

  it("checks the new name like a new label's", () => {
    expect(problems(UpdateLabelInput.safeParse({ id: 5, name: "bug", new_name: "x,y" }))).toEqual({
      title: "is invalid",
    });
  });

  it("reports a missing name on `name`", () => {
    expect(UpdateLabelInput.safeParse({ id: 5, color: "#fff" }).error?.issues.map((i) => i.path)).toEqual([
      ["name"],
    ]);
  });
});

describe("other label inputs", () => {
  it("delete by name; subscribe by id or title", () => {
    expect(DeleteLabelInput.parse({ id: 5, name: "bug" })).toEqual({ id: 5, name: "bug" });
    expect(LabelSubscriptionInput.parse({ id: 5, label_id: 9 })).toEqual({ id: 5, label_id: 9 });
    expect(LabelSubscriptionInput.parse({ id: 5, label_id: "bug" })).toEqual({ id: 5, label_id: "bug" });
  });
});

describe("LabelJson", () => {
  it("is exactly the label's fields, in GitLab 8.15's order", () => {
    const label = {
      id: 9,
      name: "bug",
      color: "#d9534f",
      description: null,
      open_issues_count: 3,
      closed_issues_count: 1,
      open_merge_requests_count: 0,
      priority: null,
      subscribed: false,
    };
    expect(Object.keys(LabelJson.strict().parse(label))).toEqual(Object.keys(label));
    expect(LabelJson.safeParse({ ...label, priority: 2, description: "Broken" }).success).toBe(true);
    expect(LabelJson.safeParse({ ...label, open_issues_count: -1 }).success).toBe(false);
  });
});
