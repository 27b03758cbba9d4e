/** A user account, without its secrets (password hash and tokens live only in storage). */
export interface User {
  id: number;
  username: string;
  email: string;
  name: string;
  state: UserState;
  is_admin: boolean;
  can_create_group: boolean;
  /** How many personal projects the user may own. */
  projects_limit: number;
  /** How many projects the user's personal namespace holds. */
  personal_projects_count: number;
  external: boolean;
  bio: string | null;
  location: string | null;
  organization: string | null;
  skype: string;
  linkedin: string;
  twitter: string;
  website_url: string;
  theme_id: number;
  color_scheme_id: number;
  created_at: string;
  updated_at: string;
  confirmed_at: string | null;
  last_sign_in_at: string | null;
  current_sign_in_at: string | null;
  /** When the user confirmed two-factor authentication; null when they have none. */
  two_factor_enabled_at: string | null;
}

/** True when the user signs in with a second factor (TOTP or a recovery code). */
export function hasTwoFactor(user: Pick<User, "two_factor_enabled_at">): boolean {
  return user.two_factor_enabled_at !== null;
}

/** What other records show of a user (authors, assignees): the short form and when they joined. */
export type UserSummary = Pick<User, "id" | "username" | "name" | "state" | "created_at">;

/** `active` users may act; `blocked` users are refused everywhere. */
export type UserState = "active" | "blocked";

/** True when the user may authenticate and act. */
export function isActive(user: Pick<User, "state">): boolean {
  return user.state === "active";
}

/** True when the user may create another project in their own namespace. */
export function canCreateProject(user: Pick<User, "projects_limit" | "personal_projects_count">): boolean {
  return user.personal_projects_count < user.projects_limit;
}

/** An SSH public key of a user. */
export interface SshKey {
  id: number;
  user_id: number;
  title: string;
  key: string;
  fingerprint: string;
  created_at: string;
}

/** A personal access token's metadata (the token itself is shown once and stored as a digest). */
export interface PersonalAccessToken {
  id: number;
  user_id: number;
  name: string;
  revoked: boolean;
  created_at: string;
  expires_at: string | null;
  /** What it may do: `api` (everything), or `read_user` (read the account only). */
  scopes: string[];
}

/** The creation rights of an account: how many personal projects, and whether groups. */
export type CreationRights = Pick<User, "can_create_group" | "projects_limit">;

/**
 * The creation rights an account keeps, given whether it is external: as in GitLab 8.x, an
 * external user creates neither projects nor groups, whatever an administrator asked for, and
 * keeps that until no longer external (the limits then stay as they were set).
 */
export function creationRights(external: boolean, asked: CreationRights): CreationRights {
  return external ? { can_create_group: false, projects_limit: 0 } : asked;
}
