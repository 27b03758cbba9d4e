/** Why a body was refused. */
export class BodyError extends Error {
  constructor(
    readonly reason: "too_large" | "malformed",
    message: string,
  ) {
    super(message);
  }
}

/** `413 Request Entity Too Large`: the body, a field or a file passed its limit. */
export const bodyTooLarge = (): BodyError => new BodyError("too_large", "413 Request Entity Too Large");

/**
 * `400`: a body that stopped before its end: the client closed the connection before sending all
 * it declared, or its chunked framing broke. The client is gone or at fault, not the server.
 */
export const incompleteBody = (): BodyError =>
  new BodyError("malformed", "400 (Bad request) incomplete body");

/** `400`: a multipart body that cannot be parsed (or that stopped before its end). */
export const malformedMultipart = (): BodyError =>
  new BodyError("malformed", "400 (Bad request) malformed multipart body");
