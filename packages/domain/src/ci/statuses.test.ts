import { describe, expect, it } from "vitest";
import { transition } from "../state-machine.js";
import {
  BUILD_STATE_MACHINE,
  BUILD_STATUS_EVENTS,
  BUILD_STATUSES,
  type BuildStatus,
  type BuildStatusEvent,
  canTransitionBuild,
  FINISHED_BUILD_STATUSES,
} from "./statuses.js";

describe("build states", () => {
  it("follow 8.x's CommitStatus events, plus the wait for a play", () => {
    const expected: Record<BuildStatus, Partial<Record<BuildStatusEvent, BuildStatus>>> = {
      created: {
        enqueue: "pending",
        success: "success",
        drop: "failed",
        cancel: "canceled",
        skip: "skipped",
        actionize: "manual",
      },
      pending: { run: "running", success: "success", drop: "failed", cancel: "canceled", skip: "skipped" },
      running: { success: "success", drop: "failed", cancel: "canceled" },
      success: {},
      failed: {},
      canceled: {},
      skipped: { enqueue: "pending", process: "created" },
      manual: { play: "pending", process: "created" },
    };
    for (const state of BUILD_STATUSES) {
      for (const event of BUILD_STATUS_EVENTS) {
        expect({ state, event, to: transition(BUILD_STATE_MACHINE, state, event) }).toEqual({
          state,
          event,
          to: expected[state][event] ?? null,
        });
      }
    }
  });

  it("let a build go the way a runner takes it, and be canceled until it ends", () => {
    expect(canTransitionBuild("created", "pending")).toBe(true);
    expect(canTransitionBuild("pending", "running")).toBe(true);
    for (const end of ["success", "failed", "canceled"] as const) {
      expect(canTransitionBuild("running", end)).toBe(true);
    }
    expect(canTransitionBuild("created", "canceled")).toBe(true);
    expect(canTransitionBuild("pending", "canceled")).toBe(true);
    expect(canTransitionBuild("created", "skipped")).toBe(true);
    expect(canTransitionBuild("created", "manual")).toBe(true);
    expect(canTransitionBuild("manual", "pending")).toBe(true);
  });

  it("never reopen a finished build: a retry is a new build", () => {
    for (const from of ["success", "failed", "canceled"] as const) {
      for (const to of BUILD_STATUSES) expect(canTransitionBuild(from, to)).toBe(false);
    }
    expect(canTransitionBuild("running", "pending")).toBe(false);
    expect(canTransitionBuild("created", "running")).toBe(false);
    expect(canTransitionBuild("manual", "running")).toBe(false);
    expect(canTransitionBuild("manual", "canceled")).toBe(false);
  });

  it("count success, failed, canceled and skipped as finished, not manual", () => {
    expect([...FINISHED_BUILD_STATUSES].sort()).toEqual(["canceled", "failed", "skipped", "success"]);
  });
});
