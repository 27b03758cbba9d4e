import { describe, expect, it } from "vitest";
import { HOOK_URL_MESSAGES, hookUrlProblem } from "./hooks.js";
import { isLocalIpLiteral, parseIpv6 } from "./local-address.js";

describe("hookUrlProblem", () => {
  it.each([
    "http://example.com/hook",
    "https://hooks.example.com:8443/path?x=1#frag",
    "HTTPS://EXAMPLE.COM",
    "http://user:secret@example.com/",
    "http://8.8.8.8/",
    "http://[2001:db8::1]/",
    "http://[::ffff:8.8.8.8]/",
    "http://172.32.0.1/",
    "http://localhost.example.com/",
    "http://xn--bcher-kva.example/",
  ])("accepts %s", (url) => {
    expect(hookUrlProblem(url, false)).toBeNull();
  });

  it.each([
    ["", HOOK_URL_MESSAGES.blank],
    ["   ", HOOK_URL_MESSAGES.blank],
    ["ftp://example.com/", HOOK_URL_MESSAGES.invalid],
    ["javascript:alert(1)", HOOK_URL_MESSAGES.invalid],
    ["example.com/hook", HOOK_URL_MESSAGES.invalid],
    ["http://", HOOK_URL_MESSAGES.invalid],
    ["http:///path", HOOK_URL_MESSAGES.invalid],
    ["http:\\\\example.com", HOOK_URL_MESSAGES.invalid],
    ["http://exa mple.com/", HOOK_URL_MESSAGES.invalid],
    ["http://example.com/a b", HOOK_URL_MESSAGES.invalid],
    ["http://exam\tple.com/", HOOK_URL_MESSAGES.invalid],
    ["http://example.com/\nX-Injected: 1", HOOK_URL_MESSAGES.invalid],
    [" http://example.com/", HOOK_URL_MESSAGES.invalid],
    ["http://[::1/", HOOK_URL_MESSAGES.invalid],
  ])("refuses %j as %j", (url, message) => {
    expect(hookUrlProblem(url, false)).toBe(message);
    expect(hookUrlProblem(url, true)).toBe(message);
  });

  it.each([
    "http://localhost/",
    "http://LOCALHOST:3000/",
    "http://localhost./",
    "http://api.localhost/",
    "http://ＬＯＣＡＬＨＯＳＴ/",
  ])("refuses the name %s unless local requests are allowed", (url) => {
    expect(hookUrlProblem(url, false)).toBe(HOOK_URL_MESSAGES.localhost);
    expect(hookUrlProblem(url, true)).toBeNull();
  });

  it.each([
    "http://127.0.0.1/",
    "http://127.8.9.10:8080/",
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://0.0.0.0/",
    "http://0/",
    "http://100.64.0.1/",
    "http://255.255.255.255/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://017700000001/",
    "http://127.1/",
    "http://127.0.0.1./",
    "http://127%2E0%2E0%2E1/",
    "http://１２７.０.０.１/",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]:80/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::192.168.0.1]/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
    "http://[febf::1]/",
    "http://[fec0::1]/",
  ])("refuses the local address in %s unless local requests are allowed", (url) => {
    expect(hookUrlProblem(url, false)).toBe(HOOK_URL_MESSAGES.localNetwork);
    expect(hookUrlProblem(url, true)).toBeNull();
  });
});

describe("isLocalIpLiteral", () => {
  it("checks bare and bracketed IPv6, dotted tails included, and plain IPv4", () => {
    expect(isLocalIpLiteral("::1")).toBe(true);
    expect(isLocalIpLiteral("[::1]")).toBe(true);
    expect(isLocalIpLiteral("::ffff:127.0.0.1")).toBe(true);
    expect(isLocalIpLiteral("::ffff:8.8.8.8")).toBe(false);
    expect(isLocalIpLiteral("2001:db8::1")).toBe(false);
    expect(isLocalIpLiteral("172.15.255.255")).toBe(false);
    expect(isLocalIpLiteral("169.253.0.1")).toBe(false);
    expect(isLocalIpLiteral("example.com")).toBe(false);
  });

  it("counts multicast as local, IPv4 and IPv6, mapped too", () => {
    expect(isLocalIpLiteral("224.0.0.1")).toBe(true);
    expect(isLocalIpLiteral("239.255.255.250")).toBe(true);
    expect(isLocalIpLiteral("::ffff:224.0.0.251")).toBe(true);
    expect(isLocalIpLiteral("ff02::1")).toBe(true);
    expect(isLocalIpLiteral("223.255.255.255")).toBe(false);
    expect(isLocalIpLiteral("240.0.0.1")).toBe(false);
  });

  it("parses IPv6 only in its valid forms", () => {
    expect(parseIpv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6("fe80::")).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6("1:2:3:4:5:6:7")).toBeNull();
    expect(parseIpv6("1::2::3")).toBeNull();
    expect(parseIpv6("1:2:3:4::5:6:7:8")).toBeNull();
    expect(parseIpv6("12345::")).toBeNull();
  });
});
