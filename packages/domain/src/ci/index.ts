export * from "./pipeline-status.js";
export * from "./process.js";
export * from "./runners.js";
export * from "./statuses.js";
