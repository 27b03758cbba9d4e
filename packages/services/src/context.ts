import type { User } from "@kiln/domain";
import type { ServiceRuntime } from "./runtime.js";
import type { AuthMethod } from "./security/identity-cache.js";

/** Who is acting: the user, how they authenticated, and the admin behind them when sudo is used. */
export interface Actor {
  user: User;
  method: AuthMethod;
  /** The administrator who used sudo to act as `user`, or null. */
  sudoBy: User | null;
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
}
