import { DomainError } from "@kiln/domain";
import { ZodError } from "zod";

/**
 * A failure as one line for the terminal: validation problems as `field: message`, domain errors
 * by their message, anything else by the first line of its message.
 */
export function describeFailure(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (DomainError.is(cause) || DomainError.is(error)) {
    const domain = (DomainError.is(cause) ? cause : error) as DomainError;
    if (domain.fields) {
      return Object.entries(domain.fields)
        .map(([field, messages]) => `${field} ${messages.join(", ")}`)
        .join("; ");
    }
    return domain.message;
  }
  if (cause instanceof ZodError) {
    return cause.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; ");
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
