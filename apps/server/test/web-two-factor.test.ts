/**
 * Two-factor authentication through the pages, over real HTTP: enrolment (the secret, a wrong code,
 * the recovery codes shown once), the second step of sign-in with a code and with a recovery code
 * (spent once), new codes and disable with the password, the password grant's refusal, enrolment
 * forced once the requirement's grace period is over, and the throttle's message on the sign-in page.
 */
import { createUser } from "@kiln/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import { onEachDatabase } from "./support.js";
import { totpAt } from "./totp.js";
import { Browser } from "./web-support.js";

const TWO_FACTOR = "/profile/two_factor_auth";

/** The recovery codes the last page lists. */
const recoveryCodes = (b: Browser): string[] => {
  const list = /id="recovery_codes"[^>]*>([\s\S]*?)<\/ul>/.exec(b.html)?.[1] ?? "";
  return [...list.matchAll(/<code>(\w+)<\/code>/g)].map((found) => found[1] as string);
};

/** A code that is not the one of `secret` now (nor a step either side). */
function wrongCode(secret: string): string {
  const right = [-30_000, 0, 30_000].map((offset) => totpAt(secret, Date.now() + offset));
  let code = 0;
  while (right.includes(String(code).padStart(6, "0"))) code++;
  return String(code).padStart(6, "0");
}

