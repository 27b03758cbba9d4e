import {
  type ApplicationSettings,
  type BranchProtection,
  invalid,
  normalizeVisibility,
  type Visibility,
} from "@kiln/domain";
import { NoInput, UpdateSettingsInput } from "@kiln/schemas";
import { mutation, query } from "../operation.js";

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

/** The instance's application settings (administrators only). */
export const settings = {
  get: query("admin", NoInput, async (ctx) => ({
    settings: await ctx.runtime.settings(),
    updatedAt: await ctx.runtime.stores.settings.updatedAt(),
  })),

  /** Changes some settings; the others keep their values. */
  update: mutation("admin", UpdateSettingsInput, async (ctx, input) => {
    const { runtime } = ctx;
    const changes = normalize(input);
    const next = { ...(await runtime.settings()), ...changes };
    if (next.domain_blacklist_enabled && next.domain_blacklist.length === 0) {
      throw invalid({ domain_blacklist: ["can't be blank when the domain blacklist is enabled"] });
    }
    await runtime.stores.transaction(async (tx) =>
      tx.settings.write({ ...(await tx.settings.read()), ...changes }),
    );
    runtime.settingsChanged();
    return { settings: await runtime.settings(), updatedAt: await runtime.stores.settings.updatedAt() };
  }),
};
