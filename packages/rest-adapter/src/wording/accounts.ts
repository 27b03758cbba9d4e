import type { AccountFailure, AuthFailure, IssueFailure, RequestFailure } from "@kiln/domain";
import { forbiddenBecause, minutes, type Wording } from "./wording.js";

/** Sign-in and sudo. */
export const authWording: Wording<AuthFailure> = {
  sudo_requires_admin: forbiddenBecause("Must be admin to use sudo"),
  sudo_target_unknown: ({ target }) => `404 Not Found: No user id or username for: ${target}`,
  password_sign_in_disabled: forbiddenBecause("Sign-in with a password is disabled"),
  insufficient_scope: forbiddenBecause(
    "Insufficient scope: this token may only read the user's account (GET /user); use a token with the api scope",
  ),
  oauth_invalid_client: () => "400 (Bad request) unknown OAuth client",
  oauth_invalid_redirect_uri: () =>
    "400 (Bad request) the redirect URI is not registered for this application",
  oauth_applications_disabled: forbiddenBecause("Only administrators may register OAuth applications"),
  sign_in_address_throttled: ({ retryAfterSeconds }) =>
    `429 Too Many Requests: too many sign-in attempts from your address, retry in ${retryAfterSeconds} seconds`,
  sign_in_account_locked: ({ retryAfterSeconds }) =>
    `429 Too Many Requests: this account is locked after too many failed sign-ins, retry in ${minutes(retryAfterSeconds)}`,
  git_address_banned: ({ retryAfterSeconds }) =>
    `429 Too Many Requests: too many failed git sign-ins from your address, retry in ${minutes(retryAfterSeconds)}`,
  // lib/api/session.rb of GitLab 9.x, as the reference quotes it.
  two_factor_enabled: () =>
    "401 Unauthorized. You have 2FA enabled. Please use a personal access token to access the API",
  two_factor_already_enabled: () => "Two-factor authentication is already enabled",
  two_factor_not_begun: () => "400 (Bad request) two-factor enrolment was not begun",
  two_factor_not_enabled: () => "400 (Bad request) two-factor authentication is not enabled",
};

/** Requests refused before a use case runs, and parameters none could read. */
export const requestWording: Wording<RequestFailure> = {
  method_not_allowed: () => "405 Method Not Allowed",
  too_many_parameters: () => "400 (Bad request) too many parameters",
  parameters_too_deep: () => "400 (Bad request) parameters nested too deeply",
  too_many_values: ({ attribute }) => `400 (Bad request) "${attribute}" has too many values`,
  timestamp_invalid: ({ attribute }) =>
    `"${attribute}" must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ`,
  no_attributes: () => "400 (Bad request) at least one attribute must be given",
};

/** Users, projects, groups, members, forks and shares. */
export const accountWording: Wording<AccountFailure> = {
  username_taken: () => "Username has already been taken",
  email_taken: () => "Email has already been taken",
  project_name_taken: () => "Project name has already been taken in this namespace",
  project_path_taken: () => "Project path has already been taken in this namespace",
  project_name_or_path_taken: () => "Project name or path has already been taken in this namespace",
  personal_projects_disabled: forbiddenBecause(
    "Personal project creation is not allowed. Please contact your administrator with questions",
  ),
  projects_limit_reached: ({ limit }) =>
    `403 Forbidden: Your project limit is ${limit} projects! Please contact your administrator to increase it`,
  rename_requires_owner: forbiddenBecause("Only the owner may rename a project"),
  visibility_requires_owner: forbiddenBecause("Only the owner may change the visibility of a project"),
  fork_of_itself: () => "400 (Bad request) a project cannot be a fork of itself",
  already_forked: () => "Project already forked",
  group_sharing_disabled: forbiddenBecause("The project sharing with group is disabled"),
  shared_with_own_group: () => "400 (Bad request) a project cannot be shared with its own group",
  already_shared: () => "Project is already shared with this group",
  already_in_group: () => "400 (Bad request) Project is already in this group",
  member_exists: () => "Member already exists",
  last_owner: forbiddenBecause("A group must keep at least one owner"),
};

/**
 * A model's errors as Ruby prints a hash, as GitLab 8.x's milestone failures show them:
 * `{:title=>["has already been taken"]}`.
 */
function rubyHash(fields: Record<string, string[]>): string {
  const entries = Object.entries(fields).map(
    ([field, messages]) => `:${field}=>[${messages.map((m) => JSON.stringify(m)).join(", ")}]`,
  );
  return `{${entries.join(", ")}}`;
}

/** Labels, milestones and issues. */
export const issueWording: Wording<IssueFailure> = {
  label_exists: () => "Label already exists",
  label_to_update_missing: () => "404 Label not found Not Found",
  milestone_not_found: () => "404 Not found",
  milestone_not_saved: ({ action, fields }) => `Failed to ${action} milestone ${rubyHash(fields)}`,
  move_not_permitted: () => "Cannot move issue due to insufficient permissions!",
  move_to_same_project: () => "Cannot move issue to project it originates from!",
};
