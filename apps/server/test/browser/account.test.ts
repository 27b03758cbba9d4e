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
