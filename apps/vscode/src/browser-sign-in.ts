import {
  authorizationUrl,
  createPkcePair,
  EDITOR_CLIENT_ID,
  exchangeAuthorizationCode,
  OOB_REDIRECT_URI,
  randomUrlSafe,
  readAuthorizationResponse,
} from "@kiln/client";
import * as vscode from "vscode";
import type { Reachable } from "./accounts.js";
import { type Credential, redirectUriFor } from "./model/credentials.js";

/** The path of the extension's URI the consent page sends the code back to. */
const CALLBACK_PATH = "/auth";

/** How long a sign-in waits for the browser before it gives up, in ms. */
const WAIT_MS = 5 * 60_000;

/**
 * Sign-in by browser (OAuth 2.0 with PKCE, as the built-in public application `kiln-vscode`): opens
 * the instance's consent page, then takes the code the browser brings back to the extension's URI
 * handler (a desktop editor, or a code-server on this machine), or that the user pastes (any other
 * code-server), and redeems it. The handler is registered once for the window; each sign-in waits
 * for the answer carrying its own `state`.
 */
export class BrowserSignIn implements vscode.UriHandler {
  private readonly waiting = new Map<string, (query: string) => void>();

  constructor(private readonly extensionId: string) {}

  handleUri(uri: vscode.Uri): void {
    if (uri.path !== CALLBACK_PATH) return;
    const state = new URLSearchParams(uri.query).get("state");
    if (state !== null) this.waiting.get(state)?.(uri.query);
  }

  /** Signs in to a reachable instance: its OAuth tokens, why there are none, or undefined when the user gave up. */
  async credential(instance: Reachable): Promise<Credential | { error: string } | undefined> {
    const own = vscode.Uri.parse(`${vscode.env.uriScheme}://${this.extensionId}${CALLBACK_PATH}`);
    // Unencoded: an encoded query would turn a code-server's `&` and `=` into `%26` and `%3D`.
    const redirectUri = redirectUriFor((await vscode.env.asExternalUri(own)).toString(true));
    const pkce = await createPkcePair();
    const state = randomUrlSafe(16);
    const consent = authorizationUrl({
      url: instance.url,
      clientId: EDITOR_CLIENT_ID,
      redirectUri,
      state,
      challenge: pkce.challenge,
    });
    const answer = redirectUri === OOB_REDIRECT_URI ? undefined : this.waitFor(state);
    // Given as the string it is: a `Uri` would be encoded again, and the redirect URI in its query with it.
    if (!(await vscode.env.openExternal(consent as unknown as vscode.Uri))) {
      answer?.cancel();
      return undefined;
    }
    const code = answer ? await broughtBack(instance.url, state, answer) : await pastedCode(instance.url);
    if (typeof code !== "string") return code;
    return exchangeAuthorizationCode({
      url: instance.url,
      clientId: EDITOR_CLIENT_ID,
      code,
      redirectUri,
      verifier: pkce.verifier,
      fetch: instance.fetch,
    }).then(
      (tokens) => ({ kind: "oauth", tokens }) as const,
      (error: Error) => ({ error: `${instance.url} did not take the code: ${error.message}` }),
    );
  }

  /** The query the browser brings back with `state`, once it comes. */
  private waitFor(state: string): { query: Promise<string>; cancel: () => void } {
    let cancel = () => {};
    const query = new Promise<string>((resolve, reject) => {
      this.waiting.set(state, resolve);
      cancel = () => reject(new vscode.CancellationError());
    }).finally(() => this.waiting.delete(state));
    query.catch(() => undefined);
    return { query, cancel };
  }
}

type Answer = ReturnType<BrowserSignIn["waitFor"]>;

/** Waits, with a cancellable progress notification, for the code the browser brings back. */
async function broughtBack(
  url: string,
  state: string,
  answer: Answer,
): Promise<string | { error: string } | undefined> {
  const query = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Approve "Kiln for VS Code" in the browser to sign in to ${url}…`,
      cancellable: true,
    },
    (_progress, cancelled) => {
      cancelled.onCancellationRequested(answer.cancel);
      const timer = setTimeout(answer.cancel, WAIT_MS);
      return answer.query.finally(() => clearTimeout(timer)).catch(() => undefined);
    },
  );
  if (query === undefined) return undefined;
  const response = readAuthorizationResponse(query, state);
  if ("code" in response) return response.code;
  if (response.error === "access_denied") return { error: `You denied Kiln for VS Code access to ${url}.` };
  return { error: `${url} did not sign you in: ${response.description || response.error}` };
}

/** Asks for the code the consent page shows (out of band). */
async function pastedCode(url: string): Promise<string | undefined> {
  const code = await vscode.window.showInputBox({
    title: "Kiln: Sign In by Browser",
    prompt: `Approve "Kiln for VS Code" in the browser, then paste the code ${url} shows`,
    ignoreFocusOut: true,
  });
  return code?.trim() || undefined;
}
