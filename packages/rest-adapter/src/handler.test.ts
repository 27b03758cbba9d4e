import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServiceRuntime } from "@kiln/services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { API_PREFIX, createRestHandler } from "./handler.js";
import { PARAM_LIMITS } from "./request/limits.js";
import { route } from "./route.js";

const internalErrors: unknown[] = [];

const routes = [
  route({
    method: "GET",
    path: "/boom",
    anonymous: true,
    params: z.object({}),
    call: async () => {
      throw new Error("the operation failed");
    },
    present: () => null,
  }),
  route({
    method: "GET",
    path: "/echo",
    anonymous: true,
    params: z.object({ iid: z.array(z.number().int()).optional() }),
    call: async (_context, input) => input,
    present: (input) => input,
  }),
];

let server: Server;
let origin: string;

beforeAll(async () => {
  const handler = createRestHandler({
    // These anonymous routes never reach the services, so no runtime is ever read.
    runtime: {} as ServiceRuntime,
    baseUrl: "http://kiln.test",
    onInternalError: (error) => internalErrors.push(error),
    routes,
  });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PREFIX}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin}${path}`);
  return { status: response.status, body: await response.json() };
}

describe("createRestHandler", () => {
  it("answers 500 for a route whose operation throws, reports it, and keeps serving", async () => {
    expect(await get("/boom")).toEqual({ status: 500, body: { message: "500 Internal Server Error" } });
    expect(internalErrors).toEqual([new Error("the operation failed")]);
    expect(await get("/echo?iid=1")).toEqual({ status: 200, body: { iid: [1] } });
  });

  it("refuses a query string over the parameter limits with 400", async () => {
    const many = Array.from({ length: PARAM_LIMITS.values + 1 }, (_, index) => `iid[]=${index}`).join("&");
    expect(await get(`/echo?${many}`)).toEqual({
      status: 400,
      body: { message: "400 (Bad request) too many parameters" },
    });
    expect(await get(`/echo?a${"[a]".repeat(PARAM_LIMITS.depth)}=1`)).toEqual({
      status: 400,
      body: { message: "400 (Bad request) parameters nested too deeply" },
    });
  });

  it("refuses an array parameter over the length limit with 400", async () => {
    const iids = (count: number) => Array.from({ length: count }, (_, index) => `iid[]=${index}`).join("&");
    expect(await get(`/echo?${iids(PARAM_LIMITS.arrayLength)}`)).toMatchObject({ status: 200 });
    expect(await get(`/echo?${iids(PARAM_LIMITS.arrayLength + 1)}`)).toEqual({
      status: 400,
      body: { message: '400 (Bad request) "iid" has too many values' },
    });
  });
});
