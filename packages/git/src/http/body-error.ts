/** Why a request body could not be read. */
export class BodyError extends Error {
  override readonly name = "BodyError";

  constructor(
    readonly reason: "encoding" | "too_large" | "malformed",
    message: string,
  ) {
    super(message);
  }
}
