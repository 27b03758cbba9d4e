import { createReadStream } from "node:fs";
import { type ArtifactsDownload, builds } from "@kiln/services";
import { presentBuild, presentBuildWithDownload } from "../presenters/ci.js";
import { listRoute, type RawBody, type Route, rawRoute, route } from "../route.js";

const BUILDS = "/projects/:id/builds";

/** An artifacts archive as a download. */
function presentArchive(download: ArtifactsDownload): RawBody {
  return {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${download.filename.replace(/["\\\r\n]/g, "_")}"`,
      "Content-Length": download.size,
    },
    content: createReadStream(download.path),
  };
}

/** `/projects/:id/builds` and the builds of a commit, as GitLab 8.x serves them (the spec's Builds table). */
export const buildRoutes: Route[] = [
  listRoute({ method: "GET", path: BUILDS, operation: builds.list, present: presentBuild }),
  listRoute({
    method: "GET",
    path: "/projects/:id/repository/commits/:sha/builds",
    operation: builds.ofCommit,
    present: presentBuild,
  }),
  route({ method: "GET", path: `${BUILDS}/:build_id`, operation: builds.get, present: presentBuild }),
  rawRoute({
    method: "GET",
    path: `${BUILDS}/:build_id/artifacts`,
    operation: builds.artifacts,
    present: presentArchive,
  }),
  rawRoute({
    method: "GET",
    path: `${BUILDS}/artifacts/*ref_name/download`,
    operation: builds.artifactsByRef,
    present: presentArchive,
  }),
  rawRoute({
    method: "GET",
    path: `${BUILDS}/:build_id/trace`,
    operation: builds.trace,
    present: ({ id, trace }) => ({
      headers: { "Content-Type": "text/plain", "Content-Disposition": `infile; filename="${id}.log"` },
      content: Buffer.from(trace, "utf8"),
    }),
  }),
  route({
    method: "POST",
    path: `${BUILDS}/:build_id/cancel`,
    operation: builds.cancel,
    present: presentBuild,
  }),
  route({
    method: "POST",
    path: `${BUILDS}/:build_id/retry`,
    operation: builds.retry,
    present: presentBuild,
  }),
  route({
    method: "POST",
    path: `${BUILDS}/:build_id/erase`,
    operation: builds.erase,
    present: presentBuildWithDownload,
  }),
  route({
    method: "POST",
    path: `${BUILDS}/:build_id/artifacts/keep`,
    status: 200,
    operation: builds.keep,
    present: presentBuildWithDownload,
  }),
  route({
    method: "POST",
    path: `${BUILDS}/:build_id/play`,
    status: 200,
    operation: builds.play,
    present: presentBuild,
  }),
];
