import { invalid, mapPage, notFound, type Page, pageOfAll, pageRequest } from "@kiln/domain";
import { ListVariablesInput, VariableRefInput, WriteVariableInput } from "@kiln/schemas";
import { type CiVariable, UniqueViolation } from "@kiln/storage-kysely";
import type { Context } from "../context.js";
import { mutation, query } from "../operation.js";
import { requireProject } from "../projects/access.js";

/** A secret variable as the API shows it, its value opened. */
export interface VariableView {
  key: string;
  value: string;
}

const KEY = /^[a-zA-Z0-9_]+$/;

const viewOf = (ctx: Context, variable: CiVariable): VariableView => ({
  key: variable.key,
  value: ctx.runtime.secrets.open(variable.value_sealed),
});

/**
 * A project's secret variables (8.x's `/projects/:id/variables`), for masters (`admin_build`):
 * handed to the project's builds, never to a fork's. Values are sealed with the server key.
 */
export const variables = {
  /** The variables, oldest first. */
  list: query("signed_in", ListVariablesInput, async (ctx, input): Promise<Page<VariableView>> => {
    const { project } = await requireProject(ctx, input.id, "admin_build");
    const page = pageOfAll(await ctx.runtime.stores.ciVariables.list(project.id), pageRequest(input));
    return mapPage(page, (variable) => viewOf(ctx, variable));
  }),

  /** One variable: `404 Variable Not Found` for an unknown key. */
  get: query("signed_in", VariableRefInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_build");
    const variable = await ctx.runtime.stores.ciVariables.find(project.id, input.key);
    if (!variable) throw notFound("variable");
    return viewOf(ctx, variable);
  }),

  /** Adds a variable; the key is letters, digits and `_`, at most 255, unique in the project. */
  create: mutation("signed_in", WriteVariableInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_build");
    if (!KEY.test(input.key)) throw invalid({ key: ["can contain only letters, digits and '_'."] });
    if (input.key.length > 255) throw invalid({ key: ["is too long (maximum is 255 characters)"] });
    try {
      return viewOf(
        ctx,
        await ctx.runtime.stores.ciVariables.create(
          project.id,
          input.key,
          ctx.runtime.secrets.seal(input.value),
        ),
      );
    } catch (error) {
      if (error instanceof UniqueViolation) throw invalid({ key: ["has already been taken"] });
      throw error;
    }
  }),

  /** Changes a variable's value. */
  update: mutation("signed_in", WriteVariableInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_build");
    const variable = await ctx.runtime.stores.ciVariables.update(
      project.id,
      input.key,
      ctx.runtime.secrets.seal(input.value),
    );
    if (!variable) throw notFound("variable");
    return viewOf(ctx, variable);
  }),

  /** Removes a variable; answers it. */
  remove: mutation("signed_in", VariableRefInput, async (ctx, input) => {
    const { project } = await requireProject(ctx, input.id, "admin_build");
    const variable = await ctx.runtime.stores.ciVariables.delete(project.id, input.key);
    if (!variable) throw notFound("variable");
    return viewOf(ctx, variable);
  }),
};
