import type { IncomingMessage, ServerResponse } from "node:http";
import { clientAddress, type Served } from "@kiln/rest-adapter";
import { exchangeToken, OAuthError, revokeToken, tokenInfo } from "@kiln/services";
import type { WebContext, WebRoute } from "../route.js";
import { basicClient, bearerToken, readTokenParams, sendJson, sendOAuthError } from "./respond.js";

type Endpoint = (context: WebContext, req: IncomingMessage, res: ServerResponse) => Promise<Served>;

/** Answers an {@link OAuthError} as RFC 6749's error object; anything else is left to the front door (500). */
function refusing(endpoint: Endpoint): Endpoint {
  return async (context, req, res) => {
    try {
      return await endpoint(context, req, res);
    } catch (error) {
      if (error instanceof OAuthError && !res.headersSent) return sendOAuthError(req, res, error);
      throw error;
    }
  };
}

/** `POST /oauth/token`: the authorization-code, password and refresh-token grants. */
const token: Endpoint = async ({ runtime }, req, res) => {
  const client = basicClient(req);
  const issued = await exchangeToken(runtime, await readTokenParams(req), client, clientAddress(req));
  return sendJson(req, res, 200, issued);
};

/** `POST /oauth/revoke` (RFC 7009): 200 whether or not the token was known. */
const revoke: Endpoint = async ({ runtime }, req, res) => {
  const client = basicClient(req);
  await revokeToken(runtime, await readTokenParams(req), client);
  return sendJson(req, res, 200, {});
};

/** `GET /oauth/token/info`: the facts of the Bearer token, or 401 `invalid_token` (RFC 6750). */
const info: Endpoint = async ({ runtime }, req, res) => {
  const bearer = bearerToken(req);
  const facts = bearer === null || bearer === "" ? null : await tokenInfo(runtime, bearer);
  if (facts) return sendJson(req, res, 200, facts);
  const description = "The access token is invalid, expired or revoked.";
  return sendJson(
    req,
    res,
    401,
    { error: "invalid_token", error_description: description },
    {
      "WWW-Authenticate": `Bearer realm="Kiln", error="invalid_token", error_description="${description}"`,
    },
  );
};

/** The OAuth 2.0 provider's endpoints under `/oauth` (the authorize page is the pages' own). */
export const oauthRoutes: WebRoute[] = [
  { method: "POST", path: "/oauth/token", handle: refusing(token) },
  { method: "POST", path: "/oauth/revoke", handle: refusing(revoke) },
  { method: "GET", path: "/oauth/token/info", handle: refusing(info) },
];
