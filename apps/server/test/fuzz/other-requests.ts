import type { FuzzTarget } from "./api-requests.js";
import { ODD_NAMES } from "./git-requests.js";
import type { Rng } from "./prng.js";
import type { FuzzRequest } from "./wire.js";

/** A GET (or HEAD, or another method) of an upload's served path, real or altered, with any credential. */
export function uploadRequest(rng: Rng, target: FuzzTarget, seed: number, index: number): FuzzRequest {
  const traits: string[] = [];
  const [, namespace = "", project = "", , secret = "", file = ""] = rng
    .pick(target.fixture.uploads)
    .split("/");
  const alter = (real: string, odd: readonly string[]) => (rng.chance(0.75) ? real : rng.pick(odd));
  const path = [
    alter(namespace, ODD_NAMES),
    alter(project, ODD_NAMES),
    "uploads",
    alter(secret, [
      rng.text(32, "0123456789abcdef"),
      "0",
      "..",
      "%2e%2e",
      secret.toUpperCase(),
      "a%2Fb",
      `${secret}%00`,
    ]),
    alter(file, [
      "other.png",
      "..",
      "%2e%2e",
      "a%2Fb.png",
      "fuzz.png%00.txt",
      "%zz",
      "x".repeat(300),
      "%C3%28.png",
    ]),
  ].join("/");
  const headers: [string, string][] = [];
  const credential = rng.weighted({ none: 30, admin: 25, user: 25, bad: 20 });
  traits.push(`credential:${credential}`);
  const { fixture } = target;
  const token =
    credential === "admin" ? fixture.adminToken : credential === "user" ? fixture.userToken : rng.text(20);
  let query = "";
  if (credential !== "none") {
    if (rng.chance(0.7)) headers.push(["PRIVATE-TOKEN", token]);
    else query = `?private_token=${rng.chance(0.9) ? token : "%zz"}`;
  }
  const method = rng.weighted({ GET: 80, HEAD: 15, POST: 3, DELETE: 2 });
  return {
    seed,
    index,
    family: "uploads",
    traits,
    method,
    target: `/${path}${query}`,
    headers,
    body: Buffer.alloc(0),
  };
}

const UNKNOWN_TARGETS = [
  "/",
  "/api",
  "/api/v3",
  "/api/v3/",
  "/api/v3?x=1",
  "/api/v4/projects",
  "/api/v3/../../etc/passwd",
  "/api/v3/%2e%2e/%2e%2e/etc/passwd",
  "//api/v3/user",
  "/api/v3//user",
  "/api/v3/user/",
  "/api/v3/projects/1/unknown",
  "/API/V3/USER",
  "/api/v3/user%00",
  "/api/v3%2Fuser",
  "/favicon.ico",
  "/root",
  "/root/fuzz-project",
  "/root/fuzz-project.git",
  "/root/fuzz-project.git/HEAD",
  "/root/fuzz-project.git/objects/info/packs",
  "/root/fuzz-project/uploads",
  "/root/fuzz-project/uploads/x",
  "/root/fuzz-project/info/refs/extra",
  "*",
  "/%",
  "/%zz",
  "/?",
  "/\u00e9",
  "/a b",
];

/** A request to a path that is not Kiln's (or barely): the front door must answer it with a 404 or 400. */
export function unknownRequest(rng: Rng, _target: FuzzTarget, seed: number, index: number): FuzzRequest {
  const traits: string[] = [];
  let target = rng.chance(0.7)
    ? rng.pick(UNKNOWN_TARGETS)
    : `/${Array.from({ length: rng.int(1, 6) }, () => rng.text(rng.int(0, 12), "abcz09-._~%/")).join("/")}`;
  if (rng.chance(0.03)) {
    traits.push("path:very-long");
    target = `/a${"/a".repeat(rng.pick([2_000, 10_000]))}`;
  }
  const method = rng.pick([
    "GET",
    "POST",
    "PUT",
    "DELETE",
    "HEAD",
    "OPTIONS",
    "PATCH",
    "TRACE",
    "CONNECT",
    "PROPFIND",
    "BREW",
  ]);
  const body = rng.chance(0.3) ? rng.bytes(rng.int(0, 512)) : Buffer.alloc(0);
  const headers: [string, string][] = body.length > 0 ? [["Content-Length", String(body.length)]] : [];
  return { seed, index, family: "unknown path", traits, method, target, headers, body };
}
