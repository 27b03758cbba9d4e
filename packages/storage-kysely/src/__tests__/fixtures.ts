import {
  type Group,
  type Namespace,
  type PageRequest,
  type Project,
  type User,
  Visibility,
} from "@kiln/domain";
import type { GroupFields } from "../stores/namespaces.js";
import type { ProjectOrder } from "../stores/project-scopes.js";
import type { NewProject } from "../stores/projects.js";
import type { NewUser } from "../stores/users.js";
import type { Stores } from "../stores.js";

/** A page large enough to hold everything a test creates. */
export const ALL: PageRequest = { page: 1, perPage: 100 };

/** Oldest first, the order most assertions read easiest in. */
export const BY_ID: ProjectOrder = { by: "id", direction: "asc" };

let sequence = 0;
const next = (): number => ++sequence;

/** A new account's fields, with unique secrets. */
export function newUser(username: string, overrides: Partial<NewUser> = {}): NewUser {
  const n = next();
  return {
    username,
    email: `${username}@example.com`,
    name: username.toUpperCase(),
    state: "active",
    is_admin: false,
    can_create_group: true,
    projects_limit: 10,
    external: false,
    bio: null,
    location: null,
    organization: null,
    skype: "",
    linkedin: "",
    twitter: "",
    website_url: "",
    theme_id: 1,
    color_scheme_id: 1,
    confirmed_at: null,
    password_hash: "hash",
    private_token_digest: `digest-${username}-${n}`,
    private_token_sealed: `sealed-${username}-${n}`,
    ...overrides,
  };
}

/** A user and their personal namespace. */
export interface Account {
  user: User;
  namespace: Namespace;
}

/** Creates a user with their personal namespace, as sign-up does. */
export async function createAccount(
  stores: Stores,
  username: string,
  overrides: Partial<NewUser> = {},
): Promise<Account> {
  const user = await stores.users.create(newUser(username, overrides));
  const namespace = await stores.namespaces.createForUser(user.id, user.username, user.name);
  return { user, namespace };
}

/** Creates a group; name defaults to the path. */
export function createGroup(stores: Stores, path: string, fields: Partial<GroupFields> = {}): Promise<Group> {
  return stores.namespaces.createGroup({
    name: path,
    path,
    description: "",
    visibility_level: Visibility.PRIVATE,
    ...fields,
  });
}

/** A new project's fields; the name defaults to the path, the runners token is unique. */
export function newProject(
  namespaceId: number,
  path: string,
  overrides: Partial<NewProject> = {},
): NewProject {
  const n = next();
  return {
    namespace_id: namespaceId,
    name: path,
    path,
    description: null,
    default_branch: null,
    visibility_level: Visibility.PRIVATE,
    archived: false,
    issues_enabled: true,
    merge_requests_enabled: true,
    builds_enabled: true,
    wiki_enabled: true,
    snippets_enabled: true,
    container_registry_enabled: true,
    shared_runners_enabled: true,
    lfs_enabled: true,
    request_access_enabled: true,
    public_builds: false,
    only_allow_merge_if_build_succeeds: false,
    creator_id: null,
    import_url_sealed: null,
    runners_token_digest: `runners-digest-${n}`,
    runners_token_sealed: `runners-sealed-${n}`,
    ...overrides,
  };
}

/** Creates a project through the store. */
export function createProject(
  stores: Stores,
  namespaceId: number,
  path: string,
  overrides: Partial<NewProject> = {},
): Promise<Project> {
  return stores.projects.create(newProject(namespaceId, path, overrides));
}

/** The ids of a list's items, in order. */
export const ids = (items: readonly { id: number }[]): number[] => items.map((item) => item.id);
