import type { Method, Route } from "@kiln/rest-adapter";
import type { z } from "zod";
import type { Kind } from "./fixture.js";

/** What a parameter's schema expects, as far as the fuzzer cares (under optional and default wrappers). */
export type ParamType = "number" | "boolean" | "string" | "enum" | "array" | "union" | "object" | "other";

/** One parameter of a route, outside its path. */
export interface ParamShape {
  name: string;
  type: ParamType;
  /** The accepted values of an enum (or of an array of enums). */
  choices: string[];
}

/** A path segment: fixed text, or a parameter naming an object of some kind (null when unknown). */
export type Segment = { text: string } | { param: string; kind: Kind | null };

/** A route of the v3 table as the fuzzer sees it. */
export interface RouteShape {
  method: Method;
  /** `/projects/:id/issues`, relative to `/api/v3`. */
  path: string;
  segments: Segment[];
  params: ParamShape[];
  anonymous: boolean;
  /** The multipart field of the file the route takes, or null. */
  fileField: string | null;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string | number>;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch"]);

function baseDef(schema: z.ZodType): Def {
  let def = defOf(schema);
  for (;;) {
    if (def.innerType && WRAPPERS.has(def.type)) def = defOf(def.innerType);
    else if (def.type === "pipe" && def.in) def = defOf(def.in);
    else return def;
  }
}

const TYPES: Record<string, ParamType> = {
  number: "number",
  int: "number",
  boolean: "boolean",
  string: "string",
  enum: "enum",
  array: "array",
  union: "union",
  object: "object",
};

function paramShape(name: string, schema: z.ZodType): ParamShape {
  const def = baseDef(schema);
  const item = def.type === "array" && def.element ? baseDef(def.element) : def;
  const choices = item.type === "enum" && item.entries ? Object.values(item.entries).map(String) : [];
  return { name, type: TYPES[def.type] ?? "other", choices };
}

/** The kind of object named by a path parameter, from the fixed segment before it (`/issues/:x`). */
const KIND_AFTER: Record<string, Kind> = {
  projects: "project",
  fork: "project",
  users: "user",
  user: "user",
  members: "user",
  groups: "group",
  share: "group",
  todos: "todo",
  keys: "key",
  hooks: "hook",
  merge_requests: "mergeRequest",
  merge_request: "mergeRequest",
  issues: "issue",
  notes: "note",
  labels: "label",
  milestones: "milestone",
  commits: "sha",
  blobs: "sha",
  raw_blobs: "blob",
  branches: "branch",
  tags: "tag",
};

/** The kind a parameter's name suggests when the segment before it does not say (`:project_id`). */
export function kindOfName(name: string): Kind | null {
  const stem = name.replace(/_ids?$/, "");
  const byStem: Record<string, Kind> = {
    project: "project",
    target_project: "project",
    to_project: "project",
    forked_from: "project",
    user: "user",
    assignee: "user",
    author: "user",
    group: "group",
    namespace: "namespace",
    milestone: "milestone",
    label: "label",
    hook: "hook",
    key: "key",
    note: "note",
    issue: "issue",
    merge_request: "mergeRequest",
    branch: "branch",
    branch_name: "branch",
    source_branch: "branch",
    target_branch: "branch",
    tag_name: "tag",
    ref: "sha",
    ref_name: "sha",
    sha: "sha",
    from: "sha",
    to: "sha",
    file_path: "file",
    filepath: "file",
    path: "file",
  };
  return byStem[stem] ?? null;
}

/** The shapes of every route of a table, path parameters resolved to kinds of object. */
export function routeShapes(routes: readonly Route[]): RouteShape[] {
  return routes.map((route) => {
    const segments: Segment[] = [];
    let previous = "";
    for (const part of route.path.split("/").filter((segment) => segment !== "")) {
      if (part.startsWith(":")) {
        const name = part.slice(1);
        segments.push({ param: name, kind: KIND_AFTER[previous] ?? kindOfName(name) });
      } else {
        segments.push({ text: part });
        previous = part;
      }
    }
    const inPath = new Set(segments.flatMap((segment) => ("param" in segment ? [segment.param] : [])));
    const shape = route.params.shape as Record<string, z.ZodType>;
    return {
      method: route.method,
      path: route.path,
      segments,
      params: Object.entries(shape)
        .filter(([name]) => !inPath.has(name))
        .map(([name, schema]) => paramShape(name, schema)),
      anonymous: route.anonymous,
      fileField: route.files?.field ?? null,
    };
  });
}
