/**
 * The Styles admin screen in Chromium: list from the navigation, create a style, add a product
 * with the picker, categorise it (the job runs in the server's worker), set the score, delete it.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

describe("admin: styles (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await launchStaffBrowser(base, { next: "/app" }));
  });
  afterAll(() => close?.());

  it("creates a style, adds a product, categorises it, scores it and deletes it", async () => {
    await page.getByRole("link", { name: "Styles", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/styles");
    await page.getByRole("link", { name: "Minimalist" }).first().waitFor();
    expect(await page.getByTestId("style-link").count()).toBeGreaterThanOrEqual(6);
    await screenshot(page, "admin-styles-list");

    await page.getByRole("button", { name: "Create style" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("E2E Capsule");
    await dialog.getByLabel("Description").fill("Made by the browser test");
    await dialog.getByRole("button", { name: "Create", exact: true }).click();
    await page.waitForURL((u) => /^\/app\/styles\/[0-9a-f-]{36}$/.test(u.pathname));
    await page.getByRole("heading", { name: "E2E Capsule" }).waitFor();

    await page.getByLabel("Add products").fill("Hoodie");
    const add = page.getByRole("button", { name: /^Add .*Hoodie/i }).first();
    await add.waitFor({ timeout: 15_000 });
    const label = (await add.getAttribute("aria-label"))!.replace(/^Add /, "");
    await add.click();
    await page.getByText("Added 1 product.").waitFor();
    await page.getByTestId("style-product").filter({ hasText: label }).waitFor();

    await page.getByRole("button", { name: "Categorise products" }).click();
    await page.getByText("Categorisation queued").waitFor();
    // The worker runs the job; the page looks again every 2 seconds until it finishes.
    // The job runs in the admin lane, which the whole e2e run shares (imports, catalogue syncs, ad creatives
    // of the files before): it has been seen to wait there past a minute on a loaded machine.
    await page.getByText("Categorisation completed").waitFor({ timeout: 150_000 });
    await page.getByRole("img", { name: /Hoodies & sweat.*: 1/ }).waitFor();
    await screenshot(page, "admin-style-detail");

    await page.getByLabel("Score").fill("7.5");
    await page.getByRole("button", { name: "Set score" }).click();
    await page.getByText("Score set to 7.5.").waitFor();

    await page.getByRole("button", { name: "Delete style" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/app/styles");
    await page.getByRole("link", { name: "Minimalist" }).first().waitFor();
    expect(await page.getByRole("link", { name: "E2E Capsule" }).count()).toBe(0);
  }, 210_000);
});
