import {
  type ApplicationSettings,
  type BranchProtection,
  invalid,
  normalizeVisibility,
  type Visibility,
} from "@kiln/domain";
import { NoInput, UpdateSettingsInput } from "@kiln/schemas";
import type { SettingsStamps } from "@kiln/storage-kysely";
import { mutation, query } from "../operation.js";
import type { ServiceRuntime } from "../runtime.js";

const visibility = (value: number): Visibility => normalizeVisibility(value) ?? 0;

/** The stored form of a settings update: visibilities as 0/10/20, `nil` access as null. */
function normalize(input: UpdateSettingsInput): Partial<ApplicationSettings> {
  const {
    restricted_visibility_levels,
    default_project_visibility,
    default_snippet_visibility,
    enabled_git_access_protocol,
    default_branch_protection,
    ...rest
  } = input;
  const changes: Partial<ApplicationSettings> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) (changes as Record<string, unknown>)[key] = value;
  }
  if (restricted_visibility_levels !== undefined) {
    changes.restricted_visibility_levels = [...new Set(restricted_visibility_levels.map(visibility))].sort();
  }
  if (default_project_visibility !== undefined)
    changes.default_project_visibility = visibility(default_project_visibility);
  if (default_snippet_visibility !== undefined)
    changes.default_snippet_visibility = visibility(default_snippet_visibility);
  if (default_branch_protection !== undefined)
    changes.default_branch_protection = default_branch_protection as BranchProtection;
  if (enabled_git_access_protocol !== undefined) {
    changes.enabled_git_access_protocol =
      enabled_git_access_protocol === "ssh" || enabled_git_access_protocol === "http"
        ? enabled_git_access_protocol
        : null;
  }
  return changes;
}

/** The changes that give a setting another value than it has. */
function effective(
  current: ApplicationSettings,
  changes: Partial<ApplicationSettings>,
): Partial<ApplicationSettings> {
  return Object.fromEntries(
    Object.entries(changes).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(current[key as keyof ApplicationSettings]),
    ),
  );
}

/** The application settings as the API shows them: their values, when created and last changed. */
export interface SettingsView {
  settings: ApplicationSettings;
  stamps: SettingsStamps;
}

async function settingsView(runtime: ServiceRuntime): Promise<SettingsView> {
  return { settings: await runtime.settings(), stamps: await runtime.stores.settings.stamps() };
}

/** The instance's application settings (administrators only). */
export const settings = {
  get: query("admin", NoInput, (ctx) => settingsView(ctx.runtime)),

  /**
   * Changes some settings; the others keep their values. As in GitLab (Rails saves no record
   * whose values did not change), `updated_at` moves only when a value does.
   */
  update: mutation("admin", UpdateSettingsInput, async (ctx, input) => {
    const { runtime } = ctx;
    const current = await runtime.settings();
    const changes = effective(current, normalize(input));
    if (changes.require_two_factor_authentication !== undefined) {
      changes.two_factor_required_since = changes.require_two_factor_authentication
        ? new Date().toISOString()
        : null;
    }
    const next = { ...current, ...changes };
    if (next.domain_blacklist_enabled && next.domain_blacklist.length === 0) {
      throw invalid({ domain_blacklist: ["can't be blank when the domain blacklist is enabled"] });
    }
    if (Object.keys(changes).length > 0) {
      await runtime.stores.transaction(async (tx) =>
        tx.settings.write({ ...(await tx.settings.read()), ...changes }),
      );
      runtime.settingsChanged();
    }
    return settingsView(runtime);
  }),
};
