import type { PushRefusal } from "./branches.js";

/**
 * The named failures of each feature: a `reason` code from a closed union, the kind (which sets
 * the status), and the facts a surface needs to word it (a branch name, the titles of an existing
 * merge request). No wording here: the REST adapter writes GitLab 8.x's v3 texts, other surfaces
 * their own.
 */

/** Field-level validation messages, keyed by attribute name, as v3 reports them. */
export type FieldErrors = Record<string, string[]>;

/** Signing in and acting as someone else. */
export type AuthFailure =
  | { kind: "forbidden"; reason: "sudo_requires_admin" }
  | { kind: "not_found"; reason: "sudo_target_unknown"; target: string }
  | { kind: "forbidden"; reason: "password_sign_in_disabled" }
  /** The token's scopes do not cover the operation (a `read_user` token anywhere but `GET /user`). */
  | { kind: "forbidden"; reason: "insufficient_scope" }
  /** OAuth's authorize step: no application has this client id (never redirected back). */
  | { kind: "bad_request"; reason: "oauth_invalid_client" }
  /** OAuth's authorize step: the redirect URI is not one the application registered (never redirected to). */
  | { kind: "bad_request"; reason: "oauth_invalid_redirect_uri" }
  /** The `user_oauth_applications` setting is off: only administrators register applications. */
  | { kind: "forbidden"; reason: "oauth_applications_disabled" }
  /** Too many sign-in attempts from one client address (Rack::Attack's protected paths). */
  | { kind: "rate_limited"; reason: "sign_in_address_throttled"; retryAfterSeconds: number }
  /** An account locked after too many failed sign-ins (Devise's lockable). */
  | { kind: "rate_limited"; reason: "sign_in_account_locked"; retryAfterSeconds: number }
  /** An address banned from git's password authentication after too many failures (Rack::Attack's `git_basic_auth`). */
  | { kind: "rate_limited"; reason: "git_address_banned"; retryAfterSeconds: number }
  /**
   * A password sign-in of a user with two-factor authentication where no second step can follow
   * (`POST /session`, the OAuth password grant): GitLab 9.0's rule, use a personal access token.
   */
  | { kind: "forbidden"; reason: "two_factor_enabled" }
  /** Enrolling in two-factor authentication while enrolled already. */
  | { kind: "conflict"; reason: "two_factor_already_enabled" }
  /** Confirming an enrolment that was never begun. */
  | { kind: "bad_request"; reason: "two_factor_not_begun" }
  /** New recovery codes (or disabling) for a user without two-factor authentication. */
  | { kind: "bad_request"; reason: "two_factor_not_enabled" };

/** Requests refused before any use case runs, and parameters no use case could read. */
export type RequestFailure =
  | { kind: "not_allowed"; reason: "method_not_allowed" }
  | { kind: "bad_request"; reason: "too_many_parameters" }
  | { kind: "bad_request"; reason: "parameters_too_deep" }
  | { kind: "bad_request"; reason: "too_many_values"; attribute: string }
  | { kind: "bad_request"; reason: "timestamp_invalid"; attribute: string }
  | { kind: "bad_request"; reason: "no_attributes" };

/** Users, projects, groups, their members, links and limits. */
export type AccountFailure =
  | { kind: "conflict"; reason: "username_taken" }
  | { kind: "conflict"; reason: "email_taken" }
  | { kind: "conflict"; reason: "project_name_taken" }
  | { kind: "conflict"; reason: "project_path_taken" }
  | { kind: "conflict"; reason: "project_name_or_path_taken" }
  | { kind: "forbidden"; reason: "personal_projects_disabled" }
  | { kind: "forbidden"; reason: "projects_limit_reached"; limit: number }
  | { kind: "forbidden"; reason: "rename_requires_owner" }
  | { kind: "forbidden"; reason: "visibility_requires_owner" }
  | { kind: "bad_request"; reason: "fork_of_itself" }
  | { kind: "conflict"; reason: "already_forked" }
  | { kind: "forbidden"; reason: "group_sharing_disabled" }
  | { kind: "bad_request"; reason: "shared_with_own_group" }
  | { kind: "conflict"; reason: "already_shared" }
  | { kind: "bad_request"; reason: "already_in_group" }
  | { kind: "conflict"; reason: "member_exists" }
  | { kind: "forbidden"; reason: "last_owner" };

/** Labels, milestones and issues. */
export type IssueFailure =
  | { kind: "conflict"; reason: "label_exists" }
  | { kind: "not_found"; reason: "label_to_update_missing" }
  | { kind: "not_found"; reason: "milestone_not_found" }
  | { kind: "bad_request"; reason: "milestone_not_saved"; action: "create" | "update"; fields: FieldErrors }
  | { kind: "bad_request"; reason: "move_not_permitted" }
  | { kind: "bad_request"; reason: "move_to_same_project" };

