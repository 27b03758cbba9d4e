import type { Route } from "./route.js";

/** What the table needs of a route: its method and its path pattern. */
export interface RouteShape {
  method: string;
  path: string;
}

/** A parameter at one position of the trie: one segment (`:name`) or one or more (`*name`). */
interface Param<R> {
  name: string;
  /** True for `*name`, which takes the rest of the path but what the routes below it need. */
  rest: boolean;
  node: Node<R>;
}

interface Node<R> {
  statics: Map<string, Node<R>>;
  param: Param<R> | null;
  routes: Map<string, R>;
}

const newNode = <R>(): Node<R> => ({ statics: new Map(), param: null, routes: new Map() });

/** The outcome of matching a path: a route with its raw path parameters, or why none matched. */
export type Match<R = Route> =
  | { kind: "found"; route: R; pathParams: Record<string, string> }
  | { kind: "wrong_method"; allowed: string[] }
  | { kind: "none" };

/**
 * A segment trie over the route table. Static segments win over parameters (`/projects/owned`
 * before `/projects/:id`), with backtracking. Segments are matched raw and decoded afterwards, so
 * `group%2Fproject` is one `:id`.
 *
 * A `*name` parameter takes one or more segments, as many as it can while the rest of the path
 * still matches a route below it: GitLab 8.x's `requirements: { branch: /.+/ }`, under which
 * `PUT branches/fix/protect/protect` protects `fix/protect`, `PUT branches/fix/protect` protects
 * `fix`, and `GET branches/fix/protect` reads `fix/protect`.
 */
export class RouteTable<R extends RouteShape = Route> {
  readonly #root = newNode<R>();

  constructor(routes: readonly R[]) {
    for (const route of routes) this.#add(route);
  }

  #add(route: R): void {
    let node = this.#root;
    for (const segment of splitPath(route.path)) {
      if (segment.startsWith(":") || segment.startsWith("*")) {
        node = paramNode(node, route, segment);
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
  match(method: string, path: string): Match<R> {
    const segments = splitPath(path).map((raw) => ({ raw, value: decodeSegment(raw) }));
    const params: Record<string, string> = {};
    const node = find(this.#root, segments, 0, params, (n) => n.routes.has(method));
    const route = node?.routes.get(method);
    if (route) return { kind: "found", route, pathParams: params };
    const anyMethod = find(this.#root, segments, 0, {}, (n) => n.routes.size > 0);
    return anyMethod ? { kind: "wrong_method", allowed: [...anyMethod.routes.keys()] } : { kind: "none" };
  }
}

/** The node below `node` for the parameter `segment` (`:name` or `*name`), which must agree with any there. */
function paramNode<R extends RouteShape>(node: Node<R>, route: R, segment: string): Node<R> {
  const name = segment.slice(1);
  const rest = segment.startsWith("*");
  if (node.param && (node.param.name !== name || node.param.rest !== rest)) {
    const existing = `${node.param.rest ? "*" : ":"}${node.param.name}`;
    throw new Error(`route ${route.path}: parameter ${segment} clashes with ${existing}`);
  }
  node.param ??= { name, rest, node: newNode() };
  return node.param.node;
}

/** A segment of the requested path as sent, and percent-decoded (null when malformed). */
interface Segment {
  raw: string;
  value: string | null;
}

/** True when a segment may be (part of) a parameter: not empty, and well encoded. */
const takesParam = (segment: Segment | undefined): boolean => segment?.value != null && segment.raw !== "";

function find<R>(
  node: Node<R>,
  segments: Segment[],
  index: number,
  params: Record<string, string>,
  accepts: (node: Node<R>) => boolean,
): Node<R> | null {
  if (index === segments.length) return accepts(node) ? node : null;
  const segment = segments[index] as Segment;
  const next = node.statics.get(segment.raw);
  if (next) {
    const found = find(next, segments, index + 1, params, accepts);
    if (found) return found;
  }
  const param = node.param;
  if (!param || !takesParam(segment)) return null;
  // `*name` tries its longest run first, and runs only over segments a parameter may take.
  let end = index + 1;
  if (param.rest) while (takesParam(segments[end])) end++;
  for (; end > index; end--) {
    const found = find(param.node, segments, end, params, accepts);
    if (found) {
      params[param.name] = segments
        .slice(index, end)
        .map((taken) => taken.value)
        .join("/");
      return found;
    }
  }
  return null;
}

/** A raw segment percent-decoded, or null when its encoding is malformed. */
function decodeSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? [] : trimmed.split("/");
}
