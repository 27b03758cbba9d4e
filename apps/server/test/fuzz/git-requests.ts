import { gzipSync } from "node:zlib";
import type { FuzzTarget } from "./api-requests.js";
import type { Rng } from "./prng.js";
import type { FuzzRequest } from "./wire.js";

/** Namespace or project segments that name nothing, or that a decoder may trip on. */
export const ODD_NAMES = [
  "..",
  ".",
  "%2e%2e",
  "a%2Fb",
  "%00",
  "%zz",
  "%C3%28",
  "%C3%BC",
  "x".repeat(300),
  "-rf",
  ".git",
  "root",
  "fuzz-project",
  "%20",
];

/** One pkt-line: its length in four hex digits (itself included), then the data. */
const pkt = (text: string | Buffer) => {
  const data = Buffer.isBuffer(text) ? text : Buffer.from(text);
  return Buffer.concat([Buffer.from((data.length + 4).toString(16).padStart(4, "0")), data]);
};
const hex = (rng: Rng) => rng.text(40, "0123456789abcdef");

/** Bodies for `git-upload-pack` and `git-receive-pack`: well framed or not, none of them a real fetch or push. */
function gitBody(rng: Rng, sha: string, traits: string[]): { body: Buffer; protocol: string | null } {
  const kind = rng.pick([
    "garbage",
    "empty",
    "flush",
    "bad-length",
    "truncated-line",
    "v2-ls-refs",
    "v2-fetch-unknown-want",
    "v2-unknown-command",
    "v0-unknown-want",
    "receive-create",
    "receive-delete",
    "receive-bad-pack",
  ] as const);
  traits.push(`git:${kind}`);
  const flush = Buffer.from("0000");
  const delim = Buffer.from("0001");
  switch (kind) {
    case "garbage":
      return { body: rng.bytes(rng.int(1, 2048)), protocol: null };
    case "empty":
      return { body: Buffer.alloc(0), protocol: null };
    case "flush":
      return { body: flush, protocol: null };
    case "bad-length":
      return { body: Buffer.from(`zzzz${rng.text(20)}`), protocol: null };
    case "truncated-line":
      return { body: Buffer.from("00ffwant "), protocol: rng.chance(0.5) ? "version=2" : null };
    case "v2-ls-refs":
      return {
        body: Buffer.concat([
          pkt("command=ls-refs\n"),
          delim,
          pkt(`ref-prefix ${rng.pick(["refs/heads/", "", "../"])}\n`),
          flush,
        ]),
        protocol: "version=2",
      };
    case "v2-fetch-unknown-want":
      return {
        body: Buffer.concat([pkt("command=fetch\n"), delim, pkt(`want ${hex(rng)}\n`), pkt("done\n"), flush]),
        protocol: "version=2",
      };
    case "v2-unknown-command":
      return {
        body: Buffer.concat([pkt(`command=${rng.pick(["nope", "", "ls-refs\0"])}\n`), flush]),
        protocol: "version=2",
      };
    case "v0-unknown-want":
      return {
        body: Buffer.concat([
          pkt(`want ${hex(rng)} multi_ack_detailed side-band-64k\n`),
          flush,
          pkt("done\n"),
        ]),
        protocol: null,
      };
    case "receive-create":
      return {
        body: Buffer.concat([
          pkt(`${"0".repeat(40)} ${sha} refs/heads/fuzz-${rng.text(6)}\0report-status\n`),
          flush,
        ]),
        protocol: null,
      };
    case "receive-delete":
      return {
        body: Buffer.concat([
          pkt(`${hex(rng)} ${"0".repeat(40)} refs/heads/nothing-${rng.text(4)}\0report-status\n`),
          flush,
        ]),
        protocol: null,
      };
    case "receive-bad-pack":
      return {
        body: Buffer.concat([
          pkt(`${"0".repeat(40)} ${hex(rng)} refs/heads/fuzz-${rng.text(6)}\0report-status\n`),
          flush,
          Buffer.from("PACK"),
          rng.bytes(64),
        ]),
        protocol: null,
      };
  }
}

