import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createUser } from "@kiln/testkit";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onEachDatabase } from "../support.js";
import { BROWSER_TEST_MS, browserUnavailable, launchBrowser, newVisitor } from "./support.js";

// What a user does in the account pages, in a real chromium: sign in with the keyboard, mint a
// token and use it outside the browser, and what a hostile page or name cannot do.
const unavailable = browserUnavailable();

/** A public key to add (the private half was thrown away). */
const SSH_KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl frank@laptop";

describe.skipIf(unavailable !== null)(
  `the account pages in chromium${unavailable ? `: ${unavailable}` : ""}`,
  { timeout: BROWSER_TEST_MS },
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(() => browser?.close());

    /** A new visitor's page, signed in through the form, moving and submitting with the keyboard. */
    async function signedIn(url: string, login: string, password = "password123"): Promise<Page> {
      const page = await (await newVisitor(browser, url)).newPage();
      await page.goto("/users/sign_in");
      // The login field takes the focus on arrival; Tab reaches the password, Enter submits.
      await page.waitForFunction(() => document.activeElement?.id === "login");
      await page.locator("#login").fill(login);
      await page.keyboard.press("Tab");
      await page.waitForFunction(() => document.activeElement?.id === "password");
      await page.keyboard.type(password);
      await page.keyboard.press("Enter");
      await page.waitForURL("**/profile");
      return page;
    }

    onEachDatabase("pages", (ctx) => {
      const nameOf = async (username: string) => {
        const found = await ctx().api<{ name: string }[]>({
          path: `/users?username=${username}`,
          token: ctx().root.token,
        });
        return found.body[0]?.name;
      };
      beforeAll(async () => {
        await createUser(ctx().server, ctx().root, "carol");
        await createUser(ctx().server, ctx().root, "mallory", {
          name: `<img src=x onerror="window.pwned=1"><script>window.pwned=1</script>`,
        });
      });

      it("signs in with the keyboard, shows who is signed in, and signs out", async () => {
        const page = await signedIn(ctx().server.url, "carol");
        await expect.poll(() => page.locator("#current_user").textContent()).toContain("@carol");
        await page.getByRole("button", { name: "Sign out" }).click();
        await page.waitForURL("**/users/sign_in");
        await page.goto("/profile");
        expect(new URL(page.url()).pathname).toBe("/users/sign_in");
        await page.context().close();
      });

      it("refuses a wrong password with a message a screen reader finds by its label", async () => {
        const page = await (await newVisitor(browser, ctx().server.url)).newPage();
        await page.goto("/users/sign_in");
        await page.getByLabel("Username or email").fill("carol");
        await page.getByLabel("Password").fill("not-the-password");
        await page.getByRole("button", { name: "Sign in" }).click();
        await expect.poll(() => page.content()).toContain("Invalid login or password.");
        expect(new URL(page.url()).pathname).toBe("/users/sign_in");
        await page.context().close();
      });

      it("creates a personal access token shown once, which works outside the browser", async () => {
        const page = await signedIn(ctx().server.url, "carol");
        await page.goto("/profile/personal_access_tokens");
        await page.getByLabel("Name", { exact: true }).fill("laptop");
        await page.getByRole("button", { name: "Create personal access token" }).click();
        const token = (await page.locator("#created_personal_access_token").textContent())?.trim() ?? "";
        expect(token).toMatch(/^\S{20,}$/);

        const user = await fetch(`${ctx().server.url}/api/v3/user`, { headers: { "PRIVATE-TOKEN": token } });
        expect(user.status).toBe(200);
        expect(((await user.json()) as { username: string }).username).toBe("carol");

        // Shown once: the list names it, the page no longer holds it.
        await page.goto("/profile/personal_access_tokens");
        await expect.poll(() => page.locator("#personal_access_tokens").textContent()).toContain("laptop");
        expect(await page.content()).not.toContain(token);
        await page.context().close();
      });

      it("shows a user's name with markup in it as text, running none of it", async () => {
        const page = await signedIn(ctx().server.url, "mallory");
        expect(await page.locator("#current_user").textContent()).toContain(
          "<script>window.pwned=1</script>",
        );
        await page.goto("/profile");
        expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
        await page.context().close();
      });

      it("refuses a form posted without its CSRF token, and changes nothing", async () => {
        const page = await signedIn(ctx().server.url, "carol");
        await page.goto("/profile");
        await page
          .locator("#profile_form input[name=authenticity_token]")
          .evaluate((input) => input.remove());
        await page.getByLabel("Name", { exact: true }).fill("Forged");
        const [answer] = await Promise.all([
          page.waitForResponse((response) => response.request().method() === "POST"),
          page.getByRole("button", { name: "Update profile" }).click(),
        ]);
        expect(answer.status()).toBe(403);
        expect(await nameOf("carol")).not.toBe("Forged");
        await page.context().close();
      });

      it("does not act on a form another site submits in the user's browser", async () => {
        const page = await signedIn(ctx().server.url, "carol");
        const forger = await forgingSite(`${ctx().server.url}/profile`, { name: "Forged by another site" });
        try {
          await page.goto(forger.url);
          await page.waitForLoadState("load");
          await expect.poll(() => page.url()).toContain(new URL(ctx().server.url).host);
          expect(await nameOf("carol")).not.toBe("Forged by another site");
        } finally {
          forger.server.close();
          await page.context().close();
        }
      });

      it("edits the account, resets the private token, adds an SSH key and changes the password", async () => {
        await createUser(ctx().server, ctx().root, "frank");
        const page = await signedIn(ctx().server.url, "frank");
        await page.goto("/profile");
        await page.getByLabel("Name", { exact: true }).fill("Frank Lloyd");
        await page.getByRole("button", { name: "Update profile" }).click();
        await expect.poll(() => page.locator("#current_user").textContent()).toContain("Frank Lloyd");
        expect(await nameOf("frank")).toBe("Frank Lloyd");

        await page.goto("/profile/account");
        const before = (await page.locator("#private_token").textContent())?.trim() ?? "";
        await page.getByRole("button", { name: "Reset private token" }).click();
        await expect
          .poll(async () => (await page.locator("#private_token").textContent())?.trim())
          .not.toBe(before);
        const after = (await page.locator("#private_token").textContent())?.trim() ?? "";
        const withOld = await fetch(`${ctx().server.url}/api/v3/user`, {
          headers: { "PRIVATE-TOKEN": before },
        });
        const withNew = await fetch(`${ctx().server.url}/api/v3/user`, {
          headers: { "PRIVATE-TOKEN": after },
        });
        expect([withOld.status, withNew.status]).toEqual([401, 200]);

        await page.goto("/profile/keys");
        await page.getByLabel("Key", { exact: true }).fill(SSH_KEY);
        await page.getByLabel("Title", { exact: true }).fill("work laptop");
        await page.getByRole("button", { name: "Add key" }).click();
        await expect.poll(() => page.locator("#ssh_keys").textContent()).toContain("work laptop");
        const keys = await fetch(`${ctx().server.url}/api/v3/user/keys`, {
          headers: { "PRIVATE-TOKEN": after },
        });
        expect(((await keys.json()) as { title: string }[]).map((key) => key.title)).toEqual(["work laptop"]);

        await page.goto("/profile/password");
        await page.getByLabel("Current password").fill("password123");
        await page.getByLabel("New password", { exact: true }).fill("a-new-password-9");
        await page.getByLabel("Confirm new password").fill("a-new-password-9");
        await page.getByRole("button", { name: "Change password" }).click();
        await expect.poll(() => page.locator("#flash").textContent()).toBeTruthy();
        const signInWith = (password: string) =>
          ctx().api({ method: "POST", path: "/session", json: { login: "frank", password } });
        expect((await signInWith("password123")).status).toBe(401);
        expect((await signInWith("a-new-password-9")).status).toBe(201);
        await page.context().close();
      });

      it("signs out every browser of the user from the sessions page", async () => {
        const laptop = await signedIn(ctx().server.url, "carol");
        const phone = await signedIn(ctx().server.url, "carol");
        await laptop.goto("/profile/active_sessions");
        expect(await laptop.locator("#active_sessions tbody tr").count()).toBeGreaterThanOrEqual(2);
        await laptop.getByRole("button", { name: "Sign out everywhere" }).click();
        await laptop.waitForURL("**/users/sign_in**");
        await phone.goto("/profile");
        expect(new URL(phone.url()).pathname).toBe("/users/sign_in");
        await laptop.context().close();
        await phone.context().close();
      });

      it("lets an administrator require two-factor authentication, and hides the settings from others", async () => {
        const carol = await signedIn(ctx().server.url, "carol");
        const refused = await carol.goto("/admin/application_settings");
        expect(refused?.status()).toBe(404);
        await carol.context().close();

        const root = await signedIn(ctx().server.url, "root", ctx().server.rootPassword);
        await root.goto("/admin/application_settings");
        await root.getByLabel("Require two-factor authentication of everyone").check();
        await root.getByLabel("Two-factor grace period (hours)").fill("72");
        await root.getByRole("button", { name: "Save settings" }).click();
        await expect.poll(() => root.locator("#flash").textContent()).toBeTruthy();
        const saved = await ctx().api<{
          require_two_factor_authentication: boolean;
          two_factor_grace_period: number;
        }>({
          path: "/application/settings",
          token: ctx().root.token,
        });
        expect(saved.body).toMatchObject({
          require_two_factor_authentication: true,
          two_factor_grace_period: 72,
        });
        // Back as it was, for the other tests of this server.
        await root.getByLabel("Require two-factor authentication of everyone").uncheck();
        await root.getByRole("button", { name: "Save settings" }).click();
        await expect
          .poll(async () => {
            const now = await ctx().api<{ require_two_factor_authentication: boolean }>({
              path: "/application/settings",
              token: ctx().root.token,
            });
            return now.body.require_two_factor_authentication;
          })
          .toBe(false);
        await root.context().close();
      });

      it("sends its pages with a policy that forbids framing and inline scripts", async () => {
        const page = await (await newVisitor(browser, ctx().server.url)).newPage();
        const response = await page.goto("/users/sign_in");
        const headers = response?.headers() ?? {};
        expect(headers["x-frame-options"]).toBe("DENY");
        expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
        expect(headers["content-security-policy"]).not.toContain("unsafe-inline");
        await page.context().close();
      });
    });
  },
);

/**
 * A page on another site (localhost, where the tests reach Kiln as 127.0.0.1) that posts a form to
 * `action` as soon as it loads, as a hostile site would.
 */
async function forgingSite(
  action: string,
  fields: Record<string, string>,
): Promise<{ server: Server; url: string }> {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join("");
  const html = `<!doctype html><form id="f" method="post" action="${action}">${inputs}</form><script>document.getElementById("f").submit()</script>`;
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(html);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, url: `http://localhost:${(server.address() as AddressInfo).port}/` };
}
