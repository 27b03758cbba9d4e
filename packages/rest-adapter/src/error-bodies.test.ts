import {
  badRequest,
  conflict,
  DomainError,
  forbidden,
  invalid,
  missingParam,
  type NotFoundSubject,
  notFound,
  notModified,
  PushRefusal,
  unauthenticated,
} from "@kiln/domain";
import type { GitRefusal } from "@kiln/services";
import { describe, expect, it } from "vitest";
import { errorReply } from "./errors.js";
import { gitRefusalMessage } from "./wording/git.js";
import { namedWording } from "./wording/index.js";

/**
 * Every error the code raises, with the exact v3 status and body clients see today (the bodies
 * were taken from the code before errors became kinds with facts: they must never change).
 */
const cases: [name: string, build: () => DomainError, status: number, body: unknown][] = [
  // Generic kinds.
  ["no subject", () => notFound(), 404, "404 Not Found"],
  ["forbidden", () => forbidden(), 403, "403 Forbidden"],
  ["unauthenticated", () => unauthenticated(), 401, "401 Unauthorized"],
  ["missing param", () => missingParam("title"), 400, '400 (Bad request) "title" not given'],
  ["validation", () => invalid({ title: ["can't be blank"] }), 400, { title: ["can't be blank"] }],
  ["not modified", () => notModified(), 304, undefined],
  ["too large", () => new DomainError({ kind: "too_large" }), 413, "413 Request Entity Too Large"],
  [
    "method",
    () => new DomainError({ kind: "not_allowed", reason: "method_not_allowed" }),
    405,
    "405 Method Not Allowed",
  ],
  // 404 with a subject, one per subject the code names.
  ...(
    [
      ["blob", "Blob"],
      ["branch", "Branch"],
      ["commit", "Commit"],
      ["file", "File"],
      ["group", "Group"],
      ["group_link", "Group Link"],
      ["hook", "Hook"],
      ["issue", "Issue"],
      ["key", "Key"],
      ["label", "Label"],
      ["member", "Member"],
      ["merge_request", "Merge Request"],
      ["note", "Note"],
      ["project", "Project"],
      ["system_hook", "System hook"],
      ["tag", "Tag"],
      ["target_namespace", "Target Namespace"],
      ["todo", "Todo"],
      ["token", "Token"],
      ["tree", "Tree"],
      ["user", "User"],
    ] as [NotFoundSubject, string][]
  ).map(([subject, word]): [string, () => DomainError, number, unknown] => [
    `not found: ${word}`,
    () => notFound(subject),
    404,
    `404 ${word} Not Found`,
  ]),
  // Named failures, by feature.
  [
    "sudo target",
    () => new DomainError({ kind: "not_found", reason: "sudo_target_unknown", target: "ghost" }),
    404,
    "404 Not Found: No user id or username for: ghost",
  ],
  [
    "sudo by non-admin",
    () => forbidden({ reason: "sudo_requires_admin" }),
    403,
    "403 Forbidden: Must be admin to use sudo",
  ],
  [
    "sign-in disabled",
    () => forbidden({ reason: "password_sign_in_disabled" }),
    403,
    "403 Forbidden: Sign-in with a password is disabled",
  ],
  ["wrong password", () => unauthenticated(), 401, "401 Unauthorized"],
  [
    "sign-ins throttled per address",
    () =>
      new DomainError({ kind: "rate_limited", reason: "sign_in_address_throttled", retryAfterSeconds: 60 }),
    429,
    "429 Too Many Requests: too many sign-in attempts from your address, retry in 60 seconds",
  ],
  [
    "account locked",
    () => new DomainError({ kind: "rate_limited", reason: "sign_in_account_locked", retryAfterSeconds: 61 }),
    429,
    "429 Too Many Requests: this account is locked after too many failed sign-ins, retry in 2 minutes",
  ],
  [
    "git passwords banned per address",
    () => new DomainError({ kind: "rate_limited", reason: "git_address_banned", retryAfterSeconds: 3600 }),
    429,
    "429 Too Many Requests: too many failed git sign-ins from your address, retry in 60 minutes",
  ],
  [
    "password sign-in of a user with 2FA",
    () => forbidden({ reason: "two_factor_enabled" }),
    401,
    "401 Unauthorized. You have 2FA enabled. Please use a personal access token to access the API",
  ],
  [
    "a read_user token anywhere but GET /user",
    () => forbidden({ reason: "insufficient_scope" }),
    403,
    "403 Forbidden: Insufficient scope: this token may only read the user's account (GET /user); use a token with the api scope",
  ],
  [
    "OAuth authorize of an unknown client",
    () => badRequest({ reason: "oauth_invalid_client" }),
    400,
    "400 (Bad request) unknown OAuth client",
  ],
  [
    "OAuth authorize to an unregistered redirect URI",
    () => badRequest({ reason: "oauth_invalid_redirect_uri" }),
    400,
    "400 (Bad request) the redirect URI is not registered for this application",
  ],
  [
    "an OAuth application registered by a user while only admins may",
    () => forbidden({ reason: "oauth_applications_disabled" }),
    403,
    "403 Forbidden: Only administrators may register OAuth applications",
  ],
  [
    "2FA enrolment while enrolled",
    () => conflict({ reason: "two_factor_already_enabled" }),
    409,
    "Two-factor authentication is already enabled",
  ],
  [
    "2FA confirmed before begun",
    () => badRequest({ reason: "two_factor_not_begun" }),
    400,
    "400 (Bad request) two-factor enrolment was not begun",
  ],
  [
    "recovery codes without 2FA",
    () => badRequest({ reason: "two_factor_not_enabled" }),
    400,
    "400 (Bad request) two-factor authentication is not enabled",
  ],
  [
    "too many parameters",
    () => badRequest({ reason: "too_many_parameters" }),
    400,
    "400 (Bad request) too many parameters",
  ],
  [
    "nested too deeply",
    () => badRequest({ reason: "parameters_too_deep" }),
    400,
    "400 (Bad request) parameters nested too deeply",
  ],
  [
    "too many values",
    () => badRequest({ reason: "too_many_values", attribute: "labels" }),
    400,
    '400 (Bad request) "labels" has too many values',
  ],
  [
    "bad timestamp",
    () => badRequest({ reason: "timestamp_invalid", attribute: "since" }),
    400,
    '"since" must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ',
  ],
  [
    "user update without attributes",
    () => badRequest({ reason: "no_attributes" }),
    400,
    "400 (Bad request) at least one attribute must be given",
  ],
  ["username taken", () => conflict({ reason: "username_taken" }), 409, "Username has already been taken"],
  ["email taken", () => conflict({ reason: "email_taken" }), 409, "Email has already been taken"],
  [
    "project name taken",
    () => conflict({ reason: "project_name_taken" }),
    409,
    "Project name has already been taken in this namespace",
  ],
  [
    "project path taken",
    () => conflict({ reason: "project_path_taken" }),
    409,
    "Project path has already been taken in this namespace",
  ],
  [
    "project name or path taken",
    () => conflict({ reason: "project_name_or_path_taken" }),
    409,
    "Project name or path has already been taken in this namespace",
  ],
  [
    "no personal projects",
    () => forbidden({ reason: "personal_projects_disabled" }),
    403,
    "403 Forbidden: Personal project creation is not allowed. Please contact your administrator with questions",
  ],
  [
    "projects limit",
    () => forbidden({ reason: "projects_limit_reached", limit: 3 }),
    403,
    "403 Forbidden: Your project limit is 3 projects! Please contact your administrator to increase it",
  ],
  [
    "rename by non-owner",
    () => forbidden({ reason: "rename_requires_owner" }),
    403,
    "403 Forbidden: Only the owner may rename a project",
  ],
  [
    "visibility by non-owner",
    () => forbidden({ reason: "visibility_requires_owner" }),
    403,
    "403 Forbidden: Only the owner may change the visibility of a project",
  ],
  [
    "fork of itself",
    () => badRequest({ reason: "fork_of_itself" }),
    400,
    "400 (Bad request) a project cannot be a fork of itself",
  ],
  ["already forked", () => conflict({ reason: "already_forked" }), 409, "Project already forked"],
  [
    "sharing locked",
    () => forbidden({ reason: "group_sharing_disabled" }),
    403,
    "403 Forbidden: The project sharing with group is disabled",
  ],
  [
    "shared with own group",
    () => badRequest({ reason: "shared_with_own_group" }),
    400,
    "400 (Bad request) a project cannot be shared with its own group",
  ],
  [
    "already shared",
    () => conflict({ reason: "already_shared" }),
    409,
    "Project is already shared with this group",
  ],
  [
    "already in group",
    () => badRequest({ reason: "already_in_group" }),
    400,
    "400 (Bad request) Project is already in this group",
  ],
  ["member exists", () => conflict({ reason: "member_exists" }), 409, "Member already exists"],
  [
    "last owner",
    () => forbidden({ reason: "last_owner" }),
    403,
    "403 Forbidden: A group must keep at least one owner",
  ],
  ["label exists", () => conflict({ reason: "label_exists" }), 409, "Label already exists"],
  [
    "label to update missing",
    () => new DomainError({ kind: "not_found", reason: "label_to_update_missing" }),
    404,
    "404 Label not found Not Found",
  ],
  [
    "milestone missing",
    () => new DomainError({ kind: "not_found", reason: "milestone_not_found" }),
    404,
    "404 Not found",
  ],
  [
    "milestone create fails",
    () =>
      badRequest({
        reason: "milestone_not_saved",
        action: "create",
        fields: { title: ["has already been taken"] },
      }),
    400,
    'Failed to create milestone {:title=>["has already been taken"]}',
  ],
  [
    "milestone update fails",
    () =>
      badRequest({
        reason: "milestone_not_saved",
        action: "update",
        fields: { title: ["has already been taken", "is too long"], state: ["is invalid"] },
      }),
    400,
    'Failed to update milestone {:title=>["has already been taken", "is too long"], :state=>["is invalid"]}',
  ],
  [
    "move without rights",
    () => badRequest({ reason: "move_not_permitted" }),
    400,
    "Cannot move issue due to insufficient permissions!",
  ],
  [
    "move to same project",
    () => badRequest({ reason: "move_to_same_project" }),
    400,
    "Cannot move issue to project it originates from!",
  ],
  [
    "mr not fork source",
    () => badRequest({ reason: "mr_target_not_fork_source" }),
    400,
    "(Bad Request) Specified target project that is not the source project, or the source fork of the project.",
  ],
  [
    "mr same branch",
    () => new DomainError({ kind: "unprocessable", reason: "mr_same_branch" }),
    422,
    "You can not use same project/branch for source and target",
  ],
  [
    "mr source missing",
    () => badRequest({ reason: "mr_source_branch_missing", branch: "feature" }),
    400,
    'Source branch "feature" does not exist',
  ],
  [
    "mr target missing",
    () => badRequest({ reason: "mr_target_branch_missing", branch: "main" }),
    400,
    'Target branch "main" does not exist',
  ],
  [
    "mr exists",
    () => conflict({ reason: "mr_exists", titles: ['Add "x"'] }),
    409,
    'Cannot Create: This merge request already exists: ["Add \\"x\\""]',
  ],
  [
    "mr exists, title unknown",
    () => conflict({ reason: "mr_exists", titles: [] }),
    409,
    "Cannot Create: This merge request already exists: []",
  ],
  [
    "mr cannot merge",
    () => new DomainError({ kind: "not_allowed", reason: "mr_cannot_merge" }),
    405,
    "Branch cannot be merged",
  ],
  [
    "mr not open (accept)",
    () => new DomainError({ kind: "not_acceptable", reason: "mr_not_open" }),
    406,
    "Method Not Allowed",
  ],
  [
    "mr not open (cancel)",
    () => new DomainError({ kind: "not_allowed", reason: "mr_not_open" }),
    405,
    "Method Not Allowed",
  ],
  [
    "mr sha mismatch",
    () => conflict({ reason: "mr_sha_mismatch" }),
    409,
    "SHA does not match HEAD of source branch",
  ],
  [
    "mr not set to merge",
    () => new DomainError({ kind: "not_acceptable", reason: "mr_merge_when_build_succeeds_unset" }),
    406,
    "Merge request is not set to be merged when the build succeeds",
  ],
  ["branch name invalid", () => badRequest({ reason: "branch_name_invalid" }), 400, "Branch name is invalid"],
  ["branch exists", () => badRequest({ reason: "branch_exists" }), 400, "Branch already exists"],
  ["branch ref invalid", () => badRequest({ reason: "branch_ref_invalid" }), 400, "Invalid reference name"],
  [
    "branch to delete missing",
    () => new DomainError({ kind: "not_found", reason: "branch_not_found" }),
    404,
    "No such branch",
  ],
  [
    "default branch delete",
    () => badRequest({ reason: "branch_is_default" }),
    400,
    "Cannot remove HEAD branch",
  ],
  [
    "protected branch delete",
    () => badRequest({ reason: "branch_protected" }),
    400,
    "Protected branch cant be removed",
  ],
  [
    "branch moved",
    () => badRequest({ reason: "branch_moved" }),
    400,
    "Branch was changed while it was being removed",
  ],
  ["tag name invalid", () => badRequest({ reason: "tag_name_invalid" }), 400, "Tag name invalid"],
  ["tag exists", () => badRequest({ reason: "tag_exists", tag: "v1.0" }), 400, "Tag v1.0 already exists"],
  [
    "tag target invalid",
    () => badRequest({ reason: "tag_target_invalid", ref: "nope" }),
    400,
    "Target nope is invalid",
  ],
  [
    "tag to delete missing",
    () => new DomainError({ kind: "not_found", reason: "tag_not_found" }),
    404,
    "No such tag",
  ],
  ["tag moved", () => badRequest({ reason: "tag_moved" }), 400, "Tag was changed while it was being removed"],
  [
    "push: push code",
    () => badRequest({ reason: "push_refused", refusal: PushRefusal.PUSH_CODE }),
    400,
    "You are not allowed to push code to this project.",
  ],
  [
    "push: protected",
    () => badRequest({ reason: "push_refused", refusal: PushRefusal.PROTECTED_BRANCH }),
    400,
    "You are not allowed to push code to protected branches on this project.",
  ],
  [
    "push: force protected",
    () => badRequest({ reason: "push_refused", refusal: PushRefusal.FORCE_PUSH_PROTECTED }),
    400,
    "You are not allowed to force push code to a protected branch on this project.",
  ],
  [
    "push: delete protected",
    () => badRequest({ reason: "push_refused", refusal: PushRefusal.DELETE_PROTECTED }),
    400,
    "You are not allowed to delete protected branches from this project.",
  ],
  [
    "push: delete default",
    () => badRequest({ reason: "push_refused", refusal: PushRefusal.DELETE_DEFAULT }),
    400,
    "The default branch of a project cannot be deleted.",
  ],
  [
    "push: change tags",
    () => badRequest({ reason: "push_refused", refusal: PushRefusal.CHANGE_TAGS }),
    400,
    "You are not allowed to change existing tags on this project.",
  ],
  [
    "commit: push refused",
    () => badRequest({ reason: "commit_push_refused" }),
    400,
    "You are not allowed to push into this branch",
  ],
  [
    "commit: not a branch",
    () => badRequest({ reason: "commit_not_on_branch" }),
    400,
    "You can only create or edit files when you are on a branch",
  ],
  [
    "commit: branch moved",
    () => conflict({ reason: "commit_branch_moved" }),
    409,
    "Commit was rejected because branch received new push",
  ],
  [
    "file path traversal",
    () => badRequest({ reason: "file_path_traversal" }),
    400,
    "Your changes could not be committed, because the file name cannot include directory traversal.",
  ],
  [
    "file path characters",
    () => badRequest({ reason: "file_path_characters" }),
    400,
    "Your changes could not be committed, because the file name can contain only letters, digits, '_', '-', '@' and '.'. Separate directories with a '/'.",
  ],
  [
    "file path invalid",
    () => badRequest({ reason: "file_path_invalid" }),
    400,
    "Your changes could not be committed, because the file name is not a valid path.",
  ],
  [
    "file exists",
    () => badRequest({ reason: "file_exists" }),
    400,
    "Your changes could not be committed because a file with the same name already exists",
  ],
  [
    "file to update missing",
    () => badRequest({ reason: "file_missing", path: "a/b.txt", action: "update" }),
    400,
    "File to be updated `a/b.txt` does not exist.",
  ],
  [
    "file to delete missing",
    () => badRequest({ reason: "file_missing", path: "a/b.txt", action: "delete" }),
    400,
    "File to be deleted `a/b.txt` does not exist.",
  ],
  [
    "file parent is a file",
    () => badRequest({ reason: "file_parent_is_file", path: "a/b.txt" }),
    400,
    "Your changes could not be committed because a parent directory of `a/b.txt` is a file",
  ],
  [
    "build not retryable",
    () => new DomainError({ kind: "forbidden", reason: "build_not_retryable" }),
    403,
    "403 Forbidden  - Build is not retryable",
  ],
  [
    "build not erasable",
    () => new DomainError({ kind: "forbidden", reason: "build_not_erasable" }),
    403,
    "403 Forbidden  - Build is not erasable!",
  ],
  [
    "build not playable",
    () => badRequest({ reason: "build_not_playable" }),
    400,
    '400 (Bad request) "Unplayable Build" not given',
  ],
  [
    "build scope invalid",
    () => badRequest({ reason: "scope_invalid" }),
    400,
    "Scope contains invalid value(s)",
  ],
  [
    "runner shared",
    () => new DomainError({ kind: "forbidden", reason: "runner_shared" }),
    403,
    "403 Forbidden  - Runner is shared",
  ],
  [
    "runner locked",
    () => new DomainError({ kind: "forbidden", reason: "runner_locked" }),
    403,
    "403 Forbidden  - Runner is locked",
  ],
  [
    "runner no access",
    () => new DomainError({ kind: "forbidden", reason: "runner_no_access" }),
    403,
    "403 Forbidden  - No access granted",
  ],
  [
    "runner of many projects",
    () => new DomainError({ kind: "forbidden", reason: "runner_many_projects" }),
    403,
    "403 Forbidden  - Runner associated with more than one project",
  ],
  [
    "runner's last project",
    () => new DomainError({ kind: "forbidden", reason: "runner_last_project" }),
    403,
    "403 Forbidden  - Only one project associated with the runner. Please remove the runner instead",
  ],
  [
    "runner already enabled",
    () => new DomainError({ kind: "conflict", reason: "runner_already_enabled" }),
    409,
    "Runner was already enabled for this project",
  ],
  [
    "runner unknown",
    () => new DomainError({ kind: "not_found", reason: "runner_missing" }),
    404,
    "404 Not found",
  ],
  ["trigger made no pipeline", () => badRequest({ reason: "trigger_no_builds" }), 400, "No builds created"],
  [
    "trigger variables not strings",
    () => badRequest({ reason: "trigger_variables_invalid" }),
    400,
    "variables needs to be a map of key-valued strings",
  ],
  [
    "commit status transition",
    () => badRequest({ reason: "status_transition", from: "success", to: "run" }),
    400,
    "Cannot transition status via :run from :success",
  ],
  [
    "commit without refs",
    () => new DomainError({ kind: "not_found", reason: "commit_refs_not_found" }),
    404,
    "404 References for commit Not Found",
  ],
  [
    "artifacts not a zip",
    () => badRequest({ reason: "artifacts_invalid", problem: "not_zip" }),
    400,
    "400 (Bad request) artifacts refused: the file is not a zip archive",
  ],
];

