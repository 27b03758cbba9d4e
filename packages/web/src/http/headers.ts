/**
 * The policy of a page: nothing but Kiln's own files, no script at all (the pages work without
 * JavaScript), images also as `data:` URIs (the 2FA QR code), forms posted to `formAction` (Kiln
 * only, unless a form's answer redirects elsewhere: the OAuth consent), and never inside another
 * site's frame.
 */
export function contentSecurityPolicy(formAction: readonly string[] = ["'self'"]): string {
  return [
    "default-src 'self'",
    "script-src 'none'",
    "img-src 'self' data:",
    "style-src 'self'",
    `form-action ${formAction.join(" ")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; ");
}

/** The policy of every page but the OAuth consent. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** The headers of every page (HTML, redirects and error pages alike). */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "Cache-Control": "no-store",
});
