// Shared with the tRPC procedures: the services present this shape.
export { presentMergeRequestChanges } from "@kiln/services";
