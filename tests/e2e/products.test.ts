/**
 * The Products admin screen in Chromium: the list from the navigation with search and a filter,
 * open a product, change its companion's status with a reason (modal), see the new status, then
 * verify it (back to active). The product's store status follows the companion's.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

describe("admin: products (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await launchStaffBrowser(base, { next: "/app" }));
  });
  afterAll(() => close?.());

  it("lists products from the navigation, searches and filters them", async () => {
    await page.goto(`${base}/app`);
    await page.getByRole("link", { name: "Products", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/products");
    await page.getByTestId("product-link").first().waitFor();
    expect(await page.getByTestId("product-link").count()).toBe(25);
    const wanted = (await page.getByTestId("product-link").nth(2).textContent())!.trim();
    await page.getByPlaceholder(/Search by title/).fill(wanted);
    await page.waitForURL((u) => u.searchParams.get("q") === wanted);
    await page.waitForFunction(
      (t) => {
        const links = [...document.querySelectorAll('[data-testid="product-link"]')];
        // Title search matches within titles (other e2e files add products to the shared server).
        return links.length > 0 && links.length < 25 && links.every((a) => a.textContent?.toLowerCase().includes(t.toLowerCase()));
      },
      wanted,
    );
    // A filter narrows the list through the URL: no draft companions in the demo catalogue.
    await page.goto(`${base}/app/products?companion=draft`);
    await page.getByText("No products match.").waitFor();
    await page.goBack();
    await page.waitForURL((u) => u.searchParams.get("q") === wanted);
    await page.getByTestId("product-link").first().waitFor();
    await screenshot(page, "admin-products-list");
  });

  it("opens a product, changes its companion status with a reason, and verifies it again", async () => {
    // The oldest product is a demo one with an active companion (other e2e files add newer ones).
    await page.goto(`${base}/app/products?sort=oldest`);
    const link = page.getByTestId("product-link").first();
    await link.waitFor();
    const title = (await link.textContent())!.trim();
    await link.click();
    await page.waitForURL((u) => u.pathname.startsWith("/app/products/gid"));
    await page.getByRole("heading", { name: title }).first().waitFor();
    const status = page.getByTestId("companion-status");
    await expect(status.getAttribute("data-status")).resolves.toBe("active");

    await page.getByRole("button", { name: "Change status" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("New status").selectOption("draft");
    await dialog.getByLabel("Reason").fill("Photos need retouching");
    await dialog.getByRole("button", { name: "Change status" }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="companion-status"]')?.getAttribute("data-status") === "draft");
    await page.getByTestId("companion-status-reason").getByText("Reason: Photos need retouching").waitFor();
    await page.getByRole("dialog").waitFor({ state: "hidden", timeout: 15_000 }).catch(async (e) => {
      const texts = await page.getByRole("dialog").allInnerTexts();
      throw new Error(`a dialog is still open: ${JSON.stringify(texts)} (${(e as Error).message.split("\n")[0]})`);
    });
    // The product's store status follows: a draft product.
    await page.waitForFunction(() => document.querySelector('[data-testid="product-status"]')?.getAttribute("data-status") === "draft");
    await screenshot(page, "admin-product-status-draft");

    // Only the allowed next states are offered (draft → pending review).
    await page.getByRole("button", { name: "Change status" }).first().click();
    await expect(page.getByRole("dialog").getByLabel("New status").locator("option").allTextContents()).resolves.toEqual(["Pending review"]);
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="companion-status"]')?.getAttribute("data-status") === "active");
    await page.getByText("Verified", { exact: true }).first().waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="product-status"]')?.getAttribute("data-status") === "active");
    await expect(page.getByTestId("companion-status-reason").count()).resolves.toBe(0);
    await screenshot(page, "admin-product-verified");
  });
});
