import { type FuzzRequest, requestBytes } from "./wire.js";

/** Largest request printed byte for byte; a larger one is named by its seed and index only. */
const PRINTABLE_LIMIT = 2048;

/** Bytes as a `printf` format: printable ASCII as is, the rest as `\xHH`. */
function printfFormat(bytes: Buffer): string {
  let out = "";
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    if (char === "%") out += "%%";
    else if (byte >= 0x20 && byte < 0x7f && char !== "'" && char !== "\\") out += char;
    else out += `\\x${byte.toString(16).padStart(2, "0")}`;
  }
  return out;
}

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
const printable = (text: string) => /^[\x21-\x7e]*$/.test(text);

/** Sends stdin on a TCP connection and prints the answer; closes its side when stdin ends, as the fuzzer does. */
const SEND_RAW = `node -e 'const s=require("net").connect(process.argv[1],"127.0.0.1");process.stdin.pipe(s);s.pipe(process.stdout)'`;

/** The request's exact bytes sent by node on a fresh connection, or null when too large to print. */
export function rawCommand(request: FuzzRequest, port: number): string | null {
  const bytes = requestBytes(request, port);
  if (bytes.length > PRINTABLE_LIMIT) return null;
  return `printf '${printfFormat(bytes)}' | ${SEND_RAW} ${port}`;
}

/**
 * The request as a `curl` command, or null when curl would not send it as generated (odd framing or
 * message, bytes curl would refuse or rewrite, a body too large to print).
 */
export function curlCommand(request: FuzzRequest, port: number): string | null {
  const odd = request.traits.some((trait) => trait.startsWith("framing:") || trait.startsWith("message:"));
  const headersPrintable = request.headers.every(
    ([name, value]) => printable(name) && /^[\x20-\x7e]*$/.test(value),
  );
  if (odd || request.incomplete || !printable(request.target) || !headersPrintable) return null;
  if (request.body.length + request.target.length > PRINTABLE_LIMIT) return null;
  const args = ["curl", "-sS", "-i", "--globoff", "--path-as-is"];
  args.push(request.method === "HEAD" ? "-I" : `-X ${request.method}`);
  const hasType = request.headers.some(([name]) => name.toLowerCase() === "content-type");
  for (const [name, value] of request.headers) args.push(`-H ${quote(`${name}: ${value}`)}`);
  if (request.body.length > 0 && !hasType) args.push("-H 'Content-Type:'");
  if (request.body.length > 0) args.push("--data-binary @-");
  args.push(quote(`http://127.0.0.1:${port}${request.target}`));
  const command = args.join(" ");
  return request.body.length > 0 ? `printf '${printfFormat(request.body)}' | ${command}` : command;
}

/** How to send the request again: its seed and index, and the curl and raw commands that fit. */
export function reproduction(request: FuzzRequest, port: number): string[] {
  const lines = [`replay: node apps/server/bench/fuzz.mjs --seed ${request.seed} --replay ${request.index}`];
  const curl = curlCommand(request, port);
  if (curl) lines.push(`curl:   ${curl}`);
  const raw = rawCommand(request, port);
  lines.push(
    raw ? `raw:    ${raw}` : `raw:    (${requestBytes(request, port).length} bytes: use the replay)`,
  );
  if (request.twin)
    lines.push("twice:  sent twice at the same moment: run the command twice at once (`cmd & cmd`)");
  return lines;
}
