// Baseline (c): the thinnest JSON server. Answers every request with BENCH_BODY (a JSON object, the
// size of Kiln's `GET /user` answer), stringified per request as Kiln does. Prints its port as a JSON line.
import { createServer } from "node:http";

const body = JSON.parse(process.env.BENCH_BODY ?? "{}");

const server = createServer((_req, res) => {
  const json = JSON.stringify(body);
  res.writeHead(200, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(json),
    "Cache-Control": "no-cache",
  });
  res.end(json);
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  process.stdout.write(`${JSON.stringify({ msg: "listening", port })}\n`);
});
process.once("SIGTERM", () => process.exit(0));
