import {
  DomainError,
  type ErrorKind,
  type Failure,
  invalid,
  missingParam,
  notFound,
  notModified,
} from "@kiln/domain";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorReply } from "./errors.js";
import { BodyError } from "./request/body.js";
import { v3Message } from "./wording/index.js";

describe("errorReply", () => {
  // A Record, so a new ErrorKind fails the typecheck until its status is decided here.
  const statuses: Record<
    Exclude<ErrorKind, "validation" | "not_modified" | "rate_limited">,
    [Failure, number]
  > = {
    unauthenticated: [{ kind: "unauthenticated" }, 401],
    forbidden: [{ kind: "forbidden" }, 403],
    not_found: [{ kind: "not_found", subject: "issue" }, 404],
    conflict: [{ kind: "conflict", reason: "label_exists" }, 409],
    missing_param: [{ kind: "missing_param", attribute: "title" }, 400],
    bad_request: [{ kind: "bad_request", reason: "branch_exists" }, 400],
    not_allowed: [{ kind: "not_allowed", reason: "mr_cannot_merge" }, 405],
    not_acceptable: [{ kind: "not_acceptable", reason: "mr_not_open" }, 406],
    unprocessable: [{ kind: "unprocessable", reason: "mr_same_branch" }, 422],
    too_large: [{ kind: "too_large" }, 413],
  };

  it.each(Object.entries(statuses))(
    "answers a %s DomainError with its status and its v3 message",
    (_kind, [failure, status]) => {
      expect(errorReply(new DomainError(failure))).toEqual({ status, body: { message: v3Message(failure) } });
    },
  );

  it("answers rate_limited with 429, Retry-After and a v3 message telling the address limit from the lock", () => {
    const throttled = new DomainError({
      kind: "rate_limited",
      reason: "sign_in_address_throttled",
      retryAfterSeconds: 42,
    });
    expect(errorReply(throttled)).toEqual({
      status: 429,
      body: {
        message: "429 Too Many Requests: too many sign-in attempts from your address, retry in 42 seconds",
      },
      headers: { "Retry-After": "42" },
    });
    const locked = new DomainError({
      kind: "rate_limited",
      reason: "sign_in_account_locked",
      retryAfterSeconds: 600,
    });
    expect(errorReply(locked)).toMatchObject({
      status: 429,
      body: {
        message:
          "429 Too Many Requests: this account is locked after too many failed sign-ins, retry in 10 minutes",
      },
      headers: { "Retry-After": "600" },
    });
  });

  it("answers a password sign-in refused for two-factor authentication with GitLab's 401", () => {
    expect(errorReply(new DomainError({ kind: "forbidden", reason: "two_factor_enabled" }))).toEqual({
      status: 401,
      body: {
        message:
          "401 Unauthorized. You have 2FA enabled. Please use a personal access token to access the API",
      },
    });
  });

  it("answers a validation error with 400 and the field map as message", () => {
    const error = invalid({ email: ["is invalid"], password: ["is too short (minimum is 8 characters)"] });
    expect(errorReply(error)).toEqual({
      status: 400,
      body: { message: { email: ["is invalid"], password: ["is too short (minimum is 8 characters)"] } },
    });
  });

  it("answers not_modified with 304 and no body", () => {
    expect(errorReply(notModified())).toEqual({
      status: 304,
      body: undefined,
    });
  });

  it("unwraps a TRPCError whose cause is a DomainError", () => {
    const wrapped = new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: notFound("user") });
    expect(errorReply(wrapped)).toEqual({ status: 404, body: { message: "404 User Not Found" } });

    const missing = new TRPCError({ code: "BAD_REQUEST", cause: missingParam("title") });
    expect(errorReply(missing)).toEqual({
      status: 400,
      body: { message: '400 (Bad request) "title" not given' },
    });
  });

  it("answers body errors with 413 or 400 and their message", () => {
    expect(errorReply(new BodyError("too_large", "413 Request Entity Too Large"))).toEqual({
      status: 413,
      body: { message: "413 Request Entity Too Large" },
    });
    expect(errorReply(new BodyError("malformed", "400 (Bad request) body is not valid JSON"))).toEqual({
      status: 400,
      body: { message: "400 (Bad request) body is not valid JSON" },
    });
  });

  it("answers a ZodError from a procedure with a generic 400 and reports it as internal", () => {
    const zodError = z.object({ id: z.number() }).safeParse({ id: "x" }).error;
    const wrapped = new TRPCError({ code: "BAD_REQUEST", cause: zodError });
    const reply = errorReply(wrapped);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: "400 (Bad request) invalid parameters" });
    expect(reply.internal).toBe(wrapped);
  });

  it("answers an unknown error with a bare 500 that leaks nothing, keeping the error as internal", () => {
    const bug = new Error("connection string postgres://user:hunter2@db");
    const reply = errorReply(bug);
    expect(reply.status).toBe(500);
    expect(JSON.stringify(reply.body)).toBe('{"message":"500 Internal Server Error"}');
    expect(JSON.stringify(reply.body)).not.toContain("hunter2");
    expect(reply.internal).toBe(bug);
  });

  it("answers a TRPCError without a DomainError cause as a bare 500", () => {
    const bug = new TypeError("cannot read properties of undefined (reading 'id')");
    const wrapped = new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "secret detail", cause: bug });
    const reply = errorReply(wrapped);
    expect(reply.status).toBe(500);
    expect(JSON.stringify(reply.body)).toBe('{"message":"500 Internal Server Error"}');
    expect(reply.internal).toBe(wrapped);
  });

  it("answers thrown non-errors as a bare 500", () => {
    for (const thrown of ["boom", 42, null, undefined, { message: "not an Error" }]) {
      const reply = errorReply(thrown);
      expect(reply).toMatchObject({ status: 500, body: { message: "500 Internal Server Error" } });
      expect(reply).toHaveProperty("internal", thrown);
    }
  });
});
