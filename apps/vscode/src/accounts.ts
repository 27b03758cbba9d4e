import {
  attempt,
  createKilnClient,
  EDITOR_CLIENT_ID,
  type Fetch,
  fetchTrusting,
  type KilnClient,
  OAuthRefusal,
  type OAuthTokens,
  type RefreshingToken,
  refreshingToken,
  revokeTokens,
} from "@kiln/client";
import * as vscode from "vscode";
import { type Credential, readCredential, storedCredential } from "./model/credentials.js";
import {
  type Account,
  normaliseInstanceUrl,
  type TlsOption,
  tlsOptionOf,
  tokenKey,
  withAccount,
  withoutAccount,
} from "./model/instances.js";
import { presentedCertificate, readCa } from "./tls.js";

const ACCOUNTS_KEY = "kiln.accounts";
/** Where a pinned self-signed certificate is kept, beside the token. */
const pinnedKey = (url: string): string => `kiln.pinned:${url}`;

/** A signed-in instance with its client. */
export interface Connection {
  account: Account;
  client: KilnClient;
}

/** An instance being signed in to: its normalised URL and the `fetch` that trusts its certificate. */
export interface Reachable {
  url: string;
  /** Undefined for the global `fetch` (no custom CA or pinned certificate). */
  fetch: Fetch | undefined;
}

/**
 * The signed-in instances: their URLs and usernames in global state, their credentials (a
 * personal access token, or the OAuth pair of a sign-in by browser, refreshed as it expires) and
 * pinned certificates in SecretStorage only. Several instances at once.
 */
export class Accounts {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly ended = new vscode.EventEmitter<string>();
  /** Fires with an instance's URL when its sign-in by browser ended (the refresh was refused). */
  readonly onDidEndSession = this.ended.event;
  private connections: Connection[] | null = null;
  /** The OAuth tokens of each instance signed in by browser, shared by every client made for it. */
  private readonly refreshing = new Map<string, RefreshingToken>();

