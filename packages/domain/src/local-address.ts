/**
 * Which literal IP addresses are "local": loopback, private, link-local, multicast, unspecified and the like.
 * Webhooks may not point at them unless the administrator allows it (see `hookUrlProblem`).
 * IPv4 must be a plain dotted quad: URL hosts are checked after the WHATWG URL parser has
 * normalised odd spellings such as `2130706433` or `0x7f.1`.
 */

/** `[address, prefix length]` pairs of the IPv4 ranges webhooks may not reach. */
const LOCAL_IPV4_RANGES: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 included
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata endpoints
  ["172.16.0.0", 12], // private
  ["192.168.0.0", 16], // private
  ["224.0.0.0", 4], // multicast
  ["255.255.255.255", 32], // broadcast
];

/** The 32-bit value of a dotted-quad IPv4 address, or null when `host` is not one. */
export function parseIpv4(host: string): number | null {
  const parts = host.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const byte = Number(part);
    if (byte > 255) return null;
    value = value * 256 + byte;
  }
  return value;
}

/** True for an IPv4 address (as a 32-bit value) in one of the local ranges. */
function isLocalIpv4(address: number): boolean {
  return LOCAL_IPV4_RANGES.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    return Math.floor(address / size) === Math.floor((parseIpv4(base) as number) / size);
  });
}

/**
 * The eight 16-bit groups of an IPv6 address (hex groups, at most one `::`, optionally a dotted
 * IPv4 address as its last 32 bits, no brackets), or null when `host` is not one.
 */
export function parseIpv6(host: string): number[] | null {
  const lastColon = host.lastIndexOf(":");
  const dotted = lastColon >= 0 ? parseIpv4(host.slice(lastColon + 1)) : null;
  if (dotted !== null) {
    const high = Math.floor(dotted / 65536).toString(16);
    const low = (dotted % 65536).toString(16);
    return parseIpv6(`${host.slice(0, lastColon + 1)}${high}:${low}`);
  }
  const halves = host.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (text: string) => (text === "" ? [] : text.split(":"));
  const head = groupsOf(halves[0] as string);
  const tail = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups: number[] = [];
  for (const group of [...head, ...new Array<string>(missing).fill("0"), ...tail]) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    groups.push(Number.parseInt(group, 16));
  }
  return groups;
}

/** The IPv4 address carried in the last 32 bits of an IPv6 address. */
const embeddedIpv4 = (groups: number[]): number => (groups[6] as number) * 65536 + (groups[7] as number);

/** True for a local IPv6 address, including IPv4 addresses wrapped in IPv6 forms. */
function isLocalIpv6(groups: number[]): boolean {
  const [first = 0, second = 0] = groups;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  // ::/96 holds :: (unspecified), ::1 (loopback) and the deprecated IPv4-compatible ::a.b.c.d.
  if (zeros(0, 6)) return isLocalIpv4(embeddedIpv4(groups));
  // IPv4-mapped ::ffff:a.b.c.d.
  if (zeros(0, 5) && groups[5] === 0xffff) return isLocalIpv4(embeddedIpv4(groups));
  // NAT64 64:ff9b::a.b.c.d reaches the IPv4 address through a translator.
  if (first === 0x64 && second === 0xff9b && zeros(2, 6)) return isLocalIpv4(embeddedIpv4(groups));
  if ((first & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((first & 0xff00) === 0xff00) return true; // multicast ff00::/8
  return (first & 0xffc0) === 0xfec0; // site-local fec0::/10 (deprecated)
}

/**
 * True when `host` is a literal local address: dotted-quad IPv4, or IPv6 with or without the
 * brackets of a URL host (so resolved addresses can be checked too). Names are not resolved
 * here: `false` for anything that is not an IP literal.
 */
export function isLocalIpLiteral(host: string): boolean {
  const ipv4 = parseIpv4(host);
  if (ipv4 !== null) return isLocalIpv4(ipv4);
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const ipv6 = parseIpv6(bare);
  return ipv6 !== null && isLocalIpv6(ipv6);
}
