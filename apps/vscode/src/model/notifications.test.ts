import type { LiveEventJson, PipelineJson } from "@kiln/schemas";
import { describe, expect, it } from "vitest";
import { mergeRequest, todo } from "./__tests__/fixtures.js";
import { type NotificationSettings, noticeOf } from "./notifications.js";

const ALL: NotificationSettings = { buildFailed: true, mergeRequestAssigned: true };
const NONE: NotificationSettings = { buildFailed: false, mergeRequestAssigned: false };
const me = { username: "grace", checkedOut: "7:feature" };

function pipeline(status: PipelineJson["status"], ref = "feature", pusher = "ada"): LiveEventJson {
  return {
    kind: "pipeline",
    project_id: 7,
    pipeline: {
      id: 40,
      sha: "0123456789abcdef0123456789abcdef01234567",
      ref,
      status,
      before_sha: "0000000000000000000000000000000000000000",
      tag: false,
      yaml_errors: null,
      user: { id: 3, name: pusher, username: pusher, state: "active", avatar_url: null, web_url: "" },
      created_at: "2026-11-25T10:00:00.000Z",
      updated_at: "2026-11-25T10:00:00.000Z",
      started_at: null,
      finished_at: null,
      committed_at: null,
      duration: null,
      coverage: null,
    },
  };
}

describe("notifications from the stream", () => {
  it("warns of a failed pipeline of the branch checked out, or of one I pushed, and opens the Builds view", () => {
    expect(noticeOf(pipeline("failed"), me, ALL)).toEqual({
      level: "warning",
      message: "Kiln: pipeline #40 of feature failed.",
      action: { title: "Show Builds", command: "kiln.builds.focus" },
    });
    expect(noticeOf(pipeline("failed", "other", "grace"), me, ALL)?.message).toBe(
      "Kiln: pipeline #40 of other failed.",
    );
    // Someone else's branch, a pipeline that did not fail, or the setting off: nothing.
    expect(noticeOf(pipeline("failed", "other"), me, ALL)).toBeNull();
    expect(noticeOf(pipeline("failed"), { ...me, checkedOut: "8:feature" }, ALL)).toBeNull();
    expect(noticeOf(pipeline("success"), me, ALL)).toBeNull();
    expect(noticeOf(pipeline("failed"), me, { ...ALL, buildFailed: false })).toBeNull();
  });

  it("tells of a merge request someone assigned me, by its todo, and opens it", () => {
    const assigned: LiveEventJson = { kind: "todo", action: "created", todo: todo(9) };
    expect(noticeOf(assigned, me, ALL)).toEqual({
      level: "information",
      message: "Kiln: Ada Lovelace assigned you !3 Change 9 (acme/widgets).",
      action: { title: "Open Merge Request", url: "http://kiln.test/acme/widgets/merge_requests/3" },
    });
    expect(noticeOf(assigned, me, { ...ALL, mergeRequestAssigned: false })).toBeNull();
    // A mention, a todo done, or a merge request's own change: nothing.
    const mentioned: LiveEventJson = {
      kind: "todo",
      action: "created",
      todo: todo(9, 7, "widgets", "mentioned"),
    };
    expect(noticeOf(mentioned, me, ALL)).toBeNull();
    expect(noticeOf({ kind: "todo", action: "done", todo: todo(9) }, me, ALL)).toBeNull();
    const update: LiveEventJson = { kind: "merge_request", action: "update", merge_request: mergeRequest() };
    expect(noticeOf(update, me, ALL)).toBeNull();
  });

  it("tells nothing with the settings off, as they are by default", () => {
    expect(noticeOf(pipeline("failed"), me, NONE)).toBeNull();
    expect(noticeOf({ kind: "todo", action: "created", todo: todo(9) }, me, NONE)).toBeNull();
  });
});
