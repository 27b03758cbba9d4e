import type { Failure, FieldErrors, NamedFailure, NotFoundSubject } from "@kiln/domain";
import { accountWording, authWording, issueWording, requestWording } from "./accounts.js";
import { ciWording } from "./ci.js";
import { mergeRequestWording, repositoryWording } from "./repository.js";
import type { Wording } from "./wording.js";

/** Every named failure's v3 text; the type makes a missing reason a compile error. */
export const namedWording: Wording<NamedFailure> = {
  ...authWording,
  ...requestWording,
  ...accountWording,
  ...issueWording,
  ...mergeRequestWording,
  ...repositoryWording,
  ...ciWording,
};

/** The word of `404 <Subject> Not Found`. */
const SUBJECT: Record<NotFoundSubject, string> = {
  blob: "Blob",
  branch: "Branch",
  build: "Build",
  commit: "Commit",
  file: "File",
  group: "Group",
  group_link: "Group Link",
  hook: "Hook",
  issue: "Issue",
  key: "Key",
  label: "Label",
  member: "Member",
  merge_request: "Merge Request",
  note: "Note",
  pipeline: "Pipeline",
  project: "Project",
  runner: "Runner",
  tag: "Tag",
  target_namespace: "Target Namespace",
  todo: "Todo",
  token: "Token",
  tree: "Tree",
  trigger: "Trigger",
  user: "User",
  variable: "Variable",
};

function namedMessage<F extends NamedFailure>(failure: F): string {
  return (namedWording[failure.reason] as (failure: F) => string)(failure);
}

/**
 * The `message` of a failure's v3 body, exactly as GitLab 8.x words it: a string, or for a
 * validation failure the attribute → messages object. (A 304 has no body; its text is for
 * terminals.)
 */
export function v3Message(failure: Failure): string | FieldErrors {
  if ("reason" in failure) return namedMessage(failure);
  switch (failure.kind) {
    case "unauthenticated":
      return "401 Unauthorized";
    case "forbidden":
      return "403 Forbidden";
    case "not_found":
      return failure.subject ? `404 ${SUBJECT[failure.subject]} Not Found` : "404 Not Found";
    case "missing_param":
      return `400 (Bad request) "${failure.attribute}" not given`;
    case "validation":
      return failure.fields;
    case "not_modified":
      return "304 Not Modified";
    case "too_large":
      return "413 Request Entity Too Large";
  }
}
