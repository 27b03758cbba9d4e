import { emailProblem, MIN_PASSWORD_LENGTH, usernameProblem } from "@kiln/domain";
import { z } from "zod";
import { PaginationParams } from "./pagination.js";
import { Id, ruled, ShortText, StoredInt, Timestamp } from "./primitives.js";

// ---------------------------------------------------------------------------------------- input

const Password = z.string().min(MIN_PASSWORD_LENGTH, {
  error: `is too short (minimum is ${MIN_PASSWORD_LENGTH} characters)`,
});

const ProfileFields = {
  name: ShortText.min(1, { error: "can't be blank" }),
  email: ruled(emailProblem),
  username: ruled(usernameProblem),
  password: Password,
  admin: z.boolean(),
  can_create_group: z.boolean(),
  external: z.boolean(),
  projects_limit: StoredInt.min(0, { error: "must be greater than or equal to 0" }),
  bio: ShortText,
  location: ShortText,
  organization: ShortText,
  skype: ShortText,
  linkedin: ShortText,
  twitter: ShortText,
  website_url: ShortText,
};

/** `POST /users`: an administrator creates an account. */
export const CreateUserInput = z.object({
  ...ProfileFields,
  admin: ProfileFields.admin.optional(),
  can_create_group: ProfileFields.can_create_group.optional(),
  external: ProfileFields.external.optional(),
  projects_limit: ProfileFields.projects_limit.optional(),
  bio: ProfileFields.bio.optional(),
  location: ProfileFields.location.optional(),
  organization: ProfileFields.organization.optional(),
  skype: ProfileFields.skype.optional(),
  linkedin: ProfileFields.linkedin.optional(),
  twitter: ProfileFields.twitter.optional(),
  website_url: ProfileFields.website_url.optional(),
  /** Accepted for compatibility; accounts are always created confirmed. */
  confirm: z.boolean().optional(),
});
export type CreateUserInput = z.infer<typeof CreateUserInput>;

/** `PUT /users/:id`: any of the profile fields. */
export const UpdateUserInput = z.object({ id: Id, ...z.object(ProfileFields).partial().shape });
export type UpdateUserInput = z.infer<typeof UpdateUserInput>;

/** A user changing their own name and email (the account page); validated as `PUT /users/:id`. */
export const UpdateOwnProfileInput = z.object(ProfileFields).pick({ name: true, email: true }).partial();
export type UpdateOwnProfileInput = z.infer<typeof UpdateOwnProfileInput>;

/** A user changing their own password, proving the current one. */
export const ChangeOwnPasswordInput = z.object({
  current_password: z.string(),
  password: Password,
  password_confirmation: z.string(),
});
export type ChangeOwnPasswordInput = z.infer<typeof ChangeOwnPasswordInput>;

/** `GET /users`. */
export const ListUsersInput = PaginationParams.extend({
  search: z.string().optional(),
  username: z.string().optional(),
  active: z.boolean().optional(),
  blocked: z.boolean().optional(),
  external: z.boolean().optional(),
});
export type ListUsersInput = z.infer<typeof ListUsersInput>;

/** Any route that names one user by id. */
export const UserIdInput = z.object({ id: Id });
export type UserIdInput = z.infer<typeof UserIdInput>;

/** `POST /session`: `login` (username or email) or `email`, and the password. */
export const SignInInput = z.object({
  login: z.string().optional(),
  email: z.string().optional(),
  password: z.string(),
});
export type SignInInput = z.infer<typeof SignInInput>;

/** `POST /user/keys` and `POST /users/:id/keys`. */
export const AddSshKeyInput = z.object({
  title: ShortText.min(1, { error: "can't be blank" }),
  key: z.string().max(5000, { error: "is too long (maximum is 5000 characters)" }),
});
export type AddSshKeyInput = z.infer<typeof AddSshKeyInput>;

/** Routes that name one SSH key. */
export const SshKeyIdInput = z.object({ key_id: Id });

// --------------------------------------------------------------------------------------- output

/** The short form of a user (author, assignee, `GET /users` for non-admins). */
export const UserBasic = z.object({
  name: z.string(),
  username: z.string(),
  id: Id,
  state: z.enum(["active", "blocked"]),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});
export type UserBasic = z.infer<typeof UserBasic>;

/** `GET /users/:id` for non-admins. */
export const User = UserBasic.extend({
  created_at: Timestamp,
  is_admin: z.boolean(),
  bio: z.string().nullable(),
  location: z.string().nullable(),
  skype: z.string(),
  linkedin: z.string(),
  twitter: z.string(),
  website_url: z.string(),
  organization: z.string().nullable(),
});
export type User = z.infer<typeof User>;

/** `GET /user`, and what administrators see of any user. */
export const UserPublic = User.extend({
  last_sign_in_at: Timestamp.nullable(),
  confirmed_at: Timestamp.nullable(),
  email: z.string(),
  theme_id: z.number().int(),
  color_scheme_id: z.number().int(),
  projects_limit: z.number().int(),
  current_sign_in_at: Timestamp.nullable(),
  identities: z.array(z.object({ provider: z.string(), extern_uid: z.string() })),
  can_create_group: z.boolean(),
  can_create_project: z.boolean(),
  two_factor_enabled: z.boolean(),
  external: z.boolean(),
});
export type UserPublic = z.infer<typeof UserPublic>;

/** The session user: `POST /session`, and `GET /user` under sudo. */
export const UserWithPrivateToken = UserPublic.extend({ private_token: z.string() });
export type UserWithPrivateToken = z.infer<typeof UserWithPrivateToken>;

/** An SSH key. */
export const SshKey = z.object({ id: Id, title: z.string(), key: z.string(), created_at: Timestamp });
export type SshKey = z.infer<typeof SshKey>;
