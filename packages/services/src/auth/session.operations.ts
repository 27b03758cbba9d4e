import { forbidden, missingParam } from "@kiln/domain";
import { SignInInput } from "@kiln/schemas";
import { mutation } from "../operation.js";
import { privateTokenOf } from "../users/private-token.js";
import { verifyPassword } from "./password.js";

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
