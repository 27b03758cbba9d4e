import { jsonBody, multipartBody, type Pair, urlencode } from "./bodies.js";
import type { Fixture, Kind } from "./fixture.js";
import { frameBody } from "./framing.js";
import type { Rng } from "./prng.js";
import { kindOfName, type RouteShape, type Segment } from "./route-shapes.js";
import { hugeArray, oddValue, plausibleValue, realValue, tagged } from "./values.js";
import type { FuzzRequest } from "./wire.js";

/** What the generators know of the server: its real objects and the route table. */
export interface FuzzTarget {
  fixture: Fixture;
  routes: readonly RouteShape[];
}

/** Path segments that name nothing, or that a router or a decoder may trip on. */
const ODD_SEGMENTS = [
  "0",
  "-1",
  "2147483648",
  "9007199254740993",
  "99999999999999999999999999",
  "1e3",
  "1.5",
  "0x1",
  "abc",
  "..",
  ".",
  "%2e%2e",
  "%2F",
  "a%2Fb",
  "a%2F..%2F..",
  "%00",
  "a%00b",
  "%zz",
  "%",
  "%C3%28",
  "%ED%A0%80",
  "%F0%9F%98%80",
  "%E2%80%AE",
  "null",
  "true",
  "~",
  ";",
  "a;b=c",
  "%20",
  "+",
  "*",
  "HEAD",
  "refs%2Fheads%2Fmaster",
  "master..feature",
  "x".repeat(300),
];

/**
 * How far a request strays from a valid one. A careful request names real objects, sends plausible
 * values with a right token and a right framing, and gets one parameter wrong: it reaches the use
 * cases. A wild one may get anything wrong.
 */
type Style = "careful" | "wild";

/**
 * A path parameter: a real object of its kind (encoded as one segment), or an odd segment. `role`
 * says whether it must be a spare object (the request deletes it, or changes it in a way that would
 * break the fixture) or names the parent of the next parameters.
 */
function pathSegment(
  rng: Rng,
  segment: Segment,
  role: "spare" | "parent" | "other",
  target: FuzzTarget,
  traits: string[],
  style: Style,
): string {
  if ("text" in segment) return segment.text;
  const use = role === "spare" ? "spare" : role === "parent" && style === "careful" ? "parent" : "any";
  const real =
    segment.kind && (style === "careful" || rng.chance(0.7))
      ? realValue(rng, target.fixture.pools[segment.kind], use)
      : null;
  if (real === null) {
    if (rng.chance(0.03)) {
      traits.push("path:long-segment");
      return "x".repeat(rng.pick([5_000, 12_000]));
    }
    return rng.chance(0.05) ? "" : tagged(rng.pick(ODD_SEGMENTS), "path", traits);
  }
  const text = String(real);
  if (text.includes("/") && style === "wild" && rng.chance(0.2)) {
    traits.push("path:raw-slash");
    return text;
  }
  return encodeURIComponent(text);
}

type Credential = "none" | "bad-token" | "user" | "admin" | "sudo";

const BAD_TOKENS = ["", "x", "root", "null", "a".repeat(5_000), "\u00e9\u00ff", " ", "Bearer x", "%00"];
const SUDO_TARGETS: (string | number)[] = [
  "",
  "0",
  "-1",
  "1.5",
  "99999999999",
  "nobody",
  "ROOT",
  "%00",
  "ü",
  " root",
  "1e3",
];

