import { DomainError, type FieldErrors } from "@kiln/domain";
import { v3Message } from "@kiln/rest-adapter";

/** A failure as a form shows it: messages under fields, and messages about the whole form. */
export interface FormFailure {
  fields: FieldErrors;
  general: string[];
}

/** No failure. */
export const NO_FAILURE: FormFailure = { fields: {}, general: [] };

const TAKEN: Record<string, string> = { email_taken: "email", username_taken: "username" };

/**
 * The messages of a DomainError thrown by an operation, for the form that called it: validation
 * messages under their fields (a taken email under `email`), anything else worded as the API words
 * it. Anything but a DomainError is rethrown: it is a bug, for the front door to log.
 */
export function formFailure(error: unknown): FormFailure {
  if (!DomainError.is(error)) throw error;
  const failure = error.failure;
  if (failure.kind === "validation") return { fields: failure.fields, general: [] };
  if (failure.kind === "missing_param")
    return { fields: { [failure.attribute]: ["can't be blank"] }, general: [] };
  const field = "reason" in failure ? TAKEN[failure.reason] : undefined;
  if (field) return { fields: { [field]: ["has already been taken"] }, general: [] };
  const message = v3Message(failure);
  return {
    fields: typeof message === "string" ? {} : message,
    general: typeof message === "string" ? [message] : [],
  };
}
