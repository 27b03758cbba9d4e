import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium } from "playwright-core";

/** Where chromium is: `KILN_TEST_CHROMIUM` (CI sets it), else Debian's. */
const CHROMIUM = process.env["KILN_TEST_CHROMIUM"] ?? "/usr/bin/chromium";

/**
 * Why the browser tests cannot run here, or null when they can. Outside CI a machine without
 * chromium skips them; in CI (`CI` set) they never skip, so a missing browser fails them.
 */
export function browserUnavailable(): string | null {
  if (process.env["CI"] || existsSync(CHROMIUM)) return null;
  return `no chromium at ${CHROMIUM}: install Debian's chromium or set KILN_TEST_CHROMIUM`;
}

/** A headless chromium, as root may run it (no sandbox), with no traffic of its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A fresh profile (no cookies) on `baseUrl`, as a new visitor's browser. Its waits give up well
 * before the test's own timeout, so that a failure names the step that never happened.
 */
export async function newVisitor(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1200, height: 800 } });
  context.setDefaultTimeout(BROWSER_STEP_MS);
  return context;
}

/** The longest one browser step may take (a page load, a click's navigation) under CI's load. */
export const BROWSER_STEP_MS = 15_000;

/** The longest one browser test may take: a handful of steps. */
export const BROWSER_TEST_MS = 60_000;
