import { pathProblem } from "@kiln/domain";
import { type GitService, parseGitService } from "@kiln/git";

/** What a git smart-HTTP URL asks for. */
export interface GitRoute {
  /** The namespace and project paths, decoded (the project without its `.git`). */
  namespace: string;
  project: string;
  /** `info/refs` (the advertisement) or a POST to the service itself. */
  kind: "advertise" | "rpc";
  /** Undefined for an `info/refs` without a smart service: a dumb client, which Kiln does not serve. */
  service: GitService | undefined;
}

// `/<namespace>/<project>[.git]/info/refs` and `/<namespace>/<project>[.git]/git-(upload|receive)-pack`.
const GIT_PATH = /^\/([^/]+)\/([^/]+)\/(info\/refs|git-upload-pack|git-receive-pack)$/;

/**
 * True when a request is git's: GET of `info/refs` or POST to a service under a project path.
 * Anything else at those paths (another method, a deeper path) is not ours and answers 404.
 */
export function isGitRequest(method: string | undefined, pathname: string): boolean {
  const match = GIT_PATH.exec(pathname);
  if (!match) return false;
  return match[3] === "info/refs" ? method === "GET" : method === "POST";
}

/** One decoded path segment, or null when it is not one plain segment (`..`, `a%2Fb`, bad escapes). */
function segment(raw: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (decoded === "" || decoded === "." || decoded === ".." || /[/\\\0]/.test(decoded)) return null;
  return decoded;
}

/**
 * The route of a git request's path and query, or null when the path cannot name a project (a
 * segment that is `..`, holds an encoded slash, or is not a valid path: the caller answers 404,
 * whoever asks). The repository itself is found by the project's id, never from these strings,
 * so they only ever serve as a lookup key.
 */
export function parseGitRoute(pathname: string, search: string): GitRoute | null {
  const match = GIT_PATH.exec(pathname);
  if (!match) return null;
  const namespace = segment(match[1] as string);
  const projectSegment = segment(match[2] as string);
  if (!namespace || !projectSegment) return null;
  // Project paths never end in `.git`, so the suffix is the URL's, not the name's.
  const project = projectSegment.endsWith(".git") ? projectSegment.slice(0, -4) : projectSegment;
  if (pathProblem(namespace) !== null || pathProblem(project) !== null) return null;
  const action = match[3] as string;
  if (action === "info/refs") {
    const service = parseGitService(new URLSearchParams(search).get("service"));
    return { namespace, project, kind: "advertise", service };
  }
  return { namespace, project, kind: "rpc", service: parseGitService(action) };
}
