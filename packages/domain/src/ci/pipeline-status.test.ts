import { describe, expect, it } from "vitest";
import { pipelineStatusOf, type StatusOfBuild } from "./pipeline-status.js";
import type { BuildStatus } from "./statuses.js";

const builds = (...statuses: BuildStatus[]): StatusOfBuild[] =>
  statuses.map((status) => ({ status, allowFailure: false }));
const mayFail = (status: BuildStatus): StatusOfBuild => ({ status, allowFailure: true });

describe("pipelineStatusOf (gitlab-8x.md §7.4)", () => {
  it("is skipped without builds", () => {
    expect(pipelineStatusOf([])).toBe("skipped");
  });

  it("1. all skipped → skipped", () => {
    expect(pipelineStatusOf(builds("skipped", "skipped"))).toBe("skipped");
  });

  it("2. all success → success", () => {
    expect(pipelineStatusOf(builds("success", "success"))).toBe("success");
  });

  it("3. all created → created", () => {
    expect(pipelineStatusOf(builds("created", "created"))).toBe("created");
  });

  it("4. success and skipped → success", () => {
    expect(pipelineStatusOf(builds("success", "skipped"))).toBe("success");
  });

  it("5. success, skipped and canceled → canceled", () => {
    expect(pipelineStatusOf(builds("success", "skipped", "canceled"))).toBe("canceled");
    expect(pipelineStatusOf(builds("canceled"))).toBe("canceled");
  });

  it("6. created, skipped and pending → pending", () => {
    expect(pipelineStatusOf(builds("created", "pending"))).toBe("pending");
    expect(pipelineStatusOf(builds("pending", "skipped"))).toBe("pending");
  });

  it("7. any running, pending or created (with anything else) → running", () => {
    expect(pipelineStatusOf(builds("success", "running"))).toBe("running");
    expect(pipelineStatusOf(builds("success", "pending"))).toBe("running");
    expect(pipelineStatusOf(builds("success", "created"))).toBe("running");
    expect(pipelineStatusOf(builds("failed", "created"))).toBe("running");
    expect(pipelineStatusOf(builds("canceled", "pending"))).toBe("running");
  });

  it("8. otherwise → failed", () => {
    expect(pipelineStatusOf(builds("success", "failed"))).toBe("failed");
    expect(pipelineStatusOf(builds("failed", "canceled"))).toBe("failed");
  });

  it("does not count allowed failures that failed or were canceled", () => {
    expect(pipelineStatusOf([...builds("success"), mayFail("failed")])).toBe("success");
    expect(pipelineStatusOf([...builds("success"), mayFail("canceled")])).toBe("success");
    expect(pipelineStatusOf([mayFail("failed")])).toBe("skipped");
    expect(pipelineStatusOf([...builds("failed"), mayFail("failed")])).toBe("failed");
  });

  it("counts allowed failures that succeeded or still run", () => {
    expect(pipelineStatusOf([...builds("success"), mayFail("running")])).toBe("running");
    expect(pipelineStatusOf([mayFail("success")])).toBe("success");
  });

  it("counts a manual build as skipped, as 8.x kept it", () => {
    expect(pipelineStatusOf(builds("success", "manual"))).toBe("success");
    expect(pipelineStatusOf(builds("manual"))).toBe("skipped");
    expect(pipelineStatusOf(builds("failed", "manual"))).toBe("failed");
    expect(pipelineStatusOf(builds("canceled", "manual"))).toBe("canceled");
  });
});
