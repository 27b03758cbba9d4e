import { type OAuthTokens, OOB_REDIRECT_URI } from "@kiln/client";

/**
 * What is kept in the secret store for a signed-in instance, and the decisions of signing in by
 * browser that need no editor: where the consent page sends the code back to.
 */

/** A personal access token typed in, or the OAuth pair the browser sign-in brought. */
export type Credential = { kind: "token"; token: string } | { kind: "oauth"; tokens: OAuthTokens };

/**
 * The credential a stored secret holds. A personal access token is kept as itself (as it was
 * before sign-in by browser existed); an OAuth pair as JSON under `oauth`.
 */
export function readCredential(stored: string): Credential {
  if (stored.startsWith("{")) {
    try {
      const parsed = JSON.parse(stored) as { oauth?: Partial<OAuthTokens> };
      const tokens = parsed.oauth;
      if (
        typeof tokens?.accessToken === "string" &&
        typeof tokens.refreshToken === "string" &&
        typeof tokens.expiresAt === "number"
      ) {
        return { kind: "oauth", tokens: { scopes: [], ...tokens } as OAuthTokens };
      }
    } catch {
      // Not ours: taken as a token, which the server will refuse if it is none.
    }
  }
  return { kind: "token", token: stored };
}

/** The secret to keep for a credential (see {@link readCredential}). */
export function storedCredential(credential: Credential): string {
  return credential.kind === "token" ? credential.token : JSON.stringify({ oauth: credential.tokens });
}

/** Addresses a loopback code-server can be called back on: the built-in application registers these. */
const LOOPBACK_CALLBACK = /^http:\/\/(?:127\.0\.0\.1|\[::1\])(?::\d{1,5})?(?:\/[^?#]*)?\/callback(?:\?|$)/;

/**
 * The redirect URI to ask for, from the editor's own address for `<scheme>://<extension id>/auth`
 * (what `vscode.env.asExternalUri` answers): a desktop editor's URI as it is; a code-server on this
 * machine through its `/callback`; anything else (a code-server elsewhere, whose address the
 * instance cannot know) out of band, the user pasting the code the consent page shows.
 */
export function redirectUriFor(external: string): string {
  let url: URL;
  try {
    url = new URL(external);
  } catch {
    return OOB_REDIRECT_URI;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return external;
  return LOOPBACK_CALLBACK.test(external) ? external : OOB_REDIRECT_URI;
}
