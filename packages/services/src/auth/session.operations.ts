import { missingParam } from "@kiln/domain";
import { SignInInput } from "@kiln/schemas";
import { mutation } from "../operation.js";
import { privateTokenOf } from "../users/private-token.js";
import { signInWithPassword } from "./sign-in.js";

/** The address of callers whose transport names none (in-process callers). */
export const LOCAL_ADDRESS = "local";

/** Password sign-in, answering with the session user and their private token. */
export const session = {
  signIn: mutation("anyone", SignInInput, async (ctx, input) => {
    const login = input.login ?? input.email;
    if (login === undefined) throw missingParam("login");
    const { user } = await signInWithPassword(ctx.runtime, {
      login,
      password: input.password,
      address: ctx.address ?? LOCAL_ADDRESS,
      surface: "api",
    });
    return { user, privateToken: await privateTokenOf(ctx, user.id) };
  }),
};
