import type { GitRefusal, GitThrottle } from "@kiln/services";
import { pushRefusalText } from "./repository.js";
import { minutes } from "./wording.js";

/** GitLab 8.x's refusals of a git request, which the git client shows after `remote:`. */
const GIT_REFUSAL: Record<Exclude<GitRefusal, GitThrottle>, string> = {
  credentials: "HTTP Basic: Access denied",
  project_not_found: "The project you were looking for could not be found.",
  download_denied: "You are not allowed to download code from this project.",
  archived_project: "You are not allowed to push code to an archived project.",
  ...pushRefusalText,
};

/** Kiln's refusals of a throttled git password, with the wait, and the way that still works. */
const GIT_THROTTLE: Record<GitThrottle, (wait: string) => string> = {
  sign_in_account_locked: (wait) =>
    `This account is locked after too many failed sign-ins. Retry in ${wait}, or use a personal access token as the password.`,
  git_address_banned: (wait) =>
    `Too many failed git sign-ins from your address: passwords are refused for ${wait}. A personal access token still works as the password.`,
};

const isThrottle = (refusal: GitRefusal): refusal is GitThrottle => refusal in GIT_THROTTLE;

/**
 * The text a git client shows for a refused request or push; a throttled password's names the
 * wait (`retryAfterSeconds`).
 */
export const gitRefusalMessage = (refusal: GitRefusal, retryAfterSeconds = 0): string =>
  isThrottle(refusal) ? GIT_THROTTLE[refusal](minutes(retryAfterSeconds)) : GIT_REFUSAL[refusal];