describe("v3 error bodies", () => {
  // The wording tables are typed to word every reason (a missing one fails the typecheck); this
  // holds the table above to pin the bytes of every one of them.
  it("pin every named failure's text", () => {
    const pinned = new Set(
      cases.map(([, build]) => build().failure).flatMap((f) => ("reason" in f ? [f.reason] : [])),
    );
    expect(Object.keys(namedWording).filter((reason) => !pinned.has(reason as never))).toEqual([]);
  });

  it.each(cases)("%s", (_name, build, status, body) => {
    const reply = errorReply(build());
    expect(reply.status).toBe(status);
    expect(reply.body === undefined ? undefined : JSON.stringify(reply.body)).toBe(
      body === undefined ? undefined : JSON.stringify({ message: body }),
    );
  });
});

/** What git clients show after `remote:` for a refused request or push (GitLab 8.x's texts). */
const gitRefusals: [refusal: GitRefusal, text: string][] = [
  ["credentials", "HTTP Basic: Access denied"],
  ["project_not_found", "The project you were looking for could not be found."],
  ["download_denied", "You are not allowed to download code from this project."],
  ["archived_project", "You are not allowed to push code to an archived project."],
  ["push_code", "You are not allowed to push code to this project."],
  ["protected_branch", "You are not allowed to push code to protected branches on this project."],
  ["force_push_protected", "You are not allowed to force push code to a protected branch on this project."],
  ["delete_protected", "You are not allowed to delete protected branches from this project."],
  ["delete_default", "The default branch of a project cannot be deleted."],
  ["change_tags", "You are not allowed to change existing tags on this project."],
];

describe("git refusal texts", () => {
  it.each(gitRefusals)("%s", (refusal, text) => {
    expect(gitRefusalMessage(refusal)).toBe(text);
  });

  it("name the wait of a throttled password, and the token that still works", () => {
    expect(gitRefusalMessage("sign_in_account_locked", 600)).toBe(
      "This account is locked after too many failed sign-ins. Retry in 10 minutes, or use a personal access token as the password.",
    );
    expect(gitRefusalMessage("git_address_banned", 3599)).toBe(
      "Too many failed git sign-ins from your address: passwords are refused for 60 minutes. A personal access token still works as the password.",
    );
  });
});
