/**
 * @module @kiln/domain
 * Kiln's domain model: pure data and rules, no I/O. Every other package builds on it.
 */
export * from "./access.js";
export * from "./branches.js";
export * from "./ci/index.js";
export * from "./errors.js";
export * from "./events.js";
export * from "./failures.js";
export * from "./hooks.js";
export * from "./issues.js";
export * from "./labels.js";
export * from "./local-address.js";
export * from "./merge-requests.js";
export * from "./milestones.js";
export * from "./naming.js";
export * from "./notes.js";
export * from "./oauth.js";
export * from "./pagination.js";
export * from "./permissions.js";
export * from "./project.js";
export * from "./push.js";
export * from "./references.js";
export * from "./settings.js";
export * from "./state-machine.js";
export * from "./todos.js";
export * from "./uploads.js";
export * from "./user.js";
