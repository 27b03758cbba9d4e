import type { Route } from "../route.js";
import { projectRoutes } from "./projects.js";
import { sessionRoutes } from "./session.js";
import { settingsRoutes } from "./settings.js";
import { userRoutes } from "./users.js";

/** The whole `/api/v3` route table. */
export const v3Routes: readonly Route[] = [...sessionRoutes, ...userRoutes, ...projectRoutes, ...settingsRoutes];
