/**
 * The Stores admin screen in Chromium: list and search, open a store, rename it (keeping its
 * handle), reorder its featured products, set its size recommendation, and a refused delete.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

describe("admin: stores (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await launchStaffBrowser(base, { next: "/app/stores" }));
  });
  afterAll(() => close?.());

  it("lists stores from the navigation and searches them", async () => {
    await page.goto(`${base}/app`);
    await page.getByRole("link", { name: "Stores", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/stores");
    await page.getByRole("heading", { name: "Stores" }).first().waitFor();
    await page.getByTestId("store-link").first().waitFor();
    expect(await page.getByTestId("store-link").count()).toBeGreaterThanOrEqual(10);
    await page.getByPlaceholder("Search stores by name or handle").fill("kestrel");
    await page.waitForURL((u) => u.searchParams.get("q") === "kestrel");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="store-link"]').length === 2);
    const names = await page.getByTestId("store-link").allTextContents();
    expect(names.every((n) => n.includes("Kestrel"))).toBe(true);
    await screenshot(page, "admin-stores-list");
  });

  it("refuses to delete a store that has products, with the server's message", async () => {
    await page.getByRole("button", { name: "Delete Kestrel Outdoor" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete store", exact: true }).click();
    await page.getByText(/This store still has \d+ products/).waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  });

  it("renames a store and keeps its handle", async () => {
    await page.getByTestId("store-link").filter({ hasText: "Kestrel Outdoor" }).click();
    await page.waitForURL((u) => /^\/app\/stores\/[^/]+$/.test(u.pathname));
    await page.getByLabel("Store name").fill("Kestrel Outdoor Co.");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByText("Renamed to “Kestrel Outdoor Co.” (handle kestrel-outdoor).").waitFor();
    await page.getByRole("heading", { name: "Kestrel Outdoor Co." }).first().waitFor();
  });

  it("reorders featured products and saves the size recommendation", async () => {
    const items = page.getByTestId("featured-item");
    await items.first().waitFor();
    const before = await items.allTextContents();
    expect(before.length).toBeGreaterThanOrEqual(2);
    // Keyboard path: focus the second product's "Move up" button and press Enter.
    await items
      .nth(1)
      .getByRole("button", { name: /^Move .* up$/ })
      .focus();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Save featured products" }).click();
    await page.getByText(/Featured products saved \(\d+\)\./).waitFor();
    const after = await page.getByTestId("featured-item").allTextContents();
    expect(after[0].replace(/^\D*\d+\./, "")).toBe(before[1].replace(/^\D*\d+\./, ""));

    await page.getByLabel("Shown to shoppers on this store's products").fill("Runs large: order one size down.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Size recommendation saved.").waitFor();
    await screenshot(page, "admin-store-detail");

    // What the API now answers.
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const store = await (await fetch(`${base}/api/stores/${id}`)).json();
    expect(store).toMatchObject({ name: "Kestrel Outdoor Co.", handle: "kestrel-outdoor", size_recommendation: "Runs large: order one size down." });
    const featured = await (await fetch(`${base}/api/stores/${id}/featured-products`)).json();
    expect(featured.products.length).toBeGreaterThanOrEqual(2);
  });

  it("back to the list shows the new name", async () => {
    await page.getByRole("button", { name: "Stores" }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/stores");
    await page.getByTestId("store-link").filter({ hasText: "Kestrel Outdoor Co." }).first().waitFor();
  });
});
