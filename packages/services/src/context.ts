import type { User } from "@kiln/domain";
import type { ServiceRuntime } from "./runtime.js";
import type { AuthMethod } from "./security/identity-cache.js";

/** Who is acting: the user, how they authenticated, and the admin behind them when sudo is used. */
export interface Actor {
  user: User;
  method: AuthMethod;
  /** The administrator who used sudo to act as `user`, or null. */
  sudoBy: User | null;
  /**
   * What the credentials allow: `api` (everything the user may do) for private tokens, personal
   * access tokens and passwords; OAuth tokens will carry the scopes they were granted.
   */
  scopes: readonly string[];
}

/** The context of one call into the services. */
export interface Context {
  runtime: ServiceRuntime;
  /** Null for anonymous calls (sign-in, token resolution). */
  actor: Actor | null;
  /**
   * True for the operator's own tools (the `kiln` CLI), which act with administrator rights
   * without a user behind them. Never set from a network request.
   */
  system: boolean;
  /**
   * The network address the call came from, as its transport saw it (the socket's peer), for
   * throttling sign-ins per address. Absent for in-process callers (the CLI, tests).
   */
  address?: string | undefined;
}
