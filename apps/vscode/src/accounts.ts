import { attempt, createKilnClient, type KilnClient } from "@kiln/client";
import * as vscode from "vscode";
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

/**
 * The signed-in instances: their URLs and usernames in global state, their tokens (and pinned
 * certificates) in SecretStorage only. Several instances at once.
 */
export class Accounts {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private connections: Connection[] | null = null;

  constructor(private readonly context: vscode.ExtensionContext) {
    context.subscriptions.push(
      this.changed,
      context.secrets.onDidChange(() => this.invalidate()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration("kiln.instances")) this.invalidate();
      }),
    );
  }

  list(): Account[] {
    return this.context.globalState.get<Account[]>(ACCOUNTS_KEY, []);
  }

  /** A client for each signed-in instance whose token is still in the secret store. */
  async all(): Promise<Connection[]> {
    if (this.connections) return this.connections;
    const connections: Connection[] = [];
    for (const account of this.list()) {
      const token = await this.context.secrets.get(tokenKey(account.url));
      if (!token) continue;
      connections.push({ account, client: await this.clientFor(account.url, token) });
    }
    this.connections = connections;
    return connections;
  }

  /**
   * Signs in: checks the token with the server (`users.me`), then keeps it. Answers the username,
   * or why the sign-in failed.
   */
  async signIn(urlInput: string, token: string): Promise<{ username: string } | { error: string }> {
    const normal = normaliseInstanceUrl(urlInput);
    if ("error" in normal) return normal;
    const { url } = normal;
    if (this.tlsOption(url).allowSelfSigned && url.startsWith("https:")) {
      const pinned = await attempt(() => presentedCertificate(url));
      if (!pinned.ok) return { error: `Could not reach ${url}: ${pinned.error.message}` };
      await this.context.secrets.store(pinnedKey(url), pinned.value);
    }
    const client = await this.clientFor(url, token.trim());
    const me = await attempt(() => client.users.me.query());
    if (!me.ok) {
      const status = me.error.httpStatus;
      if (status === 401) return { error: `${url} refused the token: check it and its scopes (api).` };
      if (status === 0) return { error: `Could not reach ${url}: ${me.error.message}` };
      return { error: `${url} answered ${status}: is it a Kiln server? (${me.error.message})` };
    }
    await this.context.secrets.store(tokenKey(url), token.trim());
    await this.context.globalState.update(
      ACCOUNTS_KEY,
      withAccount(this.list(), { url, username: me.value.username }),
    );
    this.invalidate();
    return { username: me.value.username };
  }

  async signOut(url: string): Promise<void> {
    await this.context.secrets.delete(tokenKey(url));
    await this.context.secrets.delete(pinnedKey(url));
    await this.context.globalState.update(ACCOUNTS_KEY, withoutAccount(this.list(), url));
    this.invalidate();
  }

  private tlsOption(url: string): TlsOption {
    return tlsOptionOf(
      vscode.workspace.getConfiguration("kiln").get<Record<string, TlsOption>>("instances"),
      url,
    );
  }

  private async clientFor(url: string, token: string): Promise<KilnClient> {
    const option = this.tlsOption(url);
    const ca = option.ca
      ? await readCa(option.ca)
      : option.allowSelfSigned
        ? await this.context.secrets.get(pinnedKey(url))
        : undefined;
    return createKilnClient({ url, token, ...(ca ? { ca } : {}) });
  }

  private invalidate(): void {
    this.connections = null;
    this.changed.fire();
  }
}
