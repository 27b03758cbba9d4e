import { z } from "zod";
import { Id } from "./primitives.js";

/** `twoFactor.confirm`: a code from the authenticator app, to put a pending enrolment in force. */
export const ConfirmTwoFactorInput = z.object({ code: z.string().max(64) });
export type ConfirmTwoFactorInput = z.infer<typeof ConfirmTwoFactorInput>;

/** `twoFactor.disable` and `twoFactor.regenerateRecoveryCodes`: the user's password, asked again. */
export const CurrentPasswordInput = z.object({ password: z.string() });
export type CurrentPasswordInput = z.infer<typeof CurrentPasswordInput>;

/**
 * `twoFactor.disableForUser`: the user whose two-factor authentication an administrator turns
 * off, by id or (the `kiln` CLI) by username.
 */
export const TwoFactorUserInput = z.union([
  z.object({ user_id: Id }),
  z.object({ username: z.string().min(1) }),
]);
export type TwoFactorUserInput = z.infer<typeof TwoFactorUserInput>;
