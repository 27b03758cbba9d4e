import type { User } from "@kiln/domain";
import type { ServiceRuntime } from "../runtime.js";

/**
 * The user whose username or email is `login`, or undefined. A login with a NUL character names
 * nobody (PostgreSQL could not even compare it).
 */
export async function findByLogin(runtime: ServiceRuntime, login: string): Promise<User | undefined> {
  const { users } = runtime.stores;
  if (login.includes("\0")) return undefined;
  return (await users.findByUsername(login)) ?? (await users.findByEmail(login));
}

/**
 * True when `user` exists, has a password and `password` is it. Unknown users still pay for one
 * hash, so timing does not tell which usernames exist.
 */
export async function passwordMatches(
  runtime: ServiceRuntime,
  user: User | undefined,
  password: string,
): Promise<boolean> {
  const hash = user ? await runtime.stores.users.passwordHash(user.id) : undefined;
  const matches = await runtime.passwords.verify(hash ?? (await dummyHash(runtime)), password);
  return Boolean(user && hash && matches);
}

let dummy: Promise<string> | undefined;
function dummyHash(runtime: ServiceRuntime): Promise<string> {
  dummy ??= runtime.passwords.hash("kiln-no-such-user");
  return dummy;
}
