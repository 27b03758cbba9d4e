import { pipelines } from "@kiln/services";
import { presentPipeline } from "../presenters/ci.js";
import { listRoute, type Route, route } from "../route.js";

const PIPELINES = "/projects/:id/pipelines";

/** `/projects/:id/pipelines` and `POST /projects/:id/pipeline`, as GitLab 8.x serves them. */
export const pipelineRoutes: Route[] = [
  listRoute({ method: "GET", path: PIPELINES, operation: pipelines.list, present: presentPipeline }),
  route({
    method: "GET",
    path: `${PIPELINES}/:pipeline_id`,
    operation: pipelines.get,
    present: presentPipeline,
  }),
  route({
    method: "POST",
    path: `${PIPELINES}/:pipeline_id/retry`,
    operation: pipelines.retry,
    present: presentPipeline,
  }),
  route({
    method: "POST",
    path: `${PIPELINES}/:pipeline_id/cancel`,
    status: 200,
    operation: pipelines.cancel,
    present: presentPipeline,
  }),
  route({
    method: "POST",
    path: "/projects/:id/pipeline",
    operation: pipelines.create,
    present: presentPipeline,
  }),
];
