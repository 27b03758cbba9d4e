import type { BuildJson, CiStatus, PipelineJson } from "@kiln/schemas";

/** A codicon name and the theme colour that goes with it. */
export interface StatusIcon {
  id: string;
  color?: "charts.green" | "charts.red" | "charts.yellow" | "charts.blue" | "disabledForeground";
}

/** Each status's icon (ThemeIcon ids; `~spin` turns it) and words. */
const STATUSES: Record<CiStatus, { icon: StatusIcon; words: string }> = {
  created: { icon: { id: "circle-outline" }, words: "created" },
  pending: { icon: { id: "clock", color: "charts.yellow" }, words: "pending" },
  running: { icon: { id: "sync~spin", color: "charts.blue" }, words: "running" },
  success: { icon: { id: "pass", color: "charts.green" }, words: "passed" },
  failed: { icon: { id: "error", color: "charts.red" }, words: "failed" },
  canceled: { icon: { id: "circle-slash", color: "disabledForeground" }, words: "canceled" },
  skipped: { icon: { id: "debug-step-over", color: "disabledForeground" }, words: "skipped" },
  manual: { icon: { id: "gear" }, words: "manual" },
};

/** The icon of a pipeline's or build's status. */
export const statusIcon = (status: CiStatus): StatusIcon => STATUSES[status].icon;

/** A status in words: `passed`, `running`, … */
export const statusWords = (status: CiStatus): string => STATUSES[status].words;

/** Whether a build may still change: a retry is offered only once it may not. */
export const isActive = (status: CiStatus): boolean =>
  status === "created" || status === "pending" || status === "running";

/** Seconds as `42s`, `3m 05s` or `1h 02m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (s < 3600) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  return `${Math.floor(s / 3600)}h ${pad(Math.floor((s % 3600) / 60))}m`;
}

/** How long a build ran: to its end, or to `now` while it runs; null before it started. */
export function buildDuration(
  build: Pick<BuildJson, "started_at" | "finished_at">,
  now: Date,
): number | null {
  if (!build.started_at) return null;
  const end = build.finished_at ? Date.parse(build.finished_at) : now.getTime();
  return (end - Date.parse(build.started_at)) / 1000;
}

/** One job of the Builds view. */
export interface JobLine {
  kind: "job";
  key: string;
  label: string;
  /** Status and duration. */
  description: string;
  tooltip: string;
  icon: StatusIcon;
  projectId: number;
  buildId: number;
  status: CiStatus;
  /** `build.active` (offers cancel) or `build.finished` (offers retry). */
  contextValue: "build.active" | "build.finished";
}

/** A stage of the pipeline with its jobs. */
export interface StageNode {
  kind: "stage";
  key: string;
  label: string;
  description: string;
  icon: StatusIcon;
  jobs: JobLine[];
}

/** The pipeline heading the Builds view. */
export interface PipelineNode {
  kind: "pipeline";
  key: string;
  label: string;
  description: string;
  tooltip: string;
  icon: StatusIcon;
  stages: StageNode[];
}

/** A job's line: its name, its status and how long it ran. */
export function jobLine(projectId: number, build: BuildJson, now: Date): JobLine {
  const seconds = buildDuration(build, now);
  const took = seconds === null ? "" : ` · ${formatDuration(seconds)}`;
  return {
    kind: "job",
    key: `job:${build.id}`,
    label: build.name,
    description: `${statusWords(build.status)}${took}`,
    tooltip: `${build.name} (#${build.id}), stage ${build.stage}: ${statusWords(build.status)}${took}`,
    icon: statusIcon(build.status),
    projectId,
    buildId: build.id,
    status: build.status,
    contextValue: isActive(build.status) ? "build.active" : "build.finished",
  };
}

/**
 * A stage's status from its jobs' (as 8.x sums a stage): running while any runs, else pending
 * while any waits, failed if any failed, passed when all passed or were skipped.
 */
export function stageStatus(statuses: readonly CiStatus[]): CiStatus {
  const any = (status: CiStatus) => statuses.includes(status);
  if (statuses.length === 0) return "skipped";
  if (any("running")) return "running";
  if (any("pending")) return "pending";
  if (any("failed")) return "failed";
  if (any("canceled")) return "canceled";
  if (any("manual")) return "manual";
  if (any("created")) return "created";
  if (statuses.every((status) => status === "skipped")) return "skipped";
  return "success";
}

/** The Builds view's tree: the pipeline, its stages in order, each with its jobs. */
export function pipelineTree(
  projectId: number,
  pipeline: PipelineJson,
  builds: readonly BuildJson[],
  now: Date,
): PipelineNode {
  const stages = new Map<string, BuildJson[]>();
  for (const build of builds) stages.set(build.stage, [...(stages.get(build.stage) ?? []), build]);
  const took = pipeline.duration === null ? "" : ` · ${formatDuration(pipeline.duration)}`;
  return {
    kind: "pipeline",
    key: `pipeline:${pipeline.id}`,
    label: `Pipeline #${pipeline.id} on ${pipeline.ref}`,
    description: `${statusWords(pipeline.status)}${took} · ${pipeline.sha.slice(0, 8)}`,
    tooltip: `Pipeline #${pipeline.id} for ${pipeline.ref} at ${pipeline.sha.slice(0, 8)}: ${statusWords(pipeline.status)}${pipeline.yaml_errors ? `\n${pipeline.yaml_errors}` : ""}`,
    icon: statusIcon(pipeline.status),
    stages: [...stages].map(([name, jobs]) => {
      const status = stageStatus(jobs.map((job) => job.status));
      return {
        kind: "stage",
        key: `stage:${pipeline.id}:${name}`,
        label: name,
        description: statusWords(status),
        icon: statusIcon(status),
        jobs: jobs.map((job) => jobLine(projectId, job, now)),
      };
    }),
  };
}

/** The status bar's text for the current branch's pipeline (codicons in `$(…)`). */
export function statusBarText(pipeline: Pick<PipelineJson, "status" | "id"> | null): string {
  if (!pipeline) return "$(circle-slash) No pipeline";
  return `$(${statusIcon(pipeline.status).id}) Pipeline ${statusWords(pipeline.status)}`;
}
