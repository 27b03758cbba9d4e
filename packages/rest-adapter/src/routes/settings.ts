import type { ApplicationSettings } from "@kiln/domain";
import type { SettingsJson } from "@kiln/schemas";
import { settings } from "@kiln/services";
import { type Route, route } from "../route.js";

/** The settings as v3 answers them; Kiln keeps one settings row, id 1. */
function presentSettings({
  settings: values,
  updatedAt,
}: {
  settings: ApplicationSettings;
  updatedAt: string | null;
}): SettingsJson {
  return { id: 1, ...values, created_at: updatedAt, updated_at: updatedAt };
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
