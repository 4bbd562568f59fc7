/**
 * Product requests in Chromium: a guest finds "Request a product" in the storefront's footer,
 * sends brand, garment, link and email (an empty brand is refused with the form's message first),
 * and the request appears in the admin's Product requests list, where its page opens.
 */
import { afterAll, beforeAll, describe, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchStaffBrowser, newSession, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

describe("product requests (Chromium)", () => {
  let admin: Page;
  let browser: Browser;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page: admin, browser, close } = await launchStaffBrowser(base, { next: "/app" }));
  });
  afterAll(() => close?.());

  it("a guest's request from the storefront appears in the admin list", async () => {
    const garment = `E2E overshirt ${Date.now()}`;
    const { context, page } = await newSession(browser);
    try {
      await page.goto(`${base}/`);
      await page.getByTestId("footer-request-product").click();
      await page.waitForURL((u) => u.pathname === "/request-a-product");
      const form = page.getByTestId("request-product-form");
      await form.getByLabel("Garment").fill(garment);
      await form.getByRole("button", { name: "Send request" }).click();
      await page.getByTestId("request-product-error").filter({ hasText: "Brand is required" }).waitFor();

      await form.getByLabel("Brand").fill("Our Legacy");
      await form.getByLabel("Link (optional)").fill("https://item.taobao.com/item.htm?id=640000009876");
      await form.getByLabel("Email").fill("e2e-requester@example.test");
      await form.getByRole("button", { name: "Send request" }).click();
      await page.getByTestId("request-product-done").filter({ hasText: "e2e-requester@example.test" }).waitFor();
      await screenshot(page, "storefront-request-a-product");
    } finally {
      await context.close();
    }

    await admin.goto(`${base}/app/product-requests`);
    const row = admin.getByTestId("prq-link").filter({ hasText: "Our Legacy" }).first();
    await admin.getByText(garment).waitFor();
    await row.waitFor();
    await screenshot(admin, "admin-product-requests");
    await row.click();
    await admin.waitForURL((u) => /^\/app\/product-requests\/[0-9a-f-]{36}$/.test(u.pathname));
    await admin.getByRole("button", { name: "Start a Taobao import" }).waitFor();
    await admin.getByTestId("prq-detail-status").filter({ hasText: "Pending" }).waitFor();
  });
});
