// Shared with the tRPC procedures: the services present this shape.
export { presentTodo } from "@kiln/services";
