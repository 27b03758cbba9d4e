import type { WebRoute } from "../route.js";

/** The OAuth 2.0 provider's endpoints under `/oauth`. */
export const oauthRoutes: WebRoute[] = [];
