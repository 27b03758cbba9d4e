import { describe, expect, it } from "vitest";
import { CreateUserInput, UpdateUserInput, UserBasic, UserPublic } from "./users.js";

const valid = { username: "alice", email: "alice@example.com", name: "Alice", password: "password123" };

function problems(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]),
  );
}

describe("CreateUserInput", () => {
  it("accepts a minimal account and leaves optional fields out", () => {
    expect(CreateUserInput.parse(valid)).toEqual(valid);
  });

  it("words its refusals as GitLab does, per field", () => {
    const result = CreateUserInput.safeParse({
      username: "api",
      email: "not-an-email",
      name: "",
      password: "short",
      projects_limit: -1,
      bio: "x".repeat(256),
    });
    expect(problems(result)).toEqual({
      username: "is reserved",
      email: "is invalid",
      name: "can't be blank",
      password: "is too short (minimum is 8 characters)",
      projects_limit: "must be greater than or equal to 0",
      bio: "is too long (maximum is 255 characters)",
    });
  });

  it("drops keys it does not know", () => {
    expect(CreateUserInput.parse({ ...valid, is_admin: true })).not.toHaveProperty("is_admin");
  });
});

describe("UpdateUserInput", () => {
  it("needs the id and allows any subset of the profile", () => {
    expect(UpdateUserInput.parse({ id: 3, bio: "hi" })).toEqual({ id: 3, bio: "hi" });
    expect(UpdateUserInput.safeParse({ bio: "hi" }).success).toBe(false);
  });
});

describe("user entities", () => {
  const basic = {
    name: "Alice",
    username: "alice",
    id: 2,
    state: "active",
    avatar_url: null,
    web_url: "http://localhost/alice",
  };

  it("UserBasic is exactly the short form", () => {
    expect(UserBasic.strict().parse(basic)).toEqual(basic);
    expect(UserBasic.strict().safeParse({ ...basic, email: "a@b.c" }).success).toBe(false);
  });

  it("timestamps must be UTC with milliseconds", () => {
    const publicUser = {
      ...basic,
      created_at: "2026-01-02T03:04:05.678Z",
      is_admin: false,
      bio: null,
      location: null,
      skype: "",
      linkedin: "",
      twitter: "",
      website_url: "",
      organization: null,
      last_sign_in_at: null,
      confirmed_at: "2026-01-02T03:04:05.678Z",
      email: "alice@example.com",
      theme_id: 1,
      color_scheme_id: 1,
      projects_limit: 10,
      current_sign_in_at: null,
      identities: [],
      can_create_group: true,
      can_create_project: true,
      two_factor_enabled: false,
      external: false,
    };
    expect(UserPublic.safeParse(publicUser).success).toBe(true);
    expect(UserPublic.safeParse({ ...publicUser, created_at: "2026-01-02T03:04:05+02:00" }).success).toBe(
      false,
    );
    expect(UserPublic.safeParse({ ...publicUser, created_at: "2026-01-02T03:04:05Z" }).success).toBe(false);
  });
});
