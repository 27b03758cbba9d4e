import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyError, drainBeforeAnswer, readBodyParams, type Served } from "@kiln/rest-adapter";
import { type ClientCredentials, OAuthError, type OAuthErrorCode, type TokenParams } from "@kiln/services";

/** RFC 6749 §5.2: the status of each error of the token endpoint. */
const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
};

/**
 * Writes a JSON answer that no cache keeps (tokens are in it: RFC 6749 §5.1), after reading what is
 * left of the body so that the client reads the answer.
 */
export async function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Served> {
  await drainBeforeAnswer(req, res);
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(json),
    "Cache-Control": "no-store",
    Pragma: "no-cache",
  });
  res.end(req.method === "HEAD" ? undefined : json);
  return { status, userId: null };
}

/**
 * RFC 6749's error object, with its status (`WWW-Authenticate` on `invalid_client`, §5.2); the
 * sign-in throttle's refusal is `429 Too Many Requests` with `Retry-After`.
 */
export function sendOAuthError(
  req: IncomingMessage,
  res: ServerResponse,
  error: OAuthError,
): Promise<Served> {
  const throttled = error.retryAfterSeconds !== undefined;
  const headers: Record<string, string> = throttled
    ? { "Retry-After": String(error.retryAfterSeconds) }
    : error.code === "invalid_client"
      ? { "WWW-Authenticate": 'Basic realm="Kiln OAuth", error="invalid_client"' }
      : {};
  return sendJson(
    req,
    res,
    throttled ? 429 : STATUS[error.code],
    { error: error.code, error_description: error.description },
    headers,
  );
}

/**
 * The parameters of a token or revoke request: the query string, then a form or JSON body (bounded
 * as the API's bodies are). A body that cannot be read is the client's fault (`invalid_request`).
 */
export async function readTokenParams(req: IncomingMessage): Promise<TokenParams> {
  try {
    const search = (req.url ?? "/").split("?", 2)[1] ?? "";
    const query = Object.fromEntries(new URLSearchParams(search));
    const body = await readBodyParams(req);
    return { ...query, ...body };
  } catch (error) {
    if (error instanceof BodyError) throw new OAuthError("invalid_request", error.message);
    throw new OAuthError("invalid_request", "The request body could not be read.");
  }
}

/** The client id and secret of an `Authorization: Basic` header (form-encoded, RFC 6749 §2.3.1), or null. */
export function basicClient(req: IncomingMessage): ClientCredentials | null {
  const match = /^Basic[ \t]+([A-Za-z0-9+/=_-]*)[ \t]*$/i.exec(req.headers.authorization ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new OAuthError("invalid_client", "Client authentication failed.");
  const part = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, " "));
    } catch {
      throw new OAuthError("invalid_client", "Client authentication failed.");
    }
  };
  return { id: part(decoded.slice(0, colon)), secret: part(decoded.slice(colon + 1)) };
}

/** The bearer token of a request: `Authorization: Bearer` or the `access_token` query parameter. */
export function bearerToken(req: IncomingMessage): string | null {
  const match = /^Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/i.exec(req.headers.authorization ?? "");
  if (match) return match[1] as string;
  const search = (req.url ?? "/").split("?", 2)[1] ?? "";
  return new URLSearchParams(search).get("access_token");
}
