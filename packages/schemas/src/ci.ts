import { z } from "zod";
import { PaginationParams } from "./pagination.js";
import { Id, ShortText } from "./primitives.js";
import { ProjectRef } from "./projects.js";

/** A `scope` of builds: one status or several (`scope[]=`); each is checked by the operation. */
export const BuildScope = z.union([z.string(), z.array(z.string())]).optional();

/** `GET /projects/:id/builds`. */
export const ListBuildsInput = PaginationParams.extend({ id: ProjectRef, scope: BuildScope });
export type ListBuildsInput = z.infer<typeof ListBuildsInput>;

/** `GET /projects/:id/repository/commits/:sha/builds`. */
export const CommitBuildsInput = PaginationParams.extend({
  id: ProjectRef,
  sha: z.string().min(1),
  scope: BuildScope,
});
export type CommitBuildsInput = z.infer<typeof CommitBuildsInput>;

/** Routes that name one build of a project. */
export const BuildRefInput = z.object({ id: ProjectRef, build_id: Id });
export type BuildRefInput = z.infer<typeof BuildRefInput>;

/** `GET /projects/:id/builds/artifacts/:ref_name/download?job=`. */
export const ArtifactsByRefInput = z.object({
  id: ProjectRef,
  ref_name: z.string().min(1),
  job: z.string().min(1),
});
export type ArtifactsByRefInput = z.infer<typeof ArtifactsByRefInput>;

/** `GET /projects/:id/pipelines`. */
export const ListPipelinesInput = PaginationParams.extend({
  id: ProjectRef,
  scope: z.enum(["running", "pending", "finished", "branches", "tags"]).optional(),
});
export type ListPipelinesInput = z.infer<typeof ListPipelinesInput>;

/** Routes that name one pipeline of a project. */
export const PipelineRefInput = z.object({ id: ProjectRef, pipeline_id: Id });
export type PipelineRefInput = z.infer<typeof PipelineRefInput>;

/** `POST /projects/:id/pipeline`. */
export const CreatePipelineInput = z.object({ id: ProjectRef, ref: z.string().min(1) });
export type CreatePipelineInput = z.infer<typeof CreatePipelineInput>;

/** `GET /projects/:id/variables`. */
export const ListVariablesInput = PaginationParams.extend({ id: ProjectRef });
export type ListVariablesInput = z.infer<typeof ListVariablesInput>;

/** Routes that name one variable of a project. */
export const VariableRefInput = z.object({ id: ProjectRef, key: z.string().min(1) });
export type VariableRefInput = z.infer<typeof VariableRefInput>;

/** `POST /projects/:id/variables` (both required) and `PUT …/:key` (the value only changes). */
export const WriteVariableInput = z.object({ id: ProjectRef, key: z.string(), value: z.string() });
export type WriteVariableInput = z.infer<typeof WriteVariableInput>;

/** `GET /projects/:id/repository/commits/:sha/statuses`: the latest status of each name unless `all`. */
export const CommitStatusesInput = PaginationParams.extend({
  id: ProjectRef,
  sha: z.string().min(1),
  ref: z.string().optional(),
  stage: z.string().optional(),
  name: z.string().optional(),
  all: z.boolean().optional(),
});
export type CommitStatusesInput = z.infer<typeof CommitStatusesInput>;

/** The states an external CI may post for a commit. */
export const CommitStatusState = z.enum(["pending", "running", "success", "failed", "canceled"]);
export type CommitStatusState = z.infer<typeof CommitStatusState>;

/** `POST /projects/:id/statuses/:sha`: `name` or `context` names the status (default `default`). */
export const CreateCommitStatusInput = z.object({
  id: ProjectRef,
  sha: z.string().min(1),
  state: CommitStatusState,
  ref: ShortText.min(1).optional(),
  name: ShortText.min(1).optional(),
  context: ShortText.min(1).optional(),
  target_url: ShortText.optional(),
  description: ShortText.optional(),
});
export type CreateCommitStatusInput = z.infer<typeof CreateCommitStatusInput>;

/** The latest pipeline of a branch or tag: its head's newest pipeline. */
export const LatestPipelineInput = z.object({ id: ProjectRef, ref: z.string().min(1) });
export type LatestPipelineInput = z.infer<typeof LatestPipelineInput>;

/** A build's trace from `offset` bytes on (0, the start, by default), to follow it while it runs. */
export const BuildTraceInput = BuildRefInput.extend({ offset: z.number().int().min(0).default(0) });
export type BuildTraceInput = z.infer<typeof BuildTraceInput>;
