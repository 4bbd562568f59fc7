/**
 * Debian's Chromium through playwright-core (STACK.md: downloads of browser builds fail here).
 * Requests to Shopify's CDN are refused, as on these machines, so pages are proven to work
 * without the App Bridge script.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const ARTEFACTS_DIR = path.resolve("test-results", "e2e");

export async function launchBrowser(): Promise<{ browser: Browser; context: BrowserContext; page: Page; close(): Promise<void> }> {
  // playwright gives each launch a fresh, temporary profile (the "fresh user-data dir" of STACK.md).
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(/cdn\.shopify\.com/, (route) => route.abort());
  const page = await context.newPage();
  return {
    browser,
    context,
    page,
    async close() {
      await browser.close();
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTEFACTS_DIR, { recursive: true });
  const file = path.join(ARTEFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Signs in on the local admin login (demo accounts) and waits until `next` is shown. */
export async function signInAsStaff(page: Page, baseUrl: string, opts: { email?: string; next?: string } = {}): Promise<void> {
  const next = opts.next ?? "/app";
  await page.goto(`${baseUrl}/app/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(opts.email ?? "admin@demo.local");
  await page.getByLabel("Password").fill("demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  const target = next.split("?")[0];
  await page.waitForURL((u) => u.pathname === target);
}
