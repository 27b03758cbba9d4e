import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServiceRuntime } from "@kiln/services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebHandler, isWebRequest } from "./handler.js";

// Paths the web surface does not serve must fall through to the front door's other surfaces.
describe("the web surface's table", () => {
  it("claims none of the API's, git's or a project's paths", () => {
    for (const path of ["/api/v3/user", "/root/project.git/info/refs", "/root/project"]) {
      expect(isWebRequest("GET", path)).toBe(false);
    }
    // `/` is the web's: it leads to the profile or to sign-in.
    expect(isWebRequest("GET", "/")).toBe(true);
    expect(isWebRequest("POST", "/")).toBe(false);
  });
});

describe("createWebHandler", () => {
  const server = createServer((req, res) => {
    void createWebHandler({ runtime: {} as ServiceRuntime, baseUrl: "http://localhost/" })(req, res);
  });
  let origin = "";
  beforeAll(async () => {
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers a path it has no route for with 404, after reading the body sent with it", async () => {
    const response = await fetch(`${origin}/oauth/unknown`, { method: "POST", body: "x".repeat(10_000) });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("404 Not Found");
  });
});
