import type { BuildJson, PipelineJson } from "@kiln/schemas";
import { describe, expect, it } from "vitest";
import { formatDuration, jobLine, pipelineTree, stageStatus, statusBarText, statusIcon } from "./builds.js";
import { FollowedTrace, nextTraceDelay, plainTrace } from "./trace.js";

const NOW = new Date("2026-11-25T10:10:00.000Z");

function pipeline(overrides: Partial<PipelineJson> = {}): PipelineJson {
  return {
    id: 12,
    sha: "0123456789abcdef0123456789abcdef01234567",
    ref: "feature",
    status: "running",
    before_sha: "0".repeat(40),
    tag: false,
    yaml_errors: null,
    user: null,
    created_at: "2026-11-25T10:00:00.000Z",
    updated_at: "2026-11-25T10:00:00.000Z",
    started_at: "2026-11-25T10:00:00.000Z",
    finished_at: null,
    committed_at: null,
    duration: null,
    coverage: null,
    ...overrides,
  };
}

function build(id: number, name: string, stage: string, overrides: Partial<BuildJson> = {}): BuildJson {
  return {
    id,
    status: "created",
    stage,
    name,
    ref: "feature",
    tag: false,
    coverage: null,
    created_at: "2026-11-25T10:00:00.000Z",
    started_at: null,
    finished_at: null,
    user: null,
    commit: null,
    runner: null,
    pipeline: null,
    ...overrides,
  };
}

describe("Builds view model", () => {
  it("groups the jobs by stage in the pipeline's order, with each stage's status", () => {
    const tree = pipelineTree(
      7,
      pipeline(),
      [
        build(1, "compile", "build", {
          status: "success",
          started_at: "2026-11-25T10:00:00.000Z",
          finished_at: "2026-11-25T10:01:05.000Z",
        }),
        build(2, "lint", "build", { status: "running", started_at: "2026-11-25T10:09:18.000Z" }),
        build(3, "check", "test"),
      ],
      NOW,
    );
    expect(tree).toMatchObject({
      label: "Pipeline #12 on feature",
      description: "running · 01234567",
      icon: { id: "sync~spin" },
    });
    expect(
      tree.stages.map((stage) => [stage.label, stage.description, stage.jobs.map((job) => job.label)]),
    ).toEqual([
      ["build", "running", ["compile", "lint"]],
      ["test", "created", ["check"]],
    ]);
    expect(tree.stages[0]?.jobs.map((job) => [job.description, job.icon.id, job.contextValue])).toEqual([
      ["passed · 1m 05s", "pass", "build.finished"],
      ["running · 42s", "sync~spin", "build.active"],
    ]);
    expect(tree.stages[1]?.jobs[0]).toMatchObject({ description: "created", icon: { id: "circle-outline" } });
  });

  it("shows each status with its icon and colour, and durations in words", () => {
    expect(statusIcon("success")).toEqual({ id: "pass", color: "charts.green" });
    expect(statusIcon("failed")).toEqual({ id: "error", color: "charts.red" });
    expect(statusIcon("created").id).toBe("circle-outline");
    expect(jobLine(7, build(9, "x", "s", { status: "failed" }), NOW)).toMatchObject({
      description: "failed",
      contextValue: "build.finished",
      projectId: 7,
      buildId: 9,
    });
    expect([formatDuration(42), formatDuration(65), formatDuration(3725)]).toEqual([
      "42s",
      "1m 05s",
      "1h 02m",
    ]);
  });

  it("sums a stage: running wins, then pending, then a failure", () => {
    expect(stageStatus(["success", "running", "failed"])).toBe("running");
    expect(stageStatus(["success", "pending"])).toBe("pending");
    expect(stageStatus(["success", "failed"])).toBe("failed");
    expect(stageStatus(["success", "skipped"])).toBe("success");
    expect(stageStatus(["skipped"])).toBe("skipped");
  });

  it("says the current branch's pipeline status in the status bar", () => {
    expect(statusBarText(pipeline({ status: "success" }))).toBe("$(pass) Pipeline passed");
    expect(statusBarText(pipeline())).toBe("$(sync~spin) Pipeline running");
    expect(statusBarText(null)).toBe("$(circle-slash) No pipeline");
  });
});

describe("following a trace", () => {
  it("grows by pieces, starts over when the server starts from 0 again, and knows when it ends", () => {
    const trace = new FollowedTrace();
    expect(trace.apply({ offset: 0, next_offset: 4, content: "abc\n", complete: false })).toBe(true);
    expect(trace.apply({ offset: 4, next_offset: 4, content: "", complete: false })).toBe(false);
    expect(trace.apply({ offset: 4, next_offset: 8, content: "✓\n", complete: true })).toBe(true);
    expect([trace.text, trace.offset, trace.complete]).toEqual(["abc\n✓\n", 8, true]);
    trace.apply({ offset: 0, next_offset: 3, content: "new", complete: false });
    expect(trace.text).toBe("new");
  });

  it("shows the trace without the terminal's colour codes", () => {
    expect(plainTrace('\u001b[32;1m$ echo "hi"\u001b[0;m\nhi\n')).toBe('$ echo "hi"\nhi\n');
  });

  it("reads again soon while the trace grows, less often while it does not", () => {
    expect(nextTraceDelay(true, 4000)).toBe(1000);
    expect(nextTraceDelay(false, 1000)).toBe(2000);
    expect(nextTraceDelay(false, 8000)).toBe(8000);
  });
});
