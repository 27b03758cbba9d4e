/**
 * The instances the user signed in to. What is kept outside the secret store is only the URL, the
 * username and the TLS choice; the token is kept in the secret store under {@link tokenKey}.
 */

/** One signed-in instance, as remembered across windows (no token). */
export interface Account {
  /** The instance's base URL, normalised by {@link normaliseInstanceUrl}. */
  url: string;
  username: string;
}

/** How to trust an instance's certificate beyond the system's roots. */
export interface TlsOption {
  /** A PEM file: a company CA or the server's own self-signed certificate. */
  ca?: string;
  /** Trust the certificate the server presented when the user signed in (pinned, stored with the token). */
  allowSelfSigned?: boolean;
}

/**
 * An instance URL as typed (`kiln.example.com/`, `HTTPS://Kiln.example.com/gitlab`) in the one form
 * accounts are keyed by (`https://kiln.example.com/gitlab`), or an error saying what is wrong.
 */
export function normaliseInstanceUrl(input: string): { url: string } | { error: string } {
  const trimmed = input.trim();
  if (trimmed === "") return { error: "Enter the instance's URL, such as https://kiln.example.com" };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return { error: `"${trimmed}" is not a URL` };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return { error: "The instance's URL must start with https:// (or http://)" };
  }
  if (parsed.search || parsed.hash) return { error: "The instance's URL takes no query or fragment" };
  const path = parsed.pathname.replace(/\/+$/, "");
  return { url: `${parsed.protocol}//${parsed.host}${path}` };
}

/** Where an instance's token is kept in the secret store. */
export const tokenKey = (url: string): string => `kiln.token:${url}`;

/** The accounts with `account` added, replacing one of the same URL. */
export function withAccount(accounts: readonly Account[], account: Account): Account[] {
  return [...accounts.filter((known) => known.url !== account.url), account].sort((a, b) =>
    a.url.localeCompare(b.url),
  );
}

/** The accounts without the one of `url`. */
export const withoutAccount = (accounts: readonly Account[], url: string): Account[] =>
  accounts.filter((known) => known.url !== url);

/** The TLS option the settings give for `url` (settings keys may carry a trailing slash). */
export function tlsOptionOf(
  settings: Readonly<Record<string, TlsOption>> | undefined,
  url: string,
): TlsOption {
  for (const [key, option] of Object.entries(settings ?? {})) {
    const normal = normaliseInstanceUrl(key);
    if ("url" in normal && normal.url === url) return option;
  }
  return {};
}
