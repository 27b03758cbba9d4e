import type { BasicCredentials } from "@kiln/services";

/**
 * The credentials of an `Authorization: Basic …` header: null when there is none (or another
 * scheme, which git never sends), `"malformed"` when it cannot be read, which is answered like
 * wrong credentials. The password keeps any colon after the first one, as RFC 7617 says.
 */
export function parseBasicAuth(header: string | undefined): BasicCredentials | null | "malformed" {
  if (header === undefined) return null;
  const match = /^Basic[ \t]+([A-Za-z0-9+/=_-]*)[ \t]*$/i.exec(header);
  if (!match) return /^Basic(\s|$)/i.test(header) ? "malformed" : null;
  const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return "malformed";
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
