import type { IncomingMessage } from "node:http";

/** How a cookie is set: always `Path=/`, `HttpOnly` and `SameSite=Lax`. */
export interface CookieOptions {
  /** `Secure`: set when the server's base URL is https. */
  secure: boolean;
  /** `Max-Age` in seconds; without it the cookie lasts until the browser closes. */
  maxAgeSeconds?: number | undefined;
}

/** The value of the cookie `name` the request carries, or undefined. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A `Set-Cookie` value: the value URI-encoded, scripts kept out (`HttpOnly`), cross-site posts without it (`SameSite=Lax`). */
export function setCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAgeSeconds)}`);
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/** A `Set-Cookie` value that removes the cookie. */
export function clearCookie(name: string, options: Pick<CookieOptions, "secure">): string {
  return setCookie(name, "", { secure: options.secure, maxAgeSeconds: 0 });
}