/** The token and `sudo` of a request, placed in a header, the query or the body. */
function credentials(
  rng: Rng,
  target: FuzzTarget,
  traits: string[],
  query: Pair[],
  body: Pair[] | null,
  style: Style,
): [string, string][] {
  const credential =
    style === "careful"
      ? rng.pick<Credential>(["user", "admin"])
      : rng.weighted<Credential>({ none: 12, "bad-token": 10, user: 30, admin: 33, sudo: 15 });
  traits.push(`credential:${credential}`);
  const { fixture } = target;
  if (credential === "none") return [];
  const token =
    credential === "bad-token"
      ? rng.pick(BAD_TOKENS)
      : credential === "user"
        ? fixture.userToken
        : fixture.adminToken;
  const headers: [string, string][] = [];
  const where =
    style === "careful" ? "header" : rng.weighted({ header: 70, query: 15, body: body ? 10 : 0, bearer: 5 });
  if (where === "header") headers.push(["PRIVATE-TOKEN", token]);
  else if (where === "bearer") headers.push(["Authorization", `Bearer ${token}`]);
  else (where === "query" ? query : (body ?? query)).push(["private_token", token]);
  if (credential === "sudo") {
    const real = realValue(rng, fixture.pools.user, "any") ?? "root";
    const sudo = rng.chance(0.4)
      ? real
      : rng.chance(0.7)
        ? tagged(rng.pick(SUDO_TARGETS), "sudo", traits)
        : oddValue(rng, traits);
    if (rng.chance(0.4) && typeof sudo !== "object") headers.push(["SUDO", String(sudo)]);
    else (body && rng.chance(0.5) ? body : query).push(["sudo", sudo]);
  }
  return headers;
}

/** The name of one of the route's parameters, or `fallback` for a route without any. */
const someName = (rng: Rng, route: RouteShape, fallback: string) =>
  route.params.length > 0 ? rng.pick(route.params).name : fallback;

/**
 * The route's parameters, plausible but for one (or, a third of the time or when asked, all). No
 * `import_url`: a plausible one would have the server clone from somewhere.
 */
function carefulParameters(
  rng: Rng,
  route: RouteShape,
  target: FuzzTarget,
  traits: string[],
  allPlausible: boolean,
): Pair[] {
  const pairs: Pair[] = route.params
    .filter((param) => param.name !== "import_url" && rng.chance(0.8))
    .map((param) => [param.name, plausibleValue(rng, param, kindOfName(param.name), target.fixture.pools)]);
  const wrong = pairs.length > 0 && !allPlausible && rng.chance(0.67) ? rng.int(0, pairs.length - 1) : -1;
  const pair = pairs[wrong];
  if (pair) pairs[wrong] = [pair[0], oddValue(rng, traits)];
  return pairs;
}

/** The route's parameters, each plausible or odd, plus now and then unknown or pathological ones. */
function wildParameters(rng: Rng, route: RouteShape, target: FuzzTarget, traits: string[]): Pair[] {
  const pairs: Pair[] = [];
  for (const param of route.params) {
    if (!rng.chance(0.6)) continue;
    const kind = kindOfName(param.name);
    pairs.push([
      param.name,
      rng.chance(0.55) ? plausibleValue(rng, param, kind, target.fixture.pools) : oddValue(rng, traits),
    ]);
    if (rng.chance(0.03)) {
      traits.push("param:repeated");
      pairs.push([param.name, oddValue(rng, traits)]);
    }
  }
  if (rng.chance(0.1))
    pairs.push([rng.pick(["x", "", "[", "a[b", "__proto__", "page", "per_page"]), oddValue(rng, traits)]);
  if (rng.chance(0.02)) {
    traits.push("param:deep-brackets");
    // Written as a name (`a[a][a]…=x`), not as nested values: no recursion to build it, however deep.
    pairs.push([`${someName(rng, route, "a")}${"[a]".repeat(rng.pick([50, 500, 5_000, 50_000]))}`, "x"]);
  }
  if (rng.chance(0.02)) {
    traits.push("param:huge-array");
    pairs.push([someName(rng, route, "labels"), hugeArray(rng)]);
  }
  return pairs;
}

