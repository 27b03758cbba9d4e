import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { sql } from "kysely";

// Frozen: never edit a migration that has landed; add a new one.

/**
 * The built-in OAuth application of Kiln's VS Code extension (client id `kiln-vscode`), a public
 * client: its secret is a digest of random bytes nobody keeps, so it can only redeem a code with
 * its PKCE verifier. Its redirect URIs are the extension's URI handler under each VS Code build's
 * scheme, a code-server on this machine (`/callback` on a loopback address), and the out-of-band
 * page that shows the code to copy. An administrator may delete it like any application.
 */
const REDIRECT_URIS = [
  "vscode://kiln.kiln/auth",
  "vscode-insiders://kiln.kiln/auth",
  "vscodium://kiln.kiln/auth",
  "code-oss://kiln.kiln/auth",
  "http://127.0.0.1/callback",
  "http://[::1]/callback",
  "urn:ietf:wg:oauth:2.0:oob",
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const now = new Date().toISOString();
  const secretDigest = createHash("sha256").update(randomBytes(32)).digest("hex");
  await sql`insert into oauth_applications
    (owner_id, name, uid, secret_digest, redirect_uri, scopes, created_at, updated_at)
    values (null, ${"Kiln for VS Code"}, ${"kiln-vscode"}, ${secretDigest}, ${REDIRECT_URIS.join("\n")},
      ${"api"}, ${now}, ${now})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from oauth_applications where uid = ${"kiln-vscode"}`.execute(db);
}
