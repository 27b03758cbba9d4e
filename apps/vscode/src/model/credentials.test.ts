import { OOB_REDIRECT_URI } from "@kiln/client";
import { describe, expect, it } from "vitest";
import { readCredential, redirectUriFor, storedCredential } from "./credentials.js";

describe("credentials", () => {
  const tokens = { accessToken: "a", refreshToken: "r", expiresAt: 1_700_000_000_000, scopes: ["api"] };

  it("keeps a personal access token as itself and an OAuth pair as JSON, and reads both back", () => {
    expect(storedCredential({ kind: "token", token: "glpat-1" })).toBe("glpat-1");
    expect(readCredential("glpat-1")).toEqual({ kind: "token", token: "glpat-1" });
    const stored = storedCredential({ kind: "oauth", tokens });
    expect(readCredential(stored)).toEqual({ kind: "oauth", tokens });
  });

  it("takes a secret that is not a whole pair as a token (the server says whether it is one)", () => {
    expect(readCredential('{"oauth":{"accessToken":"a"}}')).toMatchObject({ kind: "token" });
    expect(readCredential("{not json")).toEqual({ kind: "token", token: "{not json" });
  });
});

describe("the redirect URI of a sign-in by browser", () => {
  it("is the desktop editor's own URI", () => {
    expect(redirectUriFor("vscode://kiln.kiln/auth")).toBe("vscode://kiln.kiln/auth");
    expect(redirectUriFor("vscode-insiders://kiln.kiln/auth")).toBe("vscode-insiders://kiln.kiln/auth");
  });

  it("is a code-server's callback on this machine, with the query it needs", () => {
    const callback = "http://127.0.0.1:8080/callback?vscode-reqid=1&vscode-scheme=code-oss";
    expect(redirectUriFor(callback)).toBe(callback);
    const versioned = "http://127.0.0.1:8080/stable-409c/callback?vscode-reqid=2&vscode-scheme=code-oss";
    expect(redirectUriFor(versioned)).toBe(versioned);
    expect(redirectUriFor("http://[::1]:8080/callback?vscode-reqid=1")).toBe(
      "http://[::1]:8080/callback?vscode-reqid=1",
    );
  });

  it("is out of band for a code-server the instance cannot call back", () => {
    for (const external of [
      "https://code.example.com/callback?vscode-reqid=1",
      "http://localhost:8080/callback?vscode-reqid=1",
      "http://127.0.0.1:8080/callback-not?vscode-reqid=1",
      "not a uri",
    ]) {
      expect(redirectUriFor(external)).toBe(OOB_REDIRECT_URI);
    }
  });
});
