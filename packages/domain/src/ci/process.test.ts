import { describe, expect, it } from "vitest";
import { type BuildToProcess, buildsToProcess } from "./process.js";
import type { BuildStatus, JobWhen } from "./statuses.js";

let nextId = 1;
function build(
  stageIndex: number,
  status: BuildStatus = "created",
  when: JobWhen = "on_success",
  allowFailure = false,
): BuildToProcess {
  return { id: nextId++, stageIndex, status, when, allowFailure };
}

describe("buildsToProcess (8.x's ProcessPipelineService)", () => {
  it("starts the first stage of a new pipeline and leaves the later ones waiting", () => {
    const [a, b, c] = [build(0), build(0), build(1)];
    expect(buildsToProcess([a!, b!, c!])).toEqual([
      { id: a!.id, status: "pending" },
      { id: b!.id, status: "pending" },
    ]);
  });

  it("waits while an earlier stage runs", () => {
    expect(buildsToProcess([build(0, "running"), build(0, "success"), build(1)])).toEqual([]);
    expect(buildsToProcess([build(0, "pending"), build(1)])).toEqual([]);
  });

  it("starts the next stage once the earlier ones succeeded", () => {
    const next = build(1);
    expect(buildsToProcess([build(0, "success"), next])).toEqual([{ id: next.id, status: "pending" }]);
  });

  it("skips on_success builds after a failure and runs on_failure and always ones", () => {
    const [onSuccess, onFailure, always] = [
      build(1),
      build(1, "created", "on_failure"),
      build(1, "created", "always"),
    ];
    expect(buildsToProcess([build(0, "failed"), onSuccess!, onFailure!, always!])).toEqual([
      { id: onSuccess!.id, status: "skipped" },
      { id: onFailure!.id, status: "pending" },
      { id: always!.id, status: "pending" },
    ]);
  });

  it("skips on_failure builds after a success and runs always ones", () => {
    const [onFailure, always] = [build(1, "created", "on_failure"), build(1, "created", "always")];
    expect(buildsToProcess([build(0, "success"), onFailure!, always!])).toEqual([
      { id: onFailure!.id, status: "skipped" },
      { id: always!.id, status: "pending" },
    ]);
  });

  it("skips every `when` after a cancel, even always", () => {
    const later = [build(1), build(1, "created", "on_failure"), build(1, "created", "always")];
    expect(buildsToProcess([build(0, "canceled"), ...later]).map((b) => b.status)).toEqual([
      "skipped",
      "skipped",
      "skipped",
    ]);
  });

  it("counts an allowed failure as success", () => {
    const [next, onFailure] = [build(1), build(1, "created", "on_failure")];
    expect(
      buildsToProcess([build(0, "success"), build(0, "failed", "on_success", true), next!, onFailure!]),
    ).toEqual([
      { id: next!.id, status: "pending" },
      { id: onFailure!.id, status: "skipped" },
    ]);
  });

  it("puts manual builds in manual, whatever came before", () => {
    const manual = build(0, "created", "manual");
    expect(buildsToProcess([manual])).toEqual([{ id: manual.id, status: "manual" }]);
    const afterFailure = build(1, "created", "manual");
    expect(buildsToProcess([build(0, "failed"), afterFailure])).toEqual([
      { id: afterFailure.id, status: "manual" },
    ]);
  });

  it("does not let a manual build hold back the next stage", () => {
    const [manual, next] = [build(0, "created", "manual"), build(1)];
    expect(buildsToProcess([manual!, next!])).toEqual([
      { id: manual!.id, status: "manual" },
      { id: next!.id, status: "pending" },
    ]);
  });

  it("decides several stages in one call when the earlier ones are skipped", () => {
    const [first, second, third] = [
      build(0, "created", "on_failure"),
      build(1, "created", "on_failure"),
      build(2),
    ];
    expect(buildsToProcess([first!, second!, third!])).toEqual([
      { id: first!.id, status: "skipped" },
      { id: second!.id, status: "skipped" },
      { id: third!.id, status: "pending" },
    ]);
  });

  it("judges a stage by every earlier stage, not only the one before", () => {
    const last = build(2);
    expect(buildsToProcess([build(0, "failed"), build(1, "skipped"), last])).toEqual([
      { id: last.id, status: "skipped" },
    ]);
  });

  it("re-decides builds sent back to created after a retry", () => {
    const [retried, later] = [build(0, "pending"), build(1)];
    expect(buildsToProcess([retried!, later!])).toEqual([]);
    expect(buildsToProcess([{ ...retried!, status: "success" }, later!])).toEqual([
      { id: later!.id, status: "pending" },
    ]);
  });

  it("touches nothing that is not created", () => {
    expect(buildsToProcess([build(0, "success"), build(1, "running"), build(2, "skipped")])).toEqual([]);
  });
});
