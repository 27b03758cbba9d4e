import { pageRequest } from "@kiln/domain";
import { ListNamespacesInput } from "@kiln/schemas";
import { query } from "../operation.js";

/** Namespaces: where projects can live, users' own and groups. */
export const namespaces = {
  /**
   * The caller's own namespace and the groups they belong to (every namespace for
   * administrators); `search` matches name or path.
   */
  list: query("signed_in", ListNamespacesInput, (ctx, input) => {
    const { user } = ctx.actor;
    return ctx.runtime.stores.namespaces.list(
      { memberId: user.is_admin ? undefined : user.id, search: input.search },
      pageRequest(input),
    );
  }),
};
