import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clearCookie, readCookie, setCookie } from "./cookies.js";
import { csrfTokenMatches, newCsrfToken } from "./csrf.js";
import { localPath } from "./local-path.js";

const withCookies = (cookie: string) => ({ headers: { cookie } }) as unknown as IncomingMessage;

describe("cookies", () => {
  it("are HttpOnly, SameSite=Lax on Path=/, and Secure only when asked", () => {
    expect(setCookie("_kiln_session", "abc", { secure: false, maxAgeSeconds: 60 })).toBe(
      "_kiln_session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=60",
    );
    expect(setCookie("_kiln_session", "abc", { secure: true })).toBe(
      "_kiln_session=abc; Path=/; HttpOnly; SameSite=Lax; Secure",
    );
    expect(clearCookie("x", { secure: false })).toContain("Max-Age=0");
  });

  it("are read by name, decoded, and ignored when undecodable", () => {
    const req = withCookies("a=1; _kiln_flash=%7B%22k%22%7D; b=%E0%A4%A");
    expect(readCookie(req, "_kiln_flash")).toBe('{"k"}');
    expect(readCookie(req, "a")).toBe("1");
    expect(readCookie(req, "b")).toBeUndefined();
    expect(readCookie(req, "missing")).toBeUndefined();
  });
});

describe("CSRF tokens", () => {
  it("match only the expected token, never an empty expectation", () => {
    const token = newCsrfToken();
    expect(csrfTokenMatches(token, token)).toBe(true);
    expect(csrfTokenMatches(token, `${token}x`)).toBe(false);
    expect(csrfTokenMatches(token, "")).toBe(false);
    expect(csrfTokenMatches("", "")).toBe(false);
    expect(csrfTokenMatches(undefined, token)).toBe(false);
  });
});

describe("redirect_to", () => {
  it("keeps a path of this server with its query", () => {
    expect(localPath("/profile/keys?x=1", "/profile")).toBe("/profile/keys?x=1");
  });

  it("refuses anything that could lead to another host", () => {
    for (const value of [
      "https://evil.example/",
      "//evil.example/",
      "/\\evil.example",
      "\\\\evil.example",
      "/\tevil",
      "javascript:alert(1)",
      "profile",
      "",
      undefined,
      ["/profile"],
    ]) {
      expect(localPath(value, "/profile")).toBe("/profile");
    }
  });
});