  constructor(private readonly context: vscode.ExtensionContext) {
    context.subscriptions.push(
      this.changed,
      this.ended,
      context.secrets.onDidChange((event) => void this.secretChanged(event.key)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration("kiln.instances")) this.invalidate();
      }),
    );
  }

  list(): Account[] {
    return this.context.globalState.get<Account[]>(ACCOUNTS_KEY, []);
  }

  /** A client for each signed-in instance whose credential is still in the secret store. */
  async all(): Promise<Connection[]> {
    if (this.connections) return this.connections;
    const connections: Connection[] = [];
    for (const account of this.list()) {
      const credential = await this.credential(account.url);
      if (!credential) continue;
      connections.push({ account, client: await this.clientFor(account.url, credential) });
    }
    this.connections = connections;
    return connections;
  }

  /**
   * The first step of any sign-in: the URL as typed, normalised, and a `fetch` that trusts the
   * instance (pinning the certificate it presents now when the settings allow a self-signed one).
   */
  async reach(urlInput: string): Promise<Reachable | { error: string }> {
    const normal = normaliseInstanceUrl(urlInput);
    if ("error" in normal) return normal;
    const { url } = normal;
    if (this.tlsOption(url).allowSelfSigned && url.startsWith("https:")) {
      const pinned = await attempt(() => presentedCertificate(url));
      if (!pinned.ok) return { error: `Could not reach ${url}: ${pinned.error.message}` };
      await this.context.secrets.store(pinnedKey(url), pinned.value);
    }
    return { url, fetch: await this.fetchFor(url) };
  }

  /**
   * Signs in: {@link reach}es the instance, obtains a credential for it (a token typed, or tokens
   * the browser brought), then {@link keep}s it. Undefined when the user gave up on the way.
   */
  async signIn(
    urlInput: string,
    obtain: (instance: Reachable) => Promise<Credential | { error: string } | undefined>,
  ): Promise<{ url: string; username: string } | { error: string } | undefined> {
    const instance = await this.reach(urlInput);
    if ("error" in instance) return instance;
    const credential = await obtain(instance);
    if (credential === undefined || "error" in credential) return credential;
    const kept = await this.keep(instance.url, credential);
    return "error" in kept ? kept : { url: instance.url, ...kept };
  }

  /**
   * Checks a credential with the server (`users.me`), then keeps it. Answers the username, or why
   * the sign-in failed.
   */
  async keep(url: string, credential: Credential): Promise<{ username: string } | { error: string }> {
    this.refreshing.delete(url);
    const client = await this.clientFor(url, credential);
    const me = await attempt(() => client.users.me.query());
    if (!me.ok) {
      const status = me.error.httpStatus;
      if (status === 401) return { error: `${url} refused the token: check it and its scopes (api).` };
      if (status === 0) return { error: `Could not reach ${url}: ${me.error.message}` };
      return { error: `${url} answered ${status}: is it a Kiln server? (${me.error.message})` };
    }
    await this.context.secrets.store(tokenKey(url), storedCredential(credential));
    await this.context.globalState.update(
      ACCOUNTS_KEY,
      withAccount(this.list(), { url, username: me.value.username }),
    );
    this.invalidate();
    return { username: me.value.username };
  }

  /** Signs out: a sign-in by browser's tokens are revoked on the server (when it can be reached), and every secret is deleted. */
  async signOut(url: string): Promise<void> {
    const credential = await this.credential(url);
    if (credential?.kind === "oauth") {
      const fetch = await this.fetchFor(url);
      await attempt(() =>
        revokeTokens({ url, clientId: EDITOR_CLIENT_ID, token: credential.tokens.refreshToken, fetch }),
      );
    }
    this.refreshing.delete(url);
    await this.context.secrets.delete(tokenKey(url));
    await this.context.secrets.delete(pinnedKey(url));
    await this.context.globalState.update(ACCOUNTS_KEY, withoutAccount(this.list(), url));
    this.invalidate();
  }

  private async credential(url: string): Promise<Credential | undefined> {
    const stored = await this.context.secrets.get(tokenKey(url));
    return stored ? readCredential(stored) : undefined;
  }

  /** The OAuth pair kept for an instance now (another window may have refreshed it), if any. */
  private async keptTokens(url: string): Promise<OAuthTokens | undefined> {
    const kept = await this.credential(url);
    return kept?.kind === "oauth" ? kept.tokens : undefined;
  }

  /**
   * Another window refreshed an instance's tokens: this one takes the new pair in place (the old
   * one no longer works). Any other change of a secret makes new clients.
   */
  private async secretChanged(key: string): Promise<void> {
    const url = this.list().find((account) => tokenKey(account.url) === key)?.url;
    const refreshing = url === undefined ? undefined : this.refreshing.get(url);
    const kept = url === undefined ? undefined : await this.keptTokens(url);
    if (refreshing && kept) return refreshing.adopt(kept);
    this.invalidate();
  }

  private tlsOption(url: string): TlsOption {
    return tlsOptionOf(
      vscode.workspace.getConfiguration("kiln").get<Record<string, TlsOption>>("instances"),
      url,
    );
  }

  private async fetchFor(url: string): Promise<Fetch | undefined> {
    const option = this.tlsOption(url);
    const ca = option.ca
      ? await readCa(option.ca)
      : option.allowSelfSigned
        ? await this.context.secrets.get(pinnedKey(url))
        : undefined;
    return ca ? fetchTrusting(ca) : undefined;
  }

  private async clientFor(url: string, credential: Credential): Promise<KilnClient> {
    const fetch = await this.fetchFor(url);
    const token = credential.kind === "token" ? credential.token : this.oauthToken(url, credential, fetch);
    return createKilnClient({ url, token, ...(fetch ? { fetch } : {}) });
  }

  /** The one refreshing token of an instance signed in by browser; a refused refresh ends its session. */
  private oauthToken(
    url: string,
    credential: Extract<Credential, { kind: "oauth" }>,
    fetch: Fetch | undefined,
  ): () => Promise<string> {
    let tokens = this.refreshing.get(url);
    if (!tokens) {
      tokens = refreshingToken({
        url,
        clientId: EDITOR_CLIENT_ID,
        fetch,
        tokens: credential.tokens,
        save: (fresh) =>
          this.context.secrets.store(tokenKey(url), storedCredential({ kind: "oauth", tokens: fresh })),
        latest: () => this.keptTokens(url),
      });
      this.refreshing.set(url, tokens);
    }
    const held = tokens;
    return async () => {
      try {
        return await held();
      } catch (error) {
        // Refused (invalid_grant, invalid_client), not merely out of reach or failing for a while.
        if (error instanceof OAuthRefusal && (error.status === 400 || error.status === 401))
          this.ended.fire(url);
        throw error;
      }
    };
  }

  private invalidate(): void {
    this.connections = null;
    this.changed.fire();
  }
}
