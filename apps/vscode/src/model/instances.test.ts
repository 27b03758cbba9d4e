import { describe, expect, it } from "vitest";
import { normaliseInstanceUrl, tlsOptionOf, tokenKey, withAccount, withoutAccount } from "./instances.js";

describe("normaliseInstanceUrl", () => {
  it("keys an instance by one form of its URL", () => {
    expect(normaliseInstanceUrl(" kiln.example.com/ ")).toEqual({ url: "https://kiln.example.com" });
    expect(normaliseInstanceUrl("HTTPS://Kiln.Example.com:8443/gitlab//")).toEqual({
      url: "https://kiln.example.com:8443/gitlab",
    });
    expect(normaliseInstanceUrl("http://127.0.0.1:3000")).toEqual({ url: "http://127.0.0.1:3000" });
  });

  it("says what is wrong with what is not an instance URL", () => {
    expect(normaliseInstanceUrl("")).toHaveProperty("error");
    expect(normaliseInstanceUrl("ftp://kiln.example.com")).toEqual({
      error: "The instance's URL must start with https:// (or http://)",
    });
    expect(normaliseInstanceUrl("https://kiln.example.com/?private_token=x")).toHaveProperty("error");
  });
});

describe("accounts", () => {
  it("holds several instances, one account each, without tokens", () => {
    const one = withAccount([], { url: "https://b.example.com", username: "ada" });
    const two = withAccount(one, { url: "https://a.example.com", username: "ada" });
    const again = withAccount(two, { url: "https://b.example.com", username: "grace" });
    expect(again).toEqual([
      { url: "https://a.example.com", username: "ada" },
      { url: "https://b.example.com", username: "grace" },
    ]);
    expect(withoutAccount(again, "https://a.example.com")).toEqual([
      { url: "https://b.example.com", username: "grace" },
    ]);
    expect(tokenKey("https://a.example.com")).toBe("kiln.token:https://a.example.com");
  });

  it("finds an instance's TLS option whatever form its settings key takes", () => {
    const settings = {
      "https://Kiln.corp/": { ca: "/etc/ca.pem" },
      "https://other.corp": { allowSelfSigned: true },
    };
    expect(tlsOptionOf(settings, "https://kiln.corp")).toEqual({ ca: "/etc/ca.pem" });
    expect(tlsOptionOf(settings, "https://nowhere.corp")).toEqual({});
    expect(tlsOptionOf(undefined, "https://kiln.corp")).toEqual({});
  });
});
