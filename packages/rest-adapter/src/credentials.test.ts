import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import {
  API_CREDENTIALS,
  GIT_CREDENTIALS,
  readCredentials,
  TRPC_CREDENTIALS,
  UPLOAD_CREDENTIALS,
} from "./credentials.js";
import { formPairs, paramsFromPairs } from "./request/params.js";

function request(url: string, headers: Record<string, string> = {}): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.url = url;
  req.headers = headers;
  return req;
}

const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;
const token = (value: string, via: string) => ({ kind: "token", token: value, via });
const unreadable = { kind: "unreadable" };

describe("the API's credentials", () => {
  const read = (url: string, headers?: Record<string, string>, body: Record<string, unknown> = {}) => {
    const query = paramsFromPairs(formPairs(url.split("?", 2)[1] ?? ""));
    return readCredentials(request(url, headers), API_CREDENTIALS, { ...query, ...body });
  };

  it("reads the private_token parameter before the PRIVATE-TOKEN header, the last of a repeated one", () => {
    expect(read("/user?private_token=a", { "private-token": "b" })).toEqual(
      token("a", "private_token_param"),
    );
    expect(read("/user", { "private-token": "b" })).toEqual(token("b", "private_token_header"));
    expect(read("/user?private_token=a&private_token=c")).toEqual(token("c", "private_token_param"));
    expect(read("/user", {}, { private_token: "form" })).toEqual(token("form", "private_token_param"));
    // An empty parameter is still the one presented: the header behind it is not looked at.
    expect(read("/user?private_token=", { "private-token": "b" })).toEqual(token("", "private_token_param"));
  });

  it("finds a parameter that is not a string unreadable, whatever the header says", () => {
    expect(read("/user?private_token[]=a", { "private-token": "b" })).toEqual(unreadable);
    expect(read("/user", {}, { private_token: 12345 })).toEqual(unreadable);
    expect(read("/user", {}, { private_token: { token: "a" } })).toEqual(unreadable);
  });

  it("reads no Basic credentials, and an OAuth token from access_token or Bearer after the private token", () => {
    expect(read("/user", { authorization: basic("root:password123") })).toBeNull();
    expect(read("/user", { authorization: "Bearer abc" })).toEqual({ kind: "oauth_bearer", token: "abc" });
    expect(read("/user?access_token=abc")).toEqual({ kind: "oauth_bearer", token: "abc" });
    expect(read("/user?access_token[]=abc")).toEqual(unreadable);
    expect(read("/user?private_token=a&access_token=b")).toEqual(token("a", "private_token_param"));
  });
});

describe("tRPC's credentials", () => {
  const read = (url: string, headers?: Record<string, string>) =>
    readCredentials(request(url, headers), TRPC_CREDENTIALS);

  it("reads the PRIVATE-TOKEN header, else an Authorization: Bearer token", () => {
    expect(read("/api/trpc/users.me", { "private-token": "a" })).toEqual(token("a", "private_token_header"));
    expect(read("/api/trpc/users.me", { authorization: "Bearer abc.DEF-1_2~3+4/5==" })).toEqual({
      kind: "oauth_bearer",
      token: "abc.DEF-1_2~3+4/5==",
    });
    expect(read("/api/trpc/users.me", { authorization: "bearer  abc " })).toEqual({
      kind: "oauth_bearer",
      token: "abc",
    });
    expect(read("/api/trpc/users.me", { "private-token": "a", authorization: "Bearer b" })).toEqual(
      token("a", "private_token_header"),
    );
  });

  it("finds a Bearer header without a token unreadable, and ignores other schemes and parameters", () => {
    expect(read("/api/trpc/users.me", { authorization: "Bearer" })).toEqual(unreadable);
    expect(read("/api/trpc/users.me", { authorization: "Bearer a b" })).toEqual(unreadable);
    expect(read("/api/trpc/users.me", { authorization: basic("root:password123") })).toBeNull();
    // Tokens in URLs end up in logs and histories: tRPC takes none.
    expect(read("/api/trpc/users.me?private_token=a")).toBeNull();
    expect(read("/api/trpc/users.me?access_token=a")).toBeNull();
  });
});

describe("the credentials of an upload", () => {
  const read = (url: string, headers?: Record<string, string>) =>
    readCredentials(request(url, headers), UPLOAD_CREDENTIALS);

  it("reads the first private_token of the query string, else the header", () => {
    expect(read("/a/b/uploads/s/f.png?private_token=a&private_token=c")).toEqual(
      token("a", "private_token_param"),
    );
    expect(read("/a/b/uploads/s/f.png?private_token=a", { "private-token": "b" })).toEqual(
      token("a", "private_token_param"),
    );
    expect(read("/a/b/uploads/s/f.png", { "private-token": "b" })).toEqual(
      token("b", "private_token_header"),
    );
    expect(read("/a/b/uploads/s/f.png?private_token=a%00")).toEqual(token("a\0", "private_token_param"));
  });

  it("takes `private_token[]` for another name, and reads no Basic credentials", () => {
    expect(read("/a/b/uploads/s/f.png?private_token[]=a")).toBeNull();
    expect(read("/a/b/uploads/s/f.png", { authorization: basic("root:password123") })).toBeNull();
  });
});

describe("git's HTTP Basic credentials", () => {
  const read = (authorization?: string) =>
    readCredentials(
      request("/a/b.git/info/refs", authorization === undefined ? {} : { authorization }),
      GIT_CREDENTIALS,
    );

  it("splits at the first colon, keeping colons in the password", () => {
    expect(read(basic("alice:s3cr:et"))).toEqual({ kind: "basic", username: "alice", password: "s3cr:et" });
    expect(read(basic(":token"))).toEqual({ kind: "basic", username: "", password: "token" });
    expect(read(`basic  ${Buffer.from("a:b").toString("base64")}`)).toEqual({
      kind: "basic",
      username: "a",
      password: "b",
    });
  });

  it("takes the password of oauth2 for an OAuth access token", () => {
    expect(read(basic("oauth2:tok"))).toEqual({ kind: "oauth_bearer", token: "tok" });
  });

  it("has no credentials without the header or for another scheme, and unreadable ones otherwise", () => {
    expect(read(undefined)).toBeNull();
    expect(read("Bearer abc")).toBeNull();
    expect(read(basic("no colon"))).toEqual(unreadable);
    expect(read("Basic !!!")).toEqual(unreadable);
  });

  it("never reads a private token, in the header or the query string", () => {
    const req = request("/a/b.git/info/refs?private_token=t", { "private-token": "t" });
    expect(readCredentials(req, GIT_CREDENTIALS)).toBeNull();
  });
});
