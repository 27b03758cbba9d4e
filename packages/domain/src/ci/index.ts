export * from "./pipeline-status.js";
export * from "./process.js";
export * from "./statuses.js";
export * from "./runners.js";
