/**
 * @module @kiln/schemas
 * Zod schemas for the v3 contract: the input of every operation and the JSON shape of every
 * entity. Types are inferred from them, never written twice.
 */

export * from "./ci.js";
export * from "./ci-json.js";
export * from "./errors.js";
export * from "./groups.js";
export * from "./hooks.js";
export * from "./issuables.js";
export * from "./issues.js";
export * from "./labels.js";
export * from "./live.js";
export * from "./merge-requests.js";
export * from "./milestones.js";
export * from "./notes.js";
export * from "./oauth.js";
export * from "./pagination.js";
export * from "./primitives.js";
export * from "./project-entities.js";
export * from "./projects.js";
export * from "./repository.js";
export * from "./runners.js";
export * from "./settings.js";
export * from "./todos.js";
export * from "./triggers.js";
export * from "./two-factor.js";
export * from "./uploads.js";
export * from "./users.js";
