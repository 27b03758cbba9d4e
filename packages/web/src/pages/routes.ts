import type { WebRoute } from "../route.js";
import { adminRoutes } from "./admin-settings.js";
import { authorizeRoutes } from "./oauth-authorize.js";
import { accountRoutes } from "./profile/account.js";
import { applicationRoutes } from "./profile/applications.js";
import { keyRoutes } from "./profile/keys.js";
import { sessionRoutes } from "./profile/sessions.js";
import { tokenRoutes } from "./profile/tokens.js";
import { twoFactorRoutes } from "./profile/two-factor.js";
import { signInRoutes } from "./sign-in.js";
import { stylesheetRoute } from "./stylesheet.js";

/** The server-rendered pages: sign-in, the profile, the admin area, the OAuth consent, and their stylesheet. */
export const pageRoutes: WebRoute[] = [
  stylesheetRoute,
  ...signInRoutes,
  ...accountRoutes,
  ...tokenRoutes,
  ...keyRoutes,
  ...sessionRoutes,
  ...applicationRoutes,
  ...twoFactorRoutes,
  ...adminRoutes,
  ...authorizeRoutes,
];
