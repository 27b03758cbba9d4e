import type { FuzzRequest, Outcome } from "./wire.js";

/** Node's limit on a request's head (`--max-http-header-size`, 16 KiB by default). */
const MAX_HEAD_BYTES = 16 * 1024;

const headSize = (request: FuzzRequest) =>
  request.target.length +
  request.headers.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);

/** Traits of requests node's HTTP parser refuses itself (a 400 or 431, then the connection is closed). */
const PARSER_REFUSES = [
  "message:lower-case-method",
  "message:no-host",
  "message:folded-header",
  "message:huge-header",
  "framing:bad-chunk",
  "framing:two-lengths",
  "framing:chunked-and-length",
  "framing:invalid-length",
];

/**
 * Whether a request may go unanswered: one the client stopped sending; a CONNECT, which node's
 * server drops when nobody listens for tunnels (Kiln serves none); and one node's parser refuses
 * (a head over its limit among them): it answers and closes while the client may still be sending,
 * and the reset can beat the answer.
 */
function unansweredIsFine(request: FuzzRequest): boolean {
  return (
    request.incomplete === true ||
    request.method === "CONNECT" ||
    headSize(request) > MAX_HEAD_BYTES ||
    request.traits.some((trait) => PARSER_REFUSES.includes(trait))
  );
}

/** What is wrong with an outcome, or null when it is a fine answer to a fuzzed request. */
export function problemOf(request: FuzzRequest, outcome: Outcome): string | null {
  switch (outcome.kind) {
    case "answered": {
      const { status, headers, body } = outcome;
      if (status >= 500) return `${status} ${body.toString("utf8").slice(0, 200)}`;
      if (/json/i.test(headers["content-type"] ?? "") && body.length > 0) {
        try {
          JSON.parse(body.toString("utf8"));
        } catch {
          return `${status} declares JSON but its body does not parse: ${JSON.stringify(body.toString("utf8").slice(0, 100))}`;
        }
      }
      return null;
    }
    case "no-answer":
      return unansweredIsFine(request) ? null : `no answer (${outcome.error ?? "connection closed"})`;
    case "malformed":
      return `malformed answer: ${outcome.detail}`;
    case "timeout":
      return "no answer within the time limit";
    case "refused":
      // Nothing listens: the server is gone, which the check after the batch reports once.
      return null;
  }
}

/** An answer's status, or the kind of outcome when there is none (`no-answer`, `timeout`…). */
export const outcomeLabel = (outcome: Outcome) =>
  outcome.kind === "answered" ? String(outcome.status) : outcome.kind;
