/**
 * @module @kiln/services
 * Kiln's use cases as a tRPC router. Build a {@link ServiceRuntime} once per process, then call
 * procedures through {@link createCaller} with a context naming the actor.
 *
 * @example
 * ```ts
 * const runtime = new ServiceRuntime({ stores, secretKey, singleProcess: true });
 * const anonymous = createCaller({ runtime, actor: null, system: false });
 * const identity = await anonymous.auth.identify({ token });
 * ```
 */
export type { AuthMethod } from "./auth/identity-cache.js";
export { ensureRootUser, type RootBootstrap } from "./bootstrap.js";
export type { Actor, Context } from "./context.js";
export { type AppRouter, appRouter, type Caller, createCaller } from "./router.js";
export type { UserView } from "./routers/users.js";
export { type RuntimeOptions, ServiceRuntime } from "./runtime.js";
export type { PasswordHasher } from "./security/passwords.js";
export { generateToken, tokenDigest } from "./security/tokens.js";
