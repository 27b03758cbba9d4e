import { DomainError } from "@kiln/domain";
import { CreateUserInput, ListUsersInput } from "@kiln/schemas";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { v3Message } from "../wording/index.js";
import { decodeParams } from "./decode.js";

/** The DomainError thrown by `fn`; fails the test when it throws nothing or something else. */
function domainError(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (DomainError.is(error)) return error;
    throw error;
  }
  throw new Error("expected a DomainError, nothing was thrown");
}

describe("decodeParams coercion", () => {
  const Numbers = z.object({ id: z.number().int(), ratio: z.number().optional() });
  const Flags = z.object({ flag: z.boolean() });

  it("converts numeric strings to numbers", () => {
    expect(decodeParams(Numbers, { id: "42", ratio: "-1.5" })).toEqual({ id: 42, ratio: -1.5 });
  });

  it("leaves non-numeric strings for the schema to refuse", () => {
    const error = domainError(() => decodeParams(Numbers, { id: "12abc" }));
    expect(error.kind).toBe("validation");
    expect(error.fields).toEqual({ id: ["is invalid"] });
  });

  it.each([
    ["true", true],
    ["1", true],
    ["t", true],
    ["yes", true],
    ["on", true],
    ["TRUE", true],
    ["false", false],
    ["0", false],
    ["f", false],
    ["no", false],
    ["off", false],
    ["False", false],
  ])("reads the boolean string %j as %j", (value, expected) => {
    expect(decodeParams(Flags, { flag: value })).toEqual({ flag: expected });
  });

  it("reads JSON 1 and 0 as booleans", () => {
    expect(decodeParams(Flags, { flag: 1 })).toEqual({ flag: true });
    expect(decodeParams(Flags, { flag: 0 })).toEqual({ flag: false });
  });

  it("refuses other strings for a boolean", () => {
    expect(domainError(() => decodeParams(Flags, { flag: "maybe" })).fields).toEqual({
      flag: ["is invalid"],
    });
  });

  it("wraps a lone value in an array and converts its elements", () => {
    const Ids = z.object({ ids: z.array(z.number()), labels: z.array(z.string()) });
    expect(decodeParams(Ids, { ids: "7", labels: "bug" })).toEqual({ ids: [7], labels: ["bug"] });
    expect(decodeParams(Ids, { ids: ["1", "2"], labels: ["a", "b"] })).toEqual({
      ids: [1, 2],
      labels: ["a", "b"],
    });
  });

  it("turns numbers into strings for string fields", () => {
    const Named = z.object({ name: z.string() });
    expect(decodeParams(Named, { name: 1234 })).toEqual({ name: "1234" });
  });

  it("converts inside optional, nullable and default wrappers and nested objects", () => {
    const Wrapped = z.object({
      a: z.number().optional(),
      b: z.number().nullable(),
      c: z.boolean().default(false),
      nested: z.object({ n: z.number(), on: z.boolean() }),
    });
    expect(decodeParams(Wrapped, { a: "1", b: "2", c: "true", nested: { n: "3", on: "yes" } })).toEqual({
      a: 1,
      b: 2,
      c: true,
      nested: { n: 3, on: true },
    });
  });

  it("drops unknown keys", () => {
    const Named = z.object({ name: z.string() });
    expect(decodeParams(Named, { name: "x", admin: "true", private_token: "secret" })).toEqual({ name: "x" });
  });
});

