import { z } from "zod";
import { PaginationParams } from "./pagination.js";
import { Id } from "./primitives.js";
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

/** The latest pipeline of a branch or tag: its head's newest pipeline. */
export const LatestPipelineInput = z.object({ id: ProjectRef, ref: z.string().min(1) });
export type LatestPipelineInput = z.infer<typeof LatestPipelineInput>;

/** A build's trace from `offset` bytes on (0, the start, by default), to follow it while it runs. */
export const BuildTraceInput = BuildRefInput.extend({ offset: z.number().int().min(0).default(0) });
export type BuildTraceInput = z.infer<typeof BuildTraceInput>;
