import { forbidden, isActive, missingParam, type User, unauthenticated } from "@kiln/domain";
import { SignInInput } from "@kiln/schemas";
import type { Context } from "../context.js";
import { mutation } from "../operation.js";
import { privateTokenOf } from "./users.js";

/** Password sign-in, answering with the session user and their private token. */
export const session = {
  signIn: mutation("anyone", SignInInput, async (ctx, input) => {
    const login = input.login ?? input.email;
    if (login === undefined) throw missingParam("login");
    const settings = await ctx.runtime.settings();
    if (!settings.signin_enabled) throw forbidden({ reason: "password_sign_in_disabled" });
    const user = await verifyPassword(ctx, login, input.password);
    await ctx.runtime.stores.users.recordSignIn(user.id);
    ctx.runtime.userChanged(user.id);
    const signedIn = (await ctx.runtime.stores.users.findById(user.id)) ?? user;
    return { user: signedIn, privateToken: await privateTokenOf(ctx, user.id) };
  }),
};

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
