import type { GitRefusal } from "@kiln/services";
import { pushRefusalText } from "./repository.js";

/** GitLab 8.x's refusals of a git request, which the git client shows after `remote:`. */
const GIT_REFUSAL: Record<GitRefusal, string> = {
  credentials: "HTTP Basic: Access denied",
  project_not_found: "The project you were looking for could not be found.",
  download_denied: "You are not allowed to download code from this project.",
  archived_project: "You are not allowed to push code to an archived project.",
  ...pushRefusalText,
};

/** The text a git client shows for a refused request or push. */
export const gitRefusalMessage = (refusal: GitRefusal): string => GIT_REFUSAL[refusal];
