import type { WebRoute } from "../route.js";

/** The server-rendered pages: sign-in, the profile, the admin area, and their stylesheet. */
export const pageRoutes: WebRoute[] = [];
