import type { PublicRouter } from "@kiln/services";
import {
  createTRPCClient,
  httpBatchLink,
  httpSubscriptionLink,
  splitLink,
  type TRPCClient,
} from "@trpc/client";
import { EventSource } from "eventsource";
import { type CertificateAuthority, type Fetch, fetchTrusting, instanceUrl } from "./transport.js";

/** Where the server serves tRPC, under its base URL. */
export const TRPC_PATH = "/api/trpc";

/** The most calls the server takes in one batch (`MAX_BATCH_SIZE` of the server). */
const MAX_BATCH_ITEMS = 32;

/** Longer GET URLs are split into several batches: Node servers refuse headers past 16 KiB. */
const MAX_URL_LENGTH = 8000;

/** The `fetch` type tRPC's link declares: looser than the DOM's, which any `fetch` satisfies at run time. */
type LinkFetch = NonNullable<Parameters<typeof httpBatchLink>[0]["fetch"]>;

/** How to reach a Kiln instance. */
export interface KilnClientOptions {
  /** The instance's base URL (`https://kiln.example.com`, `KILN_BASE_URL`); the client adds `/api/trpc`. */
  url: string;
  /**
   * A personal access token, private token or OAuth access token, sent as `Authorization: Bearer`;
   * or a function answering it for each request (an OAuth token that refreshes: `refreshingToken`).
   */
  token: string | (() => string | Promise<string>);
  /** The `fetch` to use; default the global one (or, with `ca`, one that trusts it). */
  fetch?: Fetch;
  /** Certificates to trust for this instance only: a self-signed certificate or a private CA, PEM. */
  ca?: CertificateAuthority;
}

/** A typed client of every procedure Kiln serves over tRPC (see `publicRouter` of `@kiln/services`). */
export type KilnClient = TRPCClient<PublicRouter>;

/**
 * A client of a Kiln instance's tRPC API. Calls made together (in the same tick) go in one HTTP
 * request; `live.events` is a stream of server-sent events (`subscribe`); a failed call rejects with tRPC's `TRPCClientError`, whose `data.failure` is the
 * domain failure (see `failureOf` and `attempt` for it as a value).
 *
 * @example
 * ```ts
 * const kiln = createKilnClient({ url: "https://kiln.example.com", token });
 * const me = await kiln.users.me.query();
 * const todos = await kiln.todos.list.query({ per_page: 50 });
 * ```
 */
export function createKilnClient(options: KilnClientOptions): KilnClient {
  const fetch = options.fetch ?? (options.ca === undefined ? globalThis.fetch : fetchTrusting(options.ca));
  const url = instanceUrl(options.url, TRPC_PATH);
  const { token } = options;
  const authorization = async () => `Bearer ${typeof token === "string" ? token : await token()}`;
  // EventSource sends no headers of its own: the token goes with each of its requests here.
  const streamFetch: Fetch = async (input, init) =>
    fetch(input, {
      ...init,
      headers: { ...(init?.headers as Record<string, string>), Authorization: await authorization() },
    });
  return createTRPCClient<PublicRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({ url, EventSource, eventSourceOptions: { fetch: streamFetch } }),
        false: httpBatchLink({
          url,
          headers: async () => ({ Authorization: await authorization() }),
          maxItems: MAX_BATCH_ITEMS,
          maxURLLength: MAX_URL_LENGTH,
          fetch: fetch as LinkFetch,
        }),
      }),
    ],
  });
}
