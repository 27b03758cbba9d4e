import { isActive, type User, unauthenticated } from "@kiln/domain";
import type { Context } from "../context.js";

/**
 * The active user whose username or email is `login` and whose password matches. Unknown users
 * still pay for one hash, so timing does not tell which usernames exist. Also used by git over
 * HTTP's Basic authentication. A login with a NUL character names nobody (PostgreSQL could not
 * even compare it).
 */
export async function verifyPassword(ctx: Context, login: string, password: string): Promise<User> {
  const { stores, passwords } = ctx.runtime;
  const user = login.includes("\0")
    ? undefined
    : ((await stores.users.findByUsername(login)) ?? (await stores.users.findByEmail(login)));
  const hash = user ? await stores.users.passwordHash(user.id) : undefined;
  const matches = await passwords.verify(hash ?? (await dummyHash(ctx)), password);
  if (!user || !hash || !matches || !isActive(user)) throw unauthenticated();
  return user;
}

let dummy: Promise<string> | undefined;
function dummyHash(ctx: Context): Promise<string> {
  dummy ??= ctx.runtime.passwords.hash("kiln-no-such-user");
  return dummy;
}