/** A `Basic` header for git: real or wrong credentials, or one that is not Basic at all. */
function gitAuthorization(rng: Rng, target: FuzzTarget, traits: string[]): [string, string][] {
  const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;
  const who = rng.weighted({ none: 25, admin: 35, user: 20, wrong: 10, malformed: 10 });
  traits.push(`credential:${who}`);
  const { fixture } = target;
  switch (who) {
    case "none":
      return [];
    case "admin":
      return [["Authorization", basic(`root:${fixture.adminToken}`)]];
    case "user":
      return [["Authorization", basic(`fuzzer:${fixture.userToken}`)]];
    case "wrong":
      return [["Authorization", basic(`root:${rng.text(20)}`)]];
    case "malformed":
      return [
        [
          "Authorization",
          rng.pick(["Basic !!!", "Basic ", basic("nocolon"), "Bearer x", basic("ü:ü"), basic(":"), "Basic"]),
        ],
      ];
  }
}

/**
 * A request to git's smart HTTP (`info/refs`, `git-upload-pack`, `git-receive-pack`) of a real or
 * an odd repository path, with bodies that are not a real fetch or push, right and wrong content
 * types, gzip that is or is not gzip, and every kind of credential.
 */
export function gitRequest(rng: Rng, target: FuzzTarget, seed: number, index: number): FuzzRequest {
  const traits: string[] = [];
  const real = rng.pick(target.fixture.repositories);
  const namespace = rng.chance(0.85) ? real.namespace : rng.pick(ODD_NAMES);
  const project = (rng.chance(0.85) ? real.project : rng.pick(ODD_NAMES)) + (rng.chance(0.7) ? ".git" : "");
  const headers = gitAuthorization(rng, target, traits);
  const service = rng.weighted({ advertise: 35, "git-upload-pack": 40, "git-receive-pack": 25 });
  if (service === "advertise") {
    const query = rng.pick([
      "?service=git-upload-pack",
      "?service=git-receive-pack",
      "?service=nope",
      "?service=",
      "",
    ]);
    if (rng.chance(0.3))
      headers.push(["Git-Protocol", rng.pick(["version=2", "version=99", "a".repeat(1_000), "\u00ff"])]);
    return {
      seed,
      index,
      family: "git GET info/refs",
      traits,
      method: "GET",
      target: `/${namespace}/${project}/info/refs${query}`,
      headers,
      body: Buffer.alloc(0),
    };
  }
  const sha = String(target.fixture.pools.sha.kept[0] ?? hex(rng));
  let { body, protocol } = gitBody(rng, sha, traits);
  const contentType = rng.chance(0.8)
    ? `application/x-${service}-request`
    : rng.pick([
        "application/x-git-upload-pack-request",
        "application/x-git-receive-pack-request",
        "text/plain",
        "",
      ]);
  headers.push(["Content-Type", contentType]);
  if (protocol) headers.push(["Git-Protocol", protocol]);
  const encoding = rng.weighted({ none: 75, gzip: 12, "fake-gzip": 10, other: 3 });
  if (encoding !== "none") traits.push(`encoding:${encoding}`);
  if (encoding === "gzip") {
    body = rng.chance(0.8) ? gzipSync(body) : gzipSync(body).subarray(0, rng.int(1, 20));
    headers.push(["Content-Encoding", "gzip"]);
  } else if (encoding === "fake-gzip") headers.push(["Content-Encoding", "gzip"]);
  else if (encoding === "other")
    headers.push(["Content-Encoding", rng.pick(["deflate", "br", "gzip, gzip", "x-gzip"])]);
  headers.push(["Content-Length", String(body.length)]);
  return {
    seed,
    index,
    family: `git POST ${service}`,
    traits,
    method: "POST",
    target: `/${namespace}/${project}/${service}`,
    headers,
    body,
  };
}
