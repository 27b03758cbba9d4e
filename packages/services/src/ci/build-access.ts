import { notFound, type Project } from "@kiln/domain";
import type { BuildRefInput } from "@kiln/schemas";
import type { CiBuild } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { requireProject } from "../projects/access.js";

/** A build of the project the caller may read builds of (404 for none, 403 without `read_build`). */
export async function requireBuild(
  ctx: Context,
  input: BuildRefInput,
  ability: "read_build" | "update_build" = "read_build",
): Promise<{ project: Project; build: CiBuild }> {
  const { project } = await requireProject(ctx, input.id, ability);
  const build = await ctx.runtime.stores.ciBuilds.findInProject(project.id, input.build_id);
  if (build?.type !== "build") throw notFound("build");
  return { project, build };
}