describe("decodeParams errors", () => {
  const Project = z.object({
    name: z.string(),
    path: z.string(),
    per_page: z.number().int().optional(),
    visibility: z.enum(["private", "internal", "public"]).optional(),
  });

  it("reports the first missing required attribute in schema order", () => {
    const error = domainError(() => decodeParams(Project, { per_page: "x" }));
    expect(error.kind).toBe("missing_param");
    expect(v3Message(error.failure)).toBe('400 (Bad request) "name" not given');

    expect(v3Message(domainError(() => decodeParams(Project, { name: "n" })).failure)).toBe(
      '400 (Bad request) "path" not given',
    );
  });

  it("reports invalid values per field with GitLab wording", () => {
    const error = domainError(() => decodeParams(Project, { name: "n", path: "p", per_page: "ten" }));
    expect(error.kind).toBe("validation");
    expect(error.fields).toEqual({ per_page: ["is invalid"] });
  });

  it("says an enum value does not have a valid value", () => {
    const error = domainError(() => decodeParams(Project, { name: "n", path: "p", visibility: "secret" }));
    expect(error.fields).toEqual({ visibility: ["does not have a valid value"] });
  });

  it("keeps custom messages from the schema", () => {
    const Password = z.object({
      password: z.string().min(8, { error: "is too short (minimum is 8 characters)" }),
    });
    const error = domainError(() => decodeParams(Password, { password: "short" }));
    expect(error.fields).toEqual({ password: ["is too short (minimum is 8 characters)"] });
  });

  it("collects several invalid fields at once", () => {
    const error = domainError(() =>
      decodeParams(Project, { name: "n", path: "p", per_page: "x", visibility: "nope" }),
    );
    expect(error.fields).toEqual({ per_page: ["is invalid"], visibility: ["does not have a valid value"] });
  });
});

describe("decodeParams with the v3 schemas", () => {
  const alice = { name: "Alice", username: "alice", email: "alice@example.com", password: "s3cretpass" };

  it("decodes a form-encoded POST /users", () => {
    expect(
      decodeParams(CreateUserInput, {
        ...alice,
        admin: "true",
        projects_limit: "10",
        external: "0",
        confirm: "yes",
        private_token: "ignored",
      }),
    ).toEqual({ ...alice, admin: true, projects_limit: 10, external: false, confirm: true });
  });

  it("reports the first missing attribute of POST /users in schema order", () => {
    const error = domainError(() => decodeParams(CreateUserInput, { password: "s3cretpass" }));
    expect(error.kind).toBe("missing_param");
    expect(v3Message(error.failure)).toBe('400 (Bad request) "name" not given');
    expect(v3Message(domainError(() => decodeParams(CreateUserInput, { name: "Alice" })).failure)).toBe(
      '400 (Bad request) "email" not given',
    );
  });

  it("reports domain rule and length problems with their own wording", () => {
    const error = domainError(() =>
      decodeParams(CreateUserInput, {
        ...alice,
        password: "short",
        username: "admin",
        email: "not-an-email",
        projects_limit: "-1",
      }),
    );
    expect(error.kind).toBe("validation");
    expect(error.fields).toEqual({
      password: ["is too short (minimum is 8 characters)"],
      username: ["is reserved"],
      email: ["is invalid"],
      projects_limit: ["must be greater than or equal to 0"],
    });
  });

  it("decodes GET /users filters and pagination from query strings", () => {
    expect(
      decodeParams(ListUsersInput, { page: "2", per_page: "50", active: "true", search: "ali" }),
    ).toEqual({
      page: 2,
      per_page: 50,
      active: true,
      search: "ali",
    });
  });

  it("refuses a non-numeric per_page on GET /users", () => {
    const error = domainError(() => decodeParams(ListUsersInput, { per_page: "lots" }));
    expect(error.kind).toBe("validation");
    expect(error.fields).toEqual({ per_page: ["is invalid"] });
  });
});

describe("decodeParams of values with a NUL character", () => {
  const Input = z.object({
    title: z.string(),
    labels: z.array(z.string()).optional(),
    nested: z.object({ key: z.string() }).optional(),
    id: z.number().int().optional(),
  });
  const nul = ["can't contain a null character"];

  it("refuses every parameter that holds one, at any depth, whatever its type", () => {
    const error = domainError(() =>
      decodeParams(Input, {
        title: "a\u0000b",
        labels: ["ok", "bad\u0000"],
        nested: { key: "\u0000" },
        id: "1\u0000",
      }),
    );
    expect(error.kind).toBe("validation");
    expect(error.fields).toEqual({ title: nul, labels: nul, nested: nul, id: nul });
  });

  it("refuses it before any other problem and ignores parameters the route does not take", () => {
    expect(domainError(() => decodeParams(CreateUserInput, { name: "\u0000" })).fields).toEqual({
      name: nul,
    });
    expect(decodeParams(Input, { title: "fine", private_token: "\u0000", sudo: "a\u0000" })).toEqual({
      title: "fine",
    });
  });
});
