import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { authorizationUrl, createPkcePair, readAuthorizationResponse } from "./oauth.js";

describe("signing in by browser", () => {
  it("makes a fresh PKCE pair whose challenge is the verifier's SHA-256 (S256)", async () => {
    const one = await createPkcePair();
    const other = await createPkcePair();
    expect(one.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(one.challenge).toBe(createHash("sha256").update(one.verifier).digest("base64url"));
    expect(other.verifier).not.toBe(one.verifier);
  });

  it("asks the consent page for a code, with the challenge and the state", () => {
    const url = new URL(
      authorizationUrl({
        url: "https://kiln.example.com/",
        clientId: "kiln-vscode",
        redirectUri: "vscode://kiln.kiln/auth",
        state: "s&1",
        challenge: "c",
      }),
    );
    expect(url.origin + url.pathname).toBe("https://kiln.example.com/oauth/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "kiln-vscode",
      redirect_uri: "vscode://kiln.kiln/auth",
      response_type: "code",
      scope: "api",
      state: "s&1",
      code_challenge: "c",
      code_challenge_method: "S256",
    });
  });

  it("takes a code only with the state it sent, and reads a refusal", () => {
    expect(readAuthorizationResponse("code=abc&state=s1", "s1")).toEqual({ code: "abc" });
    expect(readAuthorizationResponse("code=abc&state=other", "s1")).toMatchObject({
      error: "state_mismatch",
    });
    expect(readAuthorizationResponse("code=abc", "s1")).toMatchObject({ error: "state_mismatch" });
    expect(readAuthorizationResponse("state=s1", "s1")).toMatchObject({ error: "invalid_request" });
    expect(
      readAuthorizationResponse("error=access_denied&error_description=No%20thanks&state=s1", "s1"),
    ).toEqual({ error: "access_denied", description: "No thanks" });
  });
});
