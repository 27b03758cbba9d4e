/**
 * @module @kiln/testkit
 * End-to-end test helpers: start a real `kiln serve` on a temp data dir, call its API, and make
 * users with tokens. Never shipped in any package's runtime.
 */
import { type ApiRequest, type ApiResponse, call } from "./http.js";
import type { KilnProcess } from "./server.js";

export { git, repositoryPath, type SeedCommit, seedRepository } from "./git.js";
export { type ApiRequest, type ApiResponse, apiUrl, call } from "./http.js";
export { type KilnProcess, postgresUnavailable, type StartOptions, startKiln } from "./server.js";

/** A signed-in user of a test server. */
export interface TestUser {
  id: number;
  username: string;
  token: string;
}

/** Signs in with a password and returns the user with their private token. */
export async function signIn(server: KilnProcess, login: string, password: string): Promise<TestUser> {
  const res = await call<{ id: number; username: string; private_token: string }>(server.url, {
    method: "POST",
    path: "/session",
    json: { login, password },
  });
  if (res.status !== 201) throw new Error(`sign-in of ${login} failed: ${res.status} ${res.text}`);
  return { id: res.body.id, username: res.body.username, token: res.body.private_token };
}

/** Signs in as root. */
export function signInAsRoot(server: KilnProcess): Promise<TestUser> {
  return signIn(server, "root", server.rootPassword);
}

/** Creates a user through the API (as `admin`) and signs them in. The password is `password123`. */
export async function createUser(
  server: KilnProcess,
  admin: TestUser,
  username: string,
  extra: Record<string, unknown> = {},
): Promise<TestUser> {
  const res = await call(server.url, {
    method: "POST",
    path: "/users",
    token: admin.token,
    json: { username, email: `${username}@example.com`, name: username, password: "password123", ...extra },
  });
  if (res.status !== 201) throw new Error(`creating ${username} failed: ${res.status} ${res.text}`);
  return signIn(server, username, "password123");
}

/** A request function bound to one server. */
export function clientFor(
  server: KilnProcess,
): <T = unknown>(request: ApiRequest) => Promise<ApiResponse<T>> {
  return (request) => call(server.url, request);
}
