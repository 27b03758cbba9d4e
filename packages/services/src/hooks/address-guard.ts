import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isLocalIpLiteral } from "@kiln/domain";

/** An address a delivery may connect to. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** A delivery refused before connecting: its host is, or resolves to, a local address. */
export class RefusedAddress extends Error {}

/**
 * The one address a delivery to `hostname` (a WHATWG URL's, so odd IPv4 spellings are already
 * dotted quads and IPv6 is bracketed) connects to. A name is resolved once; unless `allowLocal`,
 * every address it resolves to must be public (loopback, private, link-local, multicast,
 * unspecified and IPv4-mapped forms are refused), and the connection goes to the address checked
 * here, never to a second answer of the resolver (DNS rebinding).
 */
export async function checkedAddress(hostname: string, allowLocal: boolean): Promise<CheckedAddress> {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  const literal = isIP(bare);
  const resolved: CheckedAddress[] =
    literal !== 0
      ? [{ address: bare, family: literal as 4 | 6 }]
      : (await lookupAll(bare)).map(({ address, family }) => ({ address, family: family as 4 | 6 }));
  const first = resolved[0];
  if (!first) throw new RefusedAddress(`${bare} resolves to no address`);
  if (!allowLocal) {
    const local = resolved.find(({ address }) => isLocalIpLiteral(address));
    if (local) {
      throw new RefusedAddress(
        `${bare}${local.address === bare ? "" : ` (${local.address})`} is a local address: requests to the local network are not allowed`,
      );
    }
  }
  return first;
}

async function lookupAll(name: string) {
  try {
    return await lookup(name, { all: true, verbatim: true });
  } catch (error) {
    throw new RefusedAddress(
      `${name} could not be resolved: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
    );
  }
}
