import { type VariableView, variables } from "@kiln/services";
import { listRoute, type Route, route } from "../route.js";

const VARIABLES = "/projects/:id/variables";
const present = (variable: VariableView) => ({ key: variable.key, value: variable.value });

/** `/projects/:id/variables`: a project's secret build variables (masters). */
export const variableRoutes: Route[] = [
  listRoute({ method: "GET", path: VARIABLES, operation: variables.list, present }),
  route({ method: "GET", path: `${VARIABLES}/:key`, operation: variables.get, present }),
  route({ method: "POST", path: VARIABLES, operation: variables.create, present }),
  route({ method: "PUT", path: `${VARIABLES}/:key`, operation: variables.update, present }),
  route({ method: "DELETE", path: `${VARIABLES}/:key`, operation: variables.remove, present }),
];