/** Creating, accepting and cancelling merge requests. */
export type MergeRequestFailure =
  | { kind: "bad_request"; reason: "mr_target_not_fork_source" }
  | { kind: "unprocessable"; reason: "mr_same_branch" }
  | { kind: "bad_request"; reason: "mr_source_branch_missing"; branch: string }
  | { kind: "bad_request"; reason: "mr_target_branch_missing"; branch: string }
  /** `titles`: of the open merge request with the same branches, when it is still there. */
  | { kind: "conflict"; reason: "mr_exists"; titles: string[] }
  | { kind: "not_allowed"; reason: "mr_cannot_merge" }
  /** 406 when accepting, 405 when cancelling, as GitLab 8.x answers. */
  | { kind: "not_acceptable" | "not_allowed"; reason: "mr_not_open" }
  | { kind: "conflict"; reason: "mr_sha_mismatch" }
  | { kind: "not_acceptable"; reason: "mr_merge_when_build_succeeds_unset" };

/** Branches, tags, files and commits written through the API. */
export type RepositoryFailure =
  | { kind: "bad_request"; reason: "branch_name_invalid" }
  | { kind: "bad_request"; reason: "branch_exists" }
  | { kind: "bad_request"; reason: "branch_ref_invalid" }
  | { kind: "not_found"; reason: "branch_not_found" }
  | { kind: "bad_request"; reason: "branch_is_default" }
  | { kind: "bad_request"; reason: "branch_protected" }
  | { kind: "bad_request"; reason: "branch_moved" }
  | { kind: "bad_request"; reason: "tag_name_invalid" }
  | { kind: "bad_request"; reason: "tag_exists"; tag: string }
  | { kind: "bad_request"; reason: "tag_target_invalid"; ref: string }
  | { kind: "not_found"; reason: "tag_not_found" }
  | { kind: "bad_request"; reason: "tag_moved" }
  /** A branch or tag created or removed through the API that a push could not change either. */
  | { kind: "bad_request"; reason: "push_refused"; refusal: PushRefusal }
  | { kind: "bad_request"; reason: "commit_push_refused" }
  | { kind: "bad_request"; reason: "commit_not_on_branch" }
  | { kind: "conflict"; reason: "commit_branch_moved" }
  | { kind: "bad_request"; reason: "file_path_traversal" }
  | { kind: "bad_request"; reason: "file_path_characters" }
  | { kind: "bad_request"; reason: "file_path_invalid" }
  | { kind: "bad_request"; reason: "file_exists" }
  | { kind: "bad_request"; reason: "file_missing"; path: string; action: "update" | "delete" }
  | { kind: "bad_request"; reason: "file_parent_is_file"; path: string };

/** CI: builds, pipelines, runners, triggers, commit statuses. */
export type CiFailure =
  | { kind: "forbidden"; reason: "build_not_retryable" }
  | { kind: "forbidden"; reason: "build_not_erasable" }
  | { kind: "bad_request"; reason: "build_not_playable" }
  | { kind: "bad_request"; reason: "scope_invalid" }
  | { kind: "forbidden"; reason: "runner_shared" }
  | { kind: "forbidden"; reason: "runner_locked" }
  | { kind: "forbidden"; reason: "runner_no_access" }
  | { kind: "forbidden"; reason: "runner_many_projects" }
  | { kind: "forbidden"; reason: "runner_last_project" }
  | { kind: "conflict"; reason: "runner_already_enabled" }
  /** 8.x finds runners with `Ci::Runner.find`: an unknown id is ActiveRecord's 404. */
  | { kind: "not_found"; reason: "runner_missing" }
  /** A trigger that made no pipeline: unknown ref, no `.gitlab-ci.yml`, no job for the ref. */
  | { kind: "bad_request"; reason: "trigger_no_builds" }
  /** A trigger's `variables` whose values are not all strings. */
  | { kind: "bad_request"; reason: "trigger_variables_invalid" }
  | { kind: "bad_request"; reason: "status_transition"; from: string; to: string }
  | { kind: "not_found"; reason: "commit_refs_not_found" }
  /** An artifacts upload refused: not a zip, an entry or link leading out, or too big unpacked. */
  | {
      kind: "bad_request";
      reason: "artifacts_invalid";
      problem: "not_zip" | "unsafe_path" | "unsafe_link" | "too_large";
    };

/** Every named failure: each `reason` belongs to exactly one member. */
export type NamedFailure =
  | AuthFailure
  | RequestFailure
  | AccountFailure
  | IssueFailure
  | MergeRequestFailure
  | RepositoryFailure
  | CiFailure;

/** One of the {@link NamedFailure} reason codes. */
export type FailureReason = NamedFailure["reason"];
