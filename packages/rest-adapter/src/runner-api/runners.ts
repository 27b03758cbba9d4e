import { registerRunner, unregisterRunner } from "@kiln/services";
import { z } from "zod";
import type { RunnerRoute } from "./route.js";

const Info = z
  .object({
    name: z.string().optional(),
    version: z.string().optional(),
    revision: z.string().optional(),
    platform: z.string().optional(),
    architecture: z.string().optional(),
  })
  .optional();

const RegisterParams = z.object({
  token: z.string(),
  description: z.string().optional(),
  /** A comma-separated string, as runners send it. */
  tag_list: z.string().optional(),
  run_untagged: z.boolean().optional(),
  locked: z.boolean().optional(),
  info: Info,
});

const TokenParams = z.object({ token: z.string() });

/** `/runners`: a runner registers (with the instance's or a project's token) and deletes itself. */
export const runnerRegistrationRoutes: RunnerRoute[] = [
  {
    method: "POST",
    path: "/runners/register",
    run: async ({ runtime, decode }) => {
      const input = decode(RegisterParams);
      const { runner, token } = await registerRunner(runtime, {
        token: input.token,
        description: input.description,
        tagList: input.tag_list?.split(","),
        runUntagged: input.run_untagged,
        locked: input.locked,
        info: input.info,
      });
      return { status: 201, body: { id: runner.id, token } };
    },
  },
  {
    method: "DELETE",
    path: "/runners/delete",
    run: async ({ runtime, decode }) => {
      await unregisterRunner(runtime, decode(TokenParams).token);
      return { status: 200, body: undefined };
    },
  },
];

export { TokenParams };
