/**
 * @module @kiln/storage-kysely
 * Kiln's persistence: the Database type, portable migrations and one store per aggregate, on
 * SQLite (better-sqlite3) and PostgreSQL (pg).
 */
export {
  type DatabaseLocation,
  type DialectName,
  type OpenDatabase,
  openDatabase,
  type SqliteSynchronous,
} from "./connect.js";
export type { Database } from "./database.js";
export { isUniqueViolation, UniqueViolation } from "./errors.js";
export { type MigrationReport, migrateToLatest } from "./migrate.js";
export type { CountMode } from "./queries.js";
export type { NewEvent } from "./stores/events.js";
export type { HookPatch, HookStore, NewHook } from "./stores/hooks.js";
export type { Member } from "./stores/members.js";
export type { GroupFields } from "./stores/namespaces.js";
export type { ShareWithGroup } from "./stores/project-links.js";
export type {
  NewProject,
  ProjectFilter,
  ProjectOrder,
  ProjectOrderColumn,
  ProjectPatch,
  ProjectScope,
} from "./stores/projects.js";
export type { ProtectedBranchStore, ProtectionFlags } from "./stores/protected-branches.js";
export type { NewUpload, UploadStore } from "./stores/uploads.js";
export type { NewUser, UserFilter, UserPatch } from "./stores/users.js";
export { Stores } from "./stores.js";
