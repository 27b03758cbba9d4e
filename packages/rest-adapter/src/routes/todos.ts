import { todos } from "@kiln/services";
import { presentTodo } from "../presenters/todos.js";
import { listRoute, type Route, route } from "../route.js";

/** `/todos`: the caller's todos. */
export const todoRoutes: Route[] = [
  listRoute({ method: "GET", path: "/todos", operation: todos.list, present: presentTodo }),
  route({ method: "DELETE", path: "/todos/:id", operation: todos.markDone, present: presentTodo }),
  // A bare number: how many todos were marked done.
  route({ method: "DELETE", path: "/todos", operation: todos.markAllDone, present: (count) => count }),
];
