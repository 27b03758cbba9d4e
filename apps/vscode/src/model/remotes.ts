/**
 * Which Kiln project a git remote points at. A remote is written many ways (`https://host/a/b.git`,
 * `http://user@host:8080/a/b`, `git@host:a/b.git`, `ssh://git@host:2222/a/b.git`); each is reduced to
 * `host/path` (no scheme, user, port, `.git` or trailing slash, lower case) and compared with the
 * project's `http_url_to_repo` and `ssh_url_to_repo` reduced the same way.
 */

/** A remote or clone URL reduced to `host/namespace/project`, or null when it is not a URL git takes. */
export function remoteKey(url: string): string | null {
  const trimmed = url.trim();
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(trimmed);
  let host: string;
  let path: string;
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    host = scp[1]!;
    path = scp[2]!;
  } else {
    try {
      const parsed = new URL(trimmed);
      if (!parsed.hostname) return null;
      host = parsed.hostname;
      path = decodeURIComponent(parsed.pathname);
    } catch {
      return null;
    }
  }
  const cleanPath = path
    .replace(/^\/+/, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/i, "");
  if (cleanPath === "") return null;
  return `${host}/${cleanPath}`.toLowerCase();
}

/** The parts of a project a remote is matched against. */
export interface RemoteMatchable {
  http_url_to_repo: string;
  ssh_url_to_repo: string;
}

/** The projects one of `remotes` points at (each once, in the order of `projects`). */
export function projectsOfRemotes<P extends RemoteMatchable>(
  remotes: readonly string[],
  projects: readonly P[],
): P[] {
  const keys = new Set(remotes.map(remoteKey).filter((key): key is string => key !== null));
  return projects.filter(
    (project) =>
      keys.has(remoteKey(project.http_url_to_repo) ?? "") ||
      keys.has(remoteKey(project.ssh_url_to_repo) ?? ""),
  );
}
