import { Visibility } from "./access.js";

/** Branch protection applied to the first branch pushed to a new repository. */
export const BranchProtection = {
  /** Not protected. */
  NONE: 0,
  /** Developers may push, but not force-push or delete. */
  DEVELOPERS_CAN_PUSH: 1,
  /** Only masters and owners may push. */
  FULL: 2,
} as const;

/** One of 0, 1, 2. */
export type BranchProtection = (typeof BranchProtection)[keyof typeof BranchProtection];

/** The instance-wide settings an administrator manages through `/application/settings`. */
export interface ApplicationSettings {
  default_projects_limit: number;
  signup_enabled: boolean;
  signin_enabled: boolean;
  gravatar_enabled: boolean;
  sign_in_text: string | null;
  home_page_url: string | null;
  default_branch_protection: BranchProtection;
  /** Visibility levels (0, 10, 20) that only administrators may use. */
  restricted_visibility_levels: number[];
  /** Largest upload, in megabytes. */
  max_attachment_size: number;
  /** Largest build artifacts archive a runner may upload, in megabytes. */
  max_artifacts_size: number;
  /** Minutes. */
  session_expire_delay: number;
  default_project_visibility: Visibility;
  default_snippet_visibility: Visibility;
  domain_whitelist: string[];
  domain_blacklist_enabled: boolean;
  domain_blacklist: string[];
  user_oauth_applications: boolean;
  after_sign_out_path: string | null;
  /** Minutes. */
  container_registry_token_expire_delay: number;
  repository_storage: string;
  /** `ssh`, `http`, or null for both. */
  enabled_git_access_protocol: "ssh" | "http" | null;
  /** Whether webhooks may reach loopback and private addresses. */
  allow_local_requests_from_hooks: boolean;
  /** Whether every user must use two-factor authentication (after the grace period). */
  require_two_factor_authentication: boolean;
  /** Hours a user may go on without two-factor authentication once it is required. */
  two_factor_grace_period: number;
  /**
   * When `require_two_factor_authentication` was last turned on (null while off): the grace
   * period runs from then, or from a later account's creation. Kept by the services, not set
   * through the API.
   */
  two_factor_required_since: string | null;
}

/** What a fresh installation starts with (GitLab 8.x defaults). */
export const DEFAULT_APPLICATION_SETTINGS: Readonly<ApplicationSettings> = Object.freeze({
  default_projects_limit: 10,
  signup_enabled: true,
  signin_enabled: true,
  gravatar_enabled: true,
  sign_in_text: null,
  home_page_url: null,
  default_branch_protection: BranchProtection.FULL,
  restricted_visibility_levels: [],
  max_attachment_size: 10,
  max_artifacts_size: 100,
  session_expire_delay: 10080,
  default_project_visibility: Visibility.PRIVATE,
  default_snippet_visibility: Visibility.PRIVATE,
  domain_whitelist: [],
  domain_blacklist_enabled: false,
  domain_blacklist: [],
  user_oauth_applications: true,
  after_sign_out_path: null,
  container_registry_token_expire_delay: 5,
  repository_storage: "default",
  enabled_git_access_protocol: null,
  allow_local_requests_from_hooks: false,
  require_two_factor_authentication: false,
  two_factor_grace_period: 48,
  two_factor_required_since: null,
});

/** Stored settings over the defaults, so a setting added later reads its default until changed. */
export function withDefaults(stored: Partial<ApplicationSettings>): ApplicationSettings {
  return { ...DEFAULT_APPLICATION_SETTINGS, ...stored };
}
