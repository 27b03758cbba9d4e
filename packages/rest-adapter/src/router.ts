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
        if (!next) {
          next = newNode();
          node.statics.set(segment, next);
        }
        node = next;
      }
    }
    if (node.routes.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    node.routes.set(route.method, route);
  }

  /**
   * Finds the route for a method and a path relative to `/api/v3`. A path that only matches with
   * another method is `wrong_method`; but a parameter route that accepts the method wins over a
   * static one that does not (`DELETE /projects/owned` reaches `DELETE /projects/:id`, as in GitLab).
   */
  match(method: string, path: string): Match {
    const segments = splitPath(path);
    const params: Record<string, string> = {};
    const node = find(this.#root, segments, 0, params, (n) => n.routes.has(method as Method));
    const route = node?.routes.get(method as Method);
    if (route) return { kind: "found", route, pathParams: params };
    const anyMethod = find(this.#root, segments, 0, {}, (n) => n.routes.size > 0);
    return anyMethod ? { kind: "wrong_method", allowed: [...anyMethod.routes.keys()] } : { kind: "none" };
  }
}

function find(
  node: Node,
  segments: string[],
  index: number,
  params: Record<string, string>,
  accepts: (node: Node) => boolean,
): Node | null {
  if (index === segments.length) return accepts(node) ? node : null;
  const segment = segments[index] as string;
  const next = node.statics.get(segment);
  if (next) {
    const found = find(next, segments, index + 1, params, accepts);
    if (found) return found;
  }
  if (node.param && segment !== "") {
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return null;
    }
    const found = find(node.param.node, segments, index + 1, params, accepts);
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
