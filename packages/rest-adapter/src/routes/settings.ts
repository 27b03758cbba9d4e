import type { SettingsJson } from "@kiln/schemas";
import { type SettingsView, settings } from "@kiln/services";
import { type Route, route } from "../route.js";

/**
 * The settings as v3 answers them; Kiln keeps one settings row, id 1. When the 2FA requirement
 * started is bookkeeping of the services, not a setting.
 */
function presentSettings({ settings: values, stamps }: SettingsView): SettingsJson {
  const { two_factor_required_since: _since, ...shown } = values;
  return { id: 1, ...shown, created_at: stamps.created_at, updated_at: stamps.updated_at };
}

/** `GET` and `PUT /application/settings` (administrators only). */
export const settingsRoutes: Route[] = [
  route({ method: "GET", path: "/application/settings", operation: settings.get, present: presentSettings }),
  route({
    method: "PUT",
    path: "/application/settings",
    operation: settings.update,
    present: presentSettings,
  }),
];
