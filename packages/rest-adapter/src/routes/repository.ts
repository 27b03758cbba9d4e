import { type ArchiveFormat, ArchiveInput } from "@kiln/schemas";
import { invoke, repository } from "@kiln/services";
import { presentCompare, presentTreeObject } from "../presenters/commits.js";
import { presentArchive, presentBlob } from "../presenters/repository.js";
import { type Route, rawRoute, route } from "../route.js";

const base = "/projects/:id/repository";

/**
 * `GET …/repository/archive.<format>`: GitLab's spelling with the format in the path, which wins
 * over a `format` parameter.
 */
const archiveWithSuffix = (format: ArchiveFormat): Route =>
  rawRoute({
    method: "GET",
    path: `${base}/archive.${format}`,
    params: ArchiveInput,
    call: (context, input) => invoke(repository.archive, context, { ...input, format }),
    present: presentArchive,
  });

/**
 * `/projects/:id/repository/…`: the tree, files by commit and path, blobs by id and archives
 * (answered as bytes, not JSON), and comparisons of two revisions.
 */
export const repositoryRoutes: Route[] = [
  route({
    method: "GET",
    path: `${base}/tree`,
    operation: repository.tree,
    present: (entries) => entries.map(presentTreeObject),
  }),
  rawRoute({
    method: "GET",
    path: `${base}/blobs/:sha`,
    operation: repository.blobAtCommit,
    present: presentBlob,
  }),
  rawRoute({
    method: "GET",
    path: `${base}/commits/:sha/blob`,
    operation: repository.blobAtCommit,
    present: presentBlob,
  }),
  rawRoute({
    method: "GET",
    path: `${base}/raw_blobs/:sha`,
    operation: repository.rawBlob,
    present: presentBlob,
  }),
  rawRoute({
    method: "GET",
    path: `${base}/archive`,
    operation: repository.archive,
    present: presentArchive,
  }),
  ...ArchiveInput.shape.format.unwrap().options.map(archiveWithSuffix),
  route({ method: "GET", path: `${base}/compare`, operation: repository.compare, present: presentCompare }),
];
