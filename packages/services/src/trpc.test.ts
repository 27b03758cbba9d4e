import type { Failure } from "@kiln/domain";
import type { inferRouterError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { forEachDialect } from "./__tests__/harness.js";
import { actorOf } from "./auth/credentials.js";
import type { Context } from "./context.js";
import { query } from "./operation.js";
import { type AppRouter, appRouter } from "./router.js";
import { presentedProcedure, router } from "./trpc.js";

/** Runs a query over tRPC's own HTTP adapter, as a tRPC client would; answers the JSON. */
async function queryOverHttp(
  context: Context,
  path: string,
  input: unknown,
  served: typeof appRouter | ReturnType<typeof router> = appRouter,
): Promise<unknown> {
  const url = `http://kiln.test/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await fetchRequestHandler({
    endpoint: "/trpc",
    req: new Request(url),
    router: served,
    createContext: () => context,
  });
  return res.json();
}

describe("tRPC errors", () => {
  it("type the failure of every error's data for clients", () => {
    type DataFailure = inferRouterError<AppRouter>["data"]["failure"];
    expectTypeOf<DataFailure>().toExtend<Failure | null>();
    expectTypeOf<Failure | null>().toExtend<DataFailure>();
  });

  forEachDialect((h) => {
    it("carry the domain failure's kind and facts in data, and no v3 wording", async () => {
      const admin = await h().user("chief", { admin: true });
      const context = {
        runtime: h().runtime,
        actor: actorOf({ user: admin, method: "private_token" }),
        system: false,
      } as const;
      const body = (await queryOverHttp(context, "auth.sudo", { target: "ghost" })) as {
        error: { message: string; data: { code: string; failure: unknown } };
      };
      expect(body.error.data).toMatchObject({
        code: "NOT_FOUND",
        failure: { kind: "not_found", reason: "sudo_target_unknown", target: "ghost" },
      });
      expect(JSON.stringify(body)).not.toContain("404 Not Found");
    });

    it("answer null as the failure of anything but a domain failure", async () => {
      const context = { runtime: h().runtime, actor: null, system: false } as const;
      const body = (await queryOverHttp(context, "auth.sudo", { target: 42 })) as {
        error: { data: { code: string; failure: unknown } };
      };
      expect(body.error.data).toMatchObject({ code: "BAD_REQUEST", failure: null });
      // No stack trace reaches a client, whatever NODE_ENV is (tests run outside production).
      expect(body.error.data).not.toHaveProperty("stack");
    });
  });

  forEachDialect((h) => {
    it("answer a bug (here an answer its output schema refuses) with no detail of it", async () => {
      const leaky = query("anyone", z.object({}), () => ({ password_digest: "$argon2id$secret" }));
      const served = router({
        leaky: presentedProcedure(leaky, z.object({ name: z.string() }), (row) => row as never),
      });
      const context = { runtime: h().runtime, actor: null, system: false } as const;
      const body = (await queryOverHttp(context, "leaky", {}, served)) as {
        error: { message: string; data: { code: string } };
      };
      expect(body.error.message).toBe("Internal server error");
      expect(body.error.data.code).toBe("INTERNAL_SERVER_ERROR");
      expect(JSON.stringify(body)).not.toMatch(/argon2|password|name/);
    });
  });
});
