import { randomBytes } from "node:crypto";
import { appendFile, lstat, mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { GitError } from "./errors.js";
import { runGit } from "./exec.js";
import { isEmptyRepository } from "./refs.js";
import { branchRef } from "./validate.js";

/**
 * The settings every repository gets: a server keeps no reflogs (nobody reads them, and every
 * update would append to one), and force pushes reach the pre-receive step, which decides them
 * per branch (protected branches) rather than git for the whole repository.
 */
export const REPOSITORY_CONFIG: Readonly<Record<string, string>> = {
  "core.logAllRefUpdates": "false",
  "receive.denyNonFastForwards": "false",
  "receive.denyDeletes": "false",
};

/** Options of {@link RepositoryStore.create}. */
export interface CreateRepositoryOptions {
  /** The branch HEAD points to (default `master`, as GitLab 8.x). */
  defaultBranch?: string;
}

const NAME = /^[1-9]\d*\.git$/;

/**
 * Bare repositories on disk, one per project, at `<root>/<project id>.git`. Paths come from ids
 * only, never from names a user chose, so renaming or moving a project moves no file, and no input
 * can reach outside the root. Creation and forks are built under a temporary name and renamed into
 * place, so a repository appears whole or not at all.
 */
export class RepositoryStore {
  /** The directory holding the repositories (`$KILN_DATA_DIR/repositories`). */
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The git directory of project `id`; throws `invalid` (subject `repository`) for a bad id. */
  path(id: number): string {
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new GitError("invalid", `invalid repository id ${id}`, "", "repository");
    }
    const path = join(this.root, `${id}.git`);
    // Belt and braces: the path is <root>/<digits>.git and nothing else.
    if (dirname(path) !== this.root || !NAME.test(basename(path))) {
      throw new GitError("invalid", `invalid repository path ${path}`, "", "repository");
    }
    return path;
  }

  /** True when project `id` has a repository directory. */
  async exists(id: number): Promise<boolean> {
    try {
      return (await lstat(this.path(id))).isDirectory();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }

  /** A temporary sibling of the final path (same file system, so rename and hard links work). */
  private async scratch(id: number): Promise<string> {
    await mkdir(this.root, { recursive: true });
    return join(this.root, `.tmp-${id}-${randomBytes(6).toString("hex")}.git`);
  }

  /** Moves a finished repository into place; `exists` when one got there first. */
  private async publish(scratch: string, id: number): Promise<string> {
    const path = this.path(id);
    if (await this.exists(id)) {
      await rm(scratch, { recursive: true, force: true });
      throw new GitError("exists", `repository ${id} already exists`, "", "repository");
    }
    try {
      await rename(scratch, path);
    } catch (error) {
      await rm(scratch, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTEMPTY" || code === "EEXIST") {
        throw new GitError("exists", `repository ${id} already exists`, "", "repository");
      }
      throw error;
    }
    return path;
  }

  /**
   * Appends {@link REPOSITORY_CONFIG} to the new repository's config file: one file write instead
   * of a `git config` process per key (git reads a repeated section as one).
   */
  private async configure(gitDir: string): Promise<void> {
    let text = "";
    for (const [key, value] of Object.entries(REPOSITORY_CONFIG)) {
      const dot = key.lastIndexOf(".");
      text += `[${key.slice(0, dot)}]\n\t${key.slice(dot + 1)} = ${value}\n`;
    }
    await appendFile(join(gitDir, "config"), text);
  }

  /**
   * Creates the empty bare repository of project `id` (no sample hooks) and answers its path.
   * Throws `exists` (subject `repository`) when there is one.
   */
  async create(id: number, options: CreateRepositoryOptions = {}): Promise<string> {
    const head = branchRef(options.defaultBranch ?? "master");
    if (await this.exists(id))
      throw new GitError("exists", `repository ${id} already exists`, "", "repository");
    const scratch = await this.scratch(id);
    try {
      await runGit([
        "init",
        "--quiet",
        "--bare",
        "--template=",
        `--initial-branch=${head.slice(11)}`,
        scratch,
      ]);
      await this.configure(scratch);
    } catch (error) {
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
    return this.publish(scratch, id);
  }

  /**
   * Copies project `sourceId`'s repository (branches, tags, HEAD) into a new one for `targetId`.
   * Objects are hard-linked (`git clone --local`; they never change, so sharing the files is safe)
   * or copied across file systems: the fork shares nothing git could lose, and works on after the
   * source is removed. Throws `not_found` when the source is missing (or is removed while it is
   * copied), `exists` when the target is.
   */
  async fork(sourceId: number, targetId: number): Promise<string> {
    const source = this.path(sourceId);
    if (!(await this.exists(sourceId))) {
      throw new GitError("not_found", `repository ${sourceId} does not exist`, "", "repository");
    }
    if (await this.exists(targetId)) {
      throw new GitError("exists", `repository ${targetId} already exists`, "", "repository");
    }
    const scratch = await this.scratch(targetId);
    try {
      await this.clone(sourceId, source, scratch);
      await runGit(["config", "--remove-section", "remote.origin"], {
        gitDir: scratch,
        okCodes: [0, 1, 128],
      });
      await this.configure(scratch);
    } catch (error) {
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
    return this.publish(scratch, targetId);
  }

  /** `git clone` of the source into `scratch`; `not_found` when the source went away meanwhile. */
  private async clone(sourceId: number, source: string, scratch: string): Promise<void> {
    try {
      await runGit(["clone", "--quiet", "--bare", "--local", "--template=", "--", source, scratch]);
    } catch (error) {
      if (GitError.is(error, "failed") && !(await this.exists(sourceId))) {
        throw new GitError("not_found", `repository ${sourceId} was removed`, error.stderr, "repository");
      }
      throw error;
    }
  }

  /**
   * Removes project `id`'s repository: renamed out of the way first (it disappears at once), then
   * deleted. Answers false when there was none, or when another removal took it first (of two at
   * once, exactly one answers true). Only ever touches `<root>/<digits>.git`.
   */
  async remove(id: number): Promise<boolean> {
    const path = this.path(id);
    let stat: Awaited<ReturnType<typeof lstat>>;
    try {
      stat = await lstat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
    if (!stat.isDirectory()) throw new GitError("invalid", `${path} is not a directory`, "", "repository");
    const trash = join(this.root, `.trash-${id}-${randomBytes(6).toString("hex")}`);
    try {
      await rename(path, trash);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
    await rm(trash, { recursive: true, force: true });
    return true;
  }

  /** True when project `id`'s repository has no refs (nothing pushed or committed yet). */
  async isEmpty(id: number): Promise<boolean> {
    return isEmptyRepository(this.path(id));
  }
}
