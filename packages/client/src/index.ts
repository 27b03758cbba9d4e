/**
 * @module @kiln/client
 * A typed client of a Kiln server's tRPC API (`/api/trpc`): the procedures of `@kiln/services`'
 * public router with their input and output types, list pages as async iterators, failures as
 * typed values, and a per-instance certificate authority. It imports the router's type only: no
 * server code is bundled with it.
 */
export { createKilnClient, type KilnClient, type KilnClientOptions, TRPC_PATH } from "./client.js";
export { attempt, failureOf, type KilnFailure, type Result } from "./errors.js";
export { items, type PagedProcedure, pages } from "./pages.js";
export { type CertificateAuthority, type Fetch, fetchTrusting } from "./transport.js";
