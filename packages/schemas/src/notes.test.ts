import { describe, expect, it } from "vitest";
import { problems, TIME, user } from "./__tests__/samples.js";
import {
  CreateIssueNoteInput,
  CreateMergeRequestNoteInput,
  IssueNoteRefInput,
  ListIssueNotesInput,
  ListMergeRequestNotesInput,
  NoteJson,
  UpdateIssueNoteInput,
  UpdateMergeRequestNoteInput,
} from "./notes.js";
import { EventJson } from "./project-entities.js";

const note = {
  id: 301,
  body: "Looks good",
  attachment: null,
  author: user,
  created_at: TIME,
  updated_at: TIME,
  system: false,
  noteable_id: 101,
  noteable_type: "Issue",
  upvote: false,
  downvote: false,
};

describe("note inputs", () => {
  it("name the issue or merge request by the route's own parameter", () => {
    expect(ListIssueNotesInput.parse({ id: 5, issue_id: 101, page: 2 })).toEqual({
      id: 5,
      issue_id: 101,
      page: 2,
    });
    expect(ListMergeRequestNotesInput.parse({ id: 5, merge_request_id: 201 })).toEqual({
      id: 5,
      merge_request_id: 201,
    });
    expect(IssueNoteRefInput.safeParse({ id: 5, issue_id: 101 }).success).toBe(false);
  });

  it("need a body, reported on `body` when missing", () => {
    expect(CreateIssueNoteInput.safeParse({ id: 5, issue_id: 101 }).error?.issues.map((i) => i.path)).toEqual(
      [["body"]],
    );
    expect(UpdateMergeRequestNoteInput.safeParse({ id: 5, merge_request_id: 201, note_id: 1 }).success).toBe(
      false,
    );
  });

  it("refuse a blank body", () => {
    expect(
      problems(UpdateIssueNoteInput.safeParse({ id: 5, issue_id: 101, note_id: 301, body: " \n" })),
    ).toEqual({
      body: "can't be blank",
    });
  });

  it("take created_at on create only", () => {
    const input = { id: 5, merge_request_id: 201, body: "hi", created_at: "2016-01-02T03:04:05Z" };
    expect(CreateMergeRequestNoteInput.parse(input)).toEqual(input);
    expect(
      UpdateMergeRequestNoteInput.parse({
        id: 5,
        merge_request_id: 201,
        note_id: 1,
        body: "hi",
        created_at: TIME,
      }),
    ).not.toHaveProperty("created_at");
  });
});

describe("NoteJson", () => {
  it("is exactly the note's fields, in GitLab 8.15's order", () => {
    const parsed = NoteJson.strict().parse(note);
    expect(Object.keys(parsed)).toEqual(Object.keys(note));
  });

  it("is attached to an issue or a merge request", () => {
    expect(NoteJson.safeParse({ ...note, noteable_type: "MergeRequest", system: true }).success).toBe(true);
    expect(NoteJson.safeParse({ ...note, noteable_type: "Commit" }).success).toBe(false);
    expect(NoteJson.safeParse({ ...note, attachment: "screenshot.png" }).success).toBe(true);
  });

  it("is the note of a comment event, between created_at and author", () => {
    const event = {
      title: null,
      project_id: 5,
      action_name: "commented on",
      target_id: 301,
      target_type: "Note",
      author_id: 2,
      data: null,
      target_title: null,
      created_at: TIME,
      note,
      author: user,
      author_username: "alice",
    };
    const parsed = EventJson.strict().parse(event);
    expect(Object.keys(parsed)).toEqual(Object.keys(event));
    const { note: _, ...plain } = event;
    expect(EventJson.strict().parse(plain)).toEqual(plain);
  });
});