/** A body of the pairs in an encoding (none for `query`), spoilt now and then when `spoil`. */
function encodeBody(
  rng: Rng,
  encoding: "json" | "form" | "multipart" | "raw" | "query",
  pairs: Pair[],
  route: RouteShape,
  traits: string[],
  spoil: boolean,
): { body: Buffer; contentType: string | null } {
  switch (encoding) {
    case "json":
      return { body: jsonBody(rng, pairs, traits, spoil), contentType: "application/json" };
    case "form":
      return {
        body: Buffer.from(urlencode(pairs), "latin1"),
        contentType: "application/x-www-form-urlencoded",
      };
    case "multipart":
      return multipartBody(rng, pairs, route.fileField, traits, spoil);
    case "raw":
      return {
        body: rng.bytes(rng.int(0, 4096)),
        contentType: rng.pick(["application/octet-stream", "text/plain", "application/json", "image/png"]),
      };
    case "query":
      return { body: Buffer.alloc(0), contentType: null };
  }
}

/** Kinds whose changes could break the fixture for later requests (a blocked user, a moved project). */
const STRUCTURAL = new Set<Kind | null>(["user", "project", "group"]);

const WRONG_METHODS = ["HEAD", "PATCH", "OPTIONS", "GET", "POST", "PUT", "DELETE", "TRACE"];

/** A request to one route of the v3 table, with the fuzzed inputs its shape suggests. */
export function apiRequest(rng: Rng, target: FuzzTarget, seed: number, index: number): FuzzRequest {
  const route = rng.pick(target.routes);
  const style: Style = rng.chance(0.3) ? "careful" : "wild";
  const traits: string[] = [`style:${style}`];
  let method: string = route.method;
  if (style === "wild" && rng.chance(0.05)) {
    method = rng.pick(WRONG_METHODS);
    traits.push("method:other");
  }
  const mutates = method !== "GET" && method !== "HEAD";
  const params = route.segments.filter((segment) => "param" in segment);
  const last = params[params.length - 1];
  // Deletions, and changes to users, projects and groups (blocking, transfers, renames), go to spare
  // objects, so that the fixture keeps its shape; other changes may go to any (a kept issue closed).
  const spares = (segment: Segment) =>
    method === "DELETE" || (mutates && "kind" in segment && STRUCTURAL.has(segment.kind));
  const role = (segment: Segment) => (segment !== last ? "parent" : spares(segment) ? "spare" : "other");
  let path = `/api/v3/${route.segments
    .map((segment) => pathSegment(rng, segment, role(segment), target, traits, style))
    .join("/")}`;
  if (style === "wild" && rng.chance(0.04)) {
    traits.push("path:odd-end");
    path += rng.pick(["/", "//", ".json", "/.", "/..", "%2F", "?", "#x", ";x"]);
  }
  // Two identical valid changes at once: the second must lose cleanly (a 4xx), not on a unique index.
  const twin = style === "careful" && mutates && rng.chance(0.15);
  if (twin) traits.push("race:twin");
  const all =
    style === "careful"
      ? carefulParameters(rng, route, target, traits, twin)
      : wildParameters(rng, route, target, traits);
  const spoil = style === "wild";
  const carriesBody = method === "POST" || method === "PUT" ? rng.chance(0.85) : rng.chance(0.15);
  const encoding = carriesBody
    ? rng.weighted({ json: 40, form: 25, multipart: route.fileField ? 80 : 25, raw: spoil ? 5 : 0 })
    : "query";
  traits.push(`body:${encoding}`);
  const inQuery = encoding === "query" ? all : all.filter(() => style === "wild" && rng.chance(0.1));
  const inBody = encoding === "query" ? null : all.filter((pair) => !inQuery.includes(pair));
  const headers = credentials(rng, target, traits, inQuery, inBody, style);
  const query = urlencode(inQuery);
  const { body, contentType } = encodeBody(rng, encoding, inBody ?? [], route, traits, spoil);
  const framed =
    encoding === "query" && !(spoil && rng.chance(0.05))
      ? null
      : frameBody(rng, body, contentType, traits, spoil);
  return {
    seed,
    index,
    twin,
    family: `${route.method} ${route.path}`,
    traits,
    method,
    target: query === "" ? path : `${path}?${query}`,
    headers: [...headers, ...(framed?.headers ?? [])],
    body: framed?.body ?? Buffer.alloc(0),
    incomplete: framed?.incomplete ?? false,
  };
}
