import type { Migration, MigrationProvider } from "kysely";
import * as m0001 from "./0001_accounts.js";
import * as m0002 from "./0002_projects.js";
import * as m0003 from "./0003_user_project_counts.js";
import * as m0004 from "./0004_protected_branches.js";
import * as m0005 from "./0005_unicode_case_folding.js";
import * as m0006 from "./0006_collaboration.js";
import * as m0007 from "./0007_label_counters.js";
import * as m0008 from "./0008_merge_intents.js";
import * as m0009 from "./0009_public_issues_sealed_imports.js";
import * as m0010 from "./0010_settings_created_at.js";
import * as m0011 from "./0011_outbox.js";
import * as m0012 from "./0012_hook_deliveries.js";
import * as m0013 from "./0013_ci.js";
import * as m0014 from "./0014_build_timeout.js";
import * as m0015 from "./0015_merge_params.js";
import * as m0016 from "./0016_oauth.js";
import * as m0017 from "./0017_web_sessions.js";
import * as m0018 from "./0018_two_factor.js";
import * as m0019 from "./0019_editor_application.js";

/**
 * Every migration, registered statically so the server still finds them once bundled.
 * Names sort in the order they run.
 */
const migrations: Record<string, Migration> = {
  "0001_accounts": m0001,
  "0002_projects": m0002,
  "0003_user_project_counts": m0003,
  "0004_protected_branches": m0004,
  "0005_unicode_case_folding": m0005,
  "0006_collaboration": m0006,
  "0007_label_counters": m0007,
  "0008_merge_intents": m0008,
  "0009_public_issues_sealed_imports": m0009,
  "0010_settings_created_at": m0010,
  "0011_outbox": m0011,
  "0012_hook_deliveries": m0012,
  "0013_ci": m0013,
  "0014_build_timeout": m0014,
  "0015_merge_params": m0015,
  "0016_oauth": m0016,
  "0017_web_sessions": m0017,
  "0018_two_factor": m0018,
  "0019_editor_application": m0019,
};

/** The static migration provider. */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
