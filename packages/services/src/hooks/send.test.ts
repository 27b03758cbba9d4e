import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { sendHook } from "./send.js";

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A receiver on loopback that answers 200 and counts the connections it was sent on. */
async function receiver() {
  const seen: IncomingHttpHeaders[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  server.on("connection", () => {
    connections += 1;
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, seen, connections: () => connections };
}

const post = (url: string) =>
  sendHook({
    url,
    headers: { "Content-Type": "application/json" },
    body: "{}",
    verifyTls: true,
    allowLocal: true,
    timeoutMs: 5_000,
    responseCapBytes: 1024,
  });

it("names the URL's host in Host while connecting to the checked address, and keeps the connection for the next delivery", async () => {
  const { port, seen, connections } = await receiver();
  for (let i = 0; i < 3; i++) {
    expect(await post(`http://localhost:${port}/hook`)).toMatchObject({ outcome: "delivered", status: 200 });
  }
  expect(seen.map((headers) => headers.host)).toEqual(Array(3).fill(`localhost:${port}`));
  expect(connections()).toBe(1);
});

it("does not send to a local address when local requests are not allowed, even over a kept connection", async () => {
  const { port, seen } = await receiver();
  expect(await post(`http://127.0.0.1:${port}/a`)).toMatchObject({ outcome: "delivered" });
  const refused = await sendHook({
    url: `http://127.0.0.1:${port}/a`,
    headers: {},
    body: "{}",
    verifyTls: true,
    allowLocal: false,
    timeoutMs: 5_000,
    responseCapBytes: 1024,
  });
  expect(refused).toMatchObject({ outcome: "final", error: expect.stringMatching(/^refused/) });
  expect(seen).toHaveLength(1);
});
