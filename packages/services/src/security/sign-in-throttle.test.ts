import { DomainError } from "@kiln/domain";
import { describe, expect, it } from "vitest";
import { NO_SIGN_IN_LIMITS, SignInThrottle } from "./sign-in-throttle.js";

/** The failure a throttle call threw, or null when it let the attempt through. */
function refusal(attempt: () => void) {
  try {
    attempt();
    return null;
  } catch (error) {
    if (!DomainError.is(error)) throw error;
    return { ...error.failure, retryAfterSeconds: error.retryAfterSeconds };
  }
}

describe("SignInThrottle", () => {
  function throttleAt(start = 1_000_000) {
    const clock = { now: start };
    return { clock, throttle: new SignInThrottle(undefined, () => clock.now) };
  }

  it("lets an address make 10 attempts a minute and refuses the 11th until the minute is over", () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < 10; i++) expect(refusal(() => throttle.countAttempt("10.0.0.1"))).toBeNull();
    clock.now += 15_000;
    expect(refusal(() => throttle.countAttempt("10.0.0.1"))).toEqual({
      kind: "rate_limited",
      reason: "sign_in_address_throttled",
      retryAfterSeconds: 45,
    });
    // Another address has its own count.
    expect(refusal(() => throttle.countAttempt("10.0.0.2"))).toBeNull();
    clock.now += 45_000;
    expect(refusal(() => throttle.countAttempt("10.0.0.1"))).toBeNull();
  });

  it("locks an account for 10 minutes after 10 failures, and a success before that forgets them", () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < 9; i++) throttle.recordFailure("user:1");
    expect(refusal(() => throttle.checkAccount("user:1"))).toBeNull();
    throttle.recordSuccess("user:1");
    for (let i = 0; i < 9; i++) throttle.recordFailure("user:1");
    expect(refusal(() => throttle.checkAccount("user:1"))).toBeNull();
    throttle.recordFailure("user:1");
    expect(refusal(() => throttle.checkAccount("user:1"))).toEqual({
      kind: "rate_limited",
      reason: "sign_in_account_locked",
      retryAfterSeconds: 600,
    });
    expect(refusal(() => throttle.checkAccount("user:2"))).toBeNull();
    clock.now += 599_000;
    expect(refusal(() => throttle.checkAccount("user:1"))).toMatchObject({ retryAfterSeconds: 1 });
    clock.now += 1_000;
    expect(refusal(() => throttle.checkAccount("user:1"))).toBeNull();
  });

  it("bans an address's git passwords for an hour after 10 failures within a minute", () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < 9; i++) throttle.recordGitFailure("10.0.0.1");
    expect(refusal(() => throttle.checkGitAddress("10.0.0.1"))).toBeNull();
    clock.now += 30_000;
    throttle.recordGitFailure("10.0.0.1");
    expect(refusal(() => throttle.checkGitAddress("10.0.0.1"))).toEqual({
      kind: "rate_limited",
      reason: "git_address_banned",
      retryAfterSeconds: 3600,
    });
    // Another address has its own count, and the sign-in limits are not touched.
    expect(refusal(() => throttle.checkGitAddress("10.0.0.2"))).toBeNull();
    expect(refusal(() => throttle.countAttempt("10.0.0.1"))).toBeNull();
    clock.now += 3_599_000;
    expect(refusal(() => throttle.checkGitAddress("10.0.0.1"))).toMatchObject({ retryAfterSeconds: 1 });
    clock.now += 1_000;
    expect(refusal(() => throttle.checkGitAddress("10.0.0.1"))).toBeNull();
    expect(throttle.tracked).toMatchObject({ gitFailures: 0, gitBans: 0 });
  });

  it("counts git failures in a window from the first: failures spread wider never ban", () => {
    const { clock, throttle } = throttleAt();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 9; i++) throttle.recordGitFailure("10.0.0.1");
      clock.now += 60_000;
    }
    expect(refusal(() => throttle.checkGitAddress("10.0.0.1"))).toBeNull();
  });

  it("never refuses anything when turned off (KILN_SIGN_IN_THROTTLE=off)", () => {
    const throttle = new SignInThrottle(NO_SIGN_IN_LIMITS);
    for (let i = 0; i < 100; i++) {
      throttle.countAttempt("10.0.0.1");
      throttle.recordFailure("user:1");
      throttle.recordGitFailure("10.0.0.1");
    }
    expect(refusal(() => throttle.countAttempt("10.0.0.1"))).toBeNull();
    expect(refusal(() => throttle.checkAccount("user:1"))).toBeNull();
    expect(refusal(() => throttle.checkGitAddress("10.0.0.1"))).toBeNull();
  });

  it("forgets expired entries and keeps no more than its bound", () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < 1000; i++) {
      throttle.countAttempt(`10.0.${i >> 8}.${i & 255}`);
      throttle.recordFailure(`login:user${i}`);
    }
    expect(throttle.tracked).toMatchObject({ addresses: 1000, accounts: 1000 });
    clock.now += 600_000;
    throttle.countAttempt("10.9.9.9");
    throttle.checkAccount("user:1");
    expect(throttle.tracked).toMatchObject({ addresses: 1, accounts: 0 });
    // Within a window, the oldest entries give way past 50 000 (addresses that change every time).
    for (let i = 0; i < 50_100; i++) throttle.countAttempt(`2001:db8::${i.toString(16)}`);
    expect(throttle.tracked.addresses).toBe(50_000);
  });
});
