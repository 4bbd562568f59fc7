/**
 * Sign-up and password reset as a shopper does them, in Chromium against the real server (issue 20,
 * item 4): sign up from the sign-in page, confirm the address with the link the outbox received;
 * then "Forgot password?", the emailed link, a new password, and signing in with it (the old one
 * refused). Screenshots of the sign-up and reset pages at 390×844 and 1366×900. The links are read
 * from the outbox folder the server writes every email to (DATA_DIR/outbox, local mode).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchBrowser, screenshotAtSizes } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const email = `e2e-reset-${Date.now()}@example.test`;
const FIRST = "amber-otter-lantern-42";
const SECOND = "copper-meadow-violin-58";

/** The link of the newest email of `kind` to `email` in any e2e server's outbox (only ours has this address). */
async function linkFromOutbox(kind: string, pathname: string): Promise<string> {
  let found: string | null = null;
  await expect
    .poll(
      () => {
        const files: { file: string; mtime: number }[] = [];
        for (const d of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith("fd-e2e-"))) {
          const dir = path.join(os.tmpdir(), d, "outbox");
          if (!fs.existsSync(dir)) continue;
          for (const f of fs.readdirSync(dir).filter((n) => n.endsWith(".json"))) files.push({ file: path.join(dir, f), mtime: fs.statSync(path.join(dir, f)).mtimeMs });
        }
        files.sort((a, b) => b.mtime - a.mtime);
        for (const { file } of files) {
          const m = JSON.parse(fs.readFileSync(file, "utf8")) as { to: string; text: string; subject: string };
          if (m.to !== email) continue;
          const link = new RegExp(`https?://[^\\s]+${pathname}\\?token=[A-Za-z0-9_-]+`).exec(m.text);
          if (link && (kind !== "verify" || m.subject.includes("Confirm")) && (kind !== "reset" || m.subject.includes("Reset"))) {
            found = link[0];
            return true;
          }
        }
        return false;
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe(true);
  // The server's APP_URL may differ from the address the test reaches: keep the path and token.
  const u = new URL(found!);
  return `${base}${u.pathname}${u.search}`;
}

describe("sign-up and password reset (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await launchBrowser());
  });
  afterAll(() => close?.());

  it("signs up from the sign-in page and confirms the address with the emailed link", async () => {
    await page.goto(`${base}/login`);
    await page.getByTestId("login-register").click();
    await page.waitForURL((u) => u.pathname === "/register");
    await page.getByTestId("signup-email").fill(email);
    await page.getByTestId("signup-password").fill("short");
    await page.locator('[data-rule="length"][data-met="false"]').waitFor();
    await page.getByTestId("signup-password").fill(FIRST);
    await page.locator('[data-rule="length"][data-met="true"]').waitFor();
    await screenshotAtSizes(page, "signup");
    await page.getByTestId("signup-submit").click();
    await page.getByTestId("signup-done").waitFor({ timeout: 30_000 });
    await page.getByTestId("verify-email-notice").waitFor();

    await page.goto(await linkFromOutbox("verify", "/verify-email"));
    await page.getByTestId("verify-email-done").waitFor({ timeout: 30_000 });
  });

  it("Delete account on the account page is the destructive colour", async () => {
    await page.goto(`${base}/account`);
    const del = page.getByTestId("account-delete");
    await del.waitFor({ timeout: 30_000 });
    expect(await del.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(180, 35, 24)");
    await screenshotAtSizes(page, "account-delete", del);
  });

  it("forgot password → the emailed link → a new password → signs in with it, not with the old one", async () => {
    await page.getByTestId("account-signout").click();
    await page.waitForURL((u) => u.pathname !== "/account");
    await page.goto(`${base}/login`);
    await page.locator('input[name="email"]').fill(email);
    await page.getByTestId("login-forgot").click();
    await page.waitForURL((u) => u.pathname === "/forgot-password");
    expect(await page.getByTestId("forgot-email").inputValue()).toBe(email);
    await screenshotAtSizes(page, "forgot-password");
    await page.getByTestId("forgot-submit").click();
    await page.getByTestId("forgot-sent").waitFor({ timeout: 30_000 });

    await page.goto(await linkFromOutbox("reset", "/reset-password"));
    await page.getByTestId("reset-form").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("reset-email").textContent()).toBe(email);
    await page.getByTestId("reset-password").fill(SECOND);
    await page.getByTestId("reset-confirm").fill(SECOND);
    await screenshotAtSizes(page, "reset-password");
    await page.getByTestId("reset-submit").click();
    await page.getByTestId("reset-done").waitFor({ timeout: 30_000 });
    await page.getByTestId("reset-sign-in").click();
    await page.waitForURL((u) => u.pathname === "/login");

    await page.locator('input[name="password"]').fill(FIRST);
    await page.locator('form button[type="submit"]').click();
    await page.locator(".form-error").waitFor({ timeout: 30_000 });
    await page.locator('input[name="password"]').fill(SECOND);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL((u) => u.pathname !== "/login", { timeout: 30_000 });
  });
});
