import { Agent, fetch as undiciFetch } from "undici";

/** The URL of `path` (which starts with `/`) on the instance at `base`, whatever slashes end `base`. */
export const instanceUrl = (base: string, path: string): string => `${base.replace(/\/+$/, "")}${path}`;

/** A `fetch` as tRPC's links call it. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Certificates to trust: PEM text, one or several (a self-signed certificate or a private CA). */
export type CertificateAuthority = string | Buffer | readonly (string | Buffer)[];

/**
 * A `fetch` whose TLS connections trust `ca` (instead of Node's built-in roots), for instances with
 * a self-signed certificate or a company CA, without touching the process's other connections
 * (no `NODE_TLS_REJECT_UNAUTHORIZED`, no global agent).
 */
export function fetchTrusting(ca: CertificateAuthority): Fetch {
  const dispatcher = new Agent({ connect: { ca: Array.isArray(ca) ? [...ca] : (ca as string | Buffer) } });
  // undici's fetch is the one Node's global fetch is built from; its types are its own.
  return (input, init) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    }) as unknown as Promise<Response>;
}
