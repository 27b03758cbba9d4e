import { DomainError } from "@kiln/domain";
import { v3Message } from "@kiln/rest-adapter";
import { ZodError } from "zod";

/**
 * A failure as one line for the terminal: validation problems as `field: message`, domain errors
 * by their v3 message, anything else by the first line of its message.
 */
export function describeFailure(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (DomainError.is(cause) || DomainError.is(error)) {
    const domain = (DomainError.is(cause) ? cause : error) as DomainError;
    const message = v3Message(domain.failure);
    if (typeof message === "string") return message;
    return Object.entries(message)
      .map(([field, messages]) => `${field} ${messages.join(", ")}`)
      .join("; ");
  }
  if (cause instanceof ZodError) {
    return cause.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; ");
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
