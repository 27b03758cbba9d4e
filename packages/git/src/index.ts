/**
 * @kiln/git: bare repositories on disk through the system `git`, never a re-implementation of it.
 */
export { GitError, type GitErrorKind } from "./errors.js";
export {
  DEFAULT_GIT_TIMEOUT_MS,
  type GitOptions,
  type GitResult,
  gitEnvironment,
  gitText,
  runGit,
  spawnGit,
} from "./exec.js";
