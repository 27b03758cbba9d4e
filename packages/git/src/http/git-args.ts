import { isAbsolute } from "node:path";
import { GitError } from "../errors.js";

const CONFIG_KEY = /^[A-Za-z][A-Za-z0-9-]*(\.[^\s=]+)*\.[A-Za-z][A-Za-z0-9-]*$/;

/**
 * `-c key=value` arguments for server-chosen settings (`uploadpack.allowFilter`,
 * `receive.fsckObjects`…). Keys must look like git config keys and values hold no newline.
 */
export function configArgs(config: Readonly<Record<string, string>> | undefined): string[] {
  const args: string[] = [];
  for (const [key, value] of Object.entries(config ?? {})) {
    if (!CONFIG_KEY.test(key) || /[\n\0]/.test(value)) throw new GitError("invalid", `bad git config ${key}`);
    args.push("-c", `${key}=${value}`);
  }
  return args;
}

/** Refuses a repository path that git could read as an option or resolve against its cwd. */
export function checkGitDir(gitDir: string): void {
  if (!isAbsolute(gitDir) || /[\n\0]/.test(gitDir)) {
    throw new GitError("invalid", `repository path must be absolute: ${JSON.stringify(gitDir)}`);
  }
}