onEachDatabase("two-factor authentication through the pages", (ctx) => {
  beforeAll(async () => {
    await createUser(ctx().server, ctx().root, "tfa");
    await createUser(ctx().server, ctx().root, "forced");
  });
  const browser = () => new Browser(ctx().server.url);

  /** Signs out, then signs in as tfa with `code` as the second factor; answers the second step's answer. */
  async function signInWithCode(b: Browser, code: string): Promise<Response> {
    const first = await b.signIn("tfa", "password123");
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/users/two_factor");
    expect(b.cookies.has("_kiln_session")).toBe(false);
    await b.follow(first);
    return b.post("/users/two_factor", { code });
  }

  async function signOut(b: Browser): Promise<void> {
    await b.get("/profile");
    expect((await b.post("/users/sign_out", {})).status).toBe(303);
  }

  describe("a user who enrols", () => {
    let secret = "";
    let codes: string[] = [];

    it("sets up 2FA with the QR code and the secret, refused a wrong code, and sees the recovery codes once", async () => {
      const b = browser();
      await b.follow(await b.signIn("tfa", "password123", TWO_FACTOR));
      expect(b.textOf("two_factor_status")).toBe("Two-factor authentication is not enabled.");
      expect((await b.post(`${TWO_FACTOR}/begin`, {})).status).toBe(200);
      secret = b.textOf("two_factor_secret") ?? "";
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(b.html).toMatch(/<img id="two_factor_qr" src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+"/);

      const refused = await b.post(
        `${TWO_FACTOR}/confirm`,
        {
          ...b.formFields("confirm_two_factor_form"),
          code: wrongCode(secret),
        },
        false,
      );
      expect(refused.status).toBe(400);
      expect(b.html).toContain("is invalid");
      expect(b.textOf("two_factor_secret")).toBe(secret);

      const confirmed = await b.post(
        `${TWO_FACTOR}/confirm`,
        {
          ...b.formFields("confirm_two_factor_form"),
          code: totpAt(secret, Date.now()),
        },
        false,
      );
      expect(confirmed.status).toBe(200);
      codes = recoveryCodes(b);
      expect(codes).toHaveLength(10);
      expect(b.html).toContain('id="recovery_codes_hint"');

      await b.get(TWO_FACTOR);
      expect(b.textOf("two_factor_status")).toBe("Two-factor authentication is enabled.");
      expect(b.textOf("recovery_codes_left")).toBe("10 of your recovery codes are left.");
      expect(b.html).not.toContain(codes[0]);
    });

    it("signs in with a code from the app after the password, and refuses a wrong one", async () => {
      const b = browser();
      const wrong = await signInWithCode(b, wrongCode(secret));
      expect(wrong.status).toBe(401);
      expect(b.html).toContain("Invalid two-factor code.");
      expect(b.cookies.has("_kiln_session")).toBe(false);
      // The step confirmed at enrolment is spent: the next one, within the window, is accepted.
      const right = await b.post("/users/two_factor", { code: totpAt(secret, Date.now() + 30_000) });
      expect(right.status).toBe(303);
      expect(right.headers.get("location")).toBe("/profile");
      expect(b.cookies.has("_kiln_session")).toBe(true);
      expect((await b.get("/profile")).status).toBe(200);
    });

    it("signs in with a recovery code once; the same code is then refused", async () => {
      const b = browser();
      const first = await signInWithCode(b, codes[0] as string);
      expect(first.status).toBe(303);
      await signOut(b);
      const again = await signInWithCode(b, codes[0] as string);
      expect(again.status).toBe(401);
      expect((await b.post("/users/two_factor", { code: codes[1] as string })).status).toBe(303);
      await b.get(TWO_FACTOR);
      expect(b.textOf("recovery_codes_left")).toBe("8 of your recovery codes are left.");
    });

    it("refuses the OAuth password grant, pointing to personal access tokens", async () => {
      const answer = await fetch(`${ctx().server.url}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "password", username: "tfa", password: "password123" }),
      });
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { error: string; error_description: string };
      expect(body.error).toBe("invalid_grant");
      expect(body.error_description).toContain("personal access token");
    });

    it("makes new recovery codes and turns 2FA off with the password only", async () => {
      const b = browser();
      await signInWithCode(b, codes[2] as string);
      await b.get(TWO_FACTOR);
      const wrong = await b.post(`${TWO_FACTOR}/codes`, { password: "wrong-password" });
      expect(wrong.status).toBe(400);
      expect(b.textOf("regenerate_password_errors")).toBe("is invalid");
      await b.post(`${TWO_FACTOR}/codes`, { password: "password123" });
      const fresh = recoveryCodes(b);
      expect(fresh).toHaveLength(10);
      expect(fresh).not.toContain(codes[3]);

      await b.get(TWO_FACTOR);
      expect((await b.post(`${TWO_FACTOR}/disable`, { password: "wrong-password" })).status).toBe(400);
      expect(b.textOf("disable_password_errors")).toBe("is invalid");
      const disabled = await b.post(`${TWO_FACTOR}/disable`, { password: "password123" });
      expect(disabled.headers.get("location")).toBe(TWO_FACTOR);
      await b.follow(disabled);
      expect(b.textOf("two_factor_status")).toBe("Two-factor authentication is not enabled.");
      await signOut(b);
      expect((await b.signIn("tfa", "password123")).headers.get("location")).toBe("/profile");
    });
  });

  it("sends a user past the grace period to enrolment until they enrol, sign-out still open", async () => {
    const require = (value: boolean) =>
      ctx().api({
        method: "PUT",
        path: "/application/settings",
        token: ctx().root.token,
        json: { require_two_factor_authentication: value, two_factor_grace_period: 0 },
      });
    expect((await require(true)).status).toBe(200);
    try {
      const b = browser();
      const signedIn = await b.signIn("forced", "password123", "/profile/keys");
      expect(signedIn.headers.get("location")).toBe(TWO_FACTOR);
      for (const path of ["/profile", "/profile/keys", "/profile/applications"]) {
        const sent = await b.get(path);
        expect(sent.status).toBe(303);
        expect(sent.headers.get("location")).toBe(TWO_FACTOR);
      }
      await b.follow(await b.get("/profile"));
      expect(b.html).toContain('id="two_factor_required"');
      expect(b.textOf("flash")).toContain("requires two-factor authentication");
      await b.post(`${TWO_FACTOR}/begin`, {});
      const secret = b.textOf("two_factor_secret") ?? "";
      await b.post(
        `${TWO_FACTOR}/confirm`,
        {
          ...b.formFields("confirm_two_factor_form"),
          code: totpAt(secret, Date.now()),
        },
        false,
      );
      expect(recoveryCodes(b)).toHaveLength(10);
      expect((await b.get("/profile")).status).toBe(200);

      const other = browser();
      await createUser(ctx().server, ctx().root, "forced2");
      await other.follow(await other.signIn("forced2", "password123"));
      const signedOut = await other.post("/users/sign_out", {});
      expect(signedOut.headers.get("location")).toBe("/users/sign_in");
      expect(other.cookies.has("_kiln_session")).toBe(false);
    } finally {
      await require(false);
    }
  });
});

onEachDatabase(
  "the sign-in page under the throttle",
  (ctx) => {
    it("tells the visitor how long to wait once an address made too many attempts", async () => {
      const b = new Browser(ctx().server.url);
      // Every attempt from the address counts (the suite's own sign-in too): 10 a minute.
      let attempts = 0;
      do {
        attempts++;
        expect((await b.signIn("root", "wrong-password")).status).toBe(401);
      } while (b.textOf("form_errors") === "Invalid login or password." && attempts <= 11);
      expect(attempts).toBeGreaterThan(8);
      expect(b.textOf("form_errors")).toMatch(
        /^Too many sign-in attempts from your address\. Try again in (\d+ seconds|1 minute)\.$/,
      );
      expect((await b.signIn("root", ctx().server.rootPassword)).status).toBe(401);
      expect(b.cookies.has("_kiln_session")).toBe(false);
    });
  },
  { env: { KILN_SIGN_IN_THROTTLE: "on" } },
);
