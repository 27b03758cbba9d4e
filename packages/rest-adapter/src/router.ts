import type { Method, Route } from "./route.js";

interface Node {
  statics: Map<string, Node>;
  param: { name: string; node: Node } | null;
  routes: Map<Method, Route>;
}

const newNode = (): Node => ({ statics: new Map(), param: null, routes: new Map() });

/** The outcome of matching a path: a route with its raw path parameters, or why none matched. */
export type Match =
  | { kind: "found"; route: Route; pathParams: Record<string, string> }
  | { kind: "wrong_method"; allowed: Method[] }
  | { kind: "none" };

/**
 * A segment trie over the route table. Static segments win over parameters (`/projects/owned`
 * before `/projects/:id`), with backtracking. Segments are matched raw and decoded afterwards, so
 * `group%2Fproject` is one `:id`.
 */
export class RouteTable {
  readonly #root = newNode();

  constructor(routes: readonly Route[]) {
    for (const route of routes) this.#add(route);
  }

  #add(route: Route): void {
    let node = this.#root;
    for (const segment of splitPath(route.path)) {
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        if (node.param && node.param.name !== name) {
          throw new Error(`route ${route.path}: parameter :${name} clashes with :${node.param.name}`);
        }
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    if (node.routes.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    node.routes.set(route.method, route);
  }

  /** Finds the route for a method and a path relative to `/api/v3`. */
  match(method: string, path: string): Match {
    const segments = splitPath(path);
    const params: Record<string, string> = {};
    const node = find(this.#root, segments, 0, params);
    if (!node) return { kind: "none" };
    const route = node.routes.get(method as Method);
    if (route) return { kind: "found", route, pathParams: params };
    return { kind: "wrong_method", allowed: [...node.routes.keys()] };
  }
}

function find(node: Node, segments: string[], index: number, params: Record<string, string>): Node | null {
  if (index === segments.length) return node.routes.size > 0 ? node : null;
  const segment = segments[index] as string;
  const next = node.statics.get(segment);
  if (next) {
    const found = find(next, segments, index + 1, params);
    if (found) return found;
  }
  if (node.param && segment !== "") {
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return null;
    }
    const found = find(node.param.node, segments, index + 1, params);
    if (found) {
      params[node.param.name] = value;
      return found;
    }
  }
  return null;
}

function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? [] : trimmed.split("/");
}
