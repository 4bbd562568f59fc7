/**
 * The Collections admin screens in Chromium: create a draft, see publishing refused while it is
 * empty, add a product with the picker, publish it, feature it and find it in the Active tab.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const TITLE = `E2E Capsule ${Date.now().toString(36)}`;

describe("admin: collections (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await launchStaffBrowser(base, { next: "/app/collections" }));
  });
  afterAll(() => close?.());

  it("lists the demo collections with status tabs", async () => {
    await page.goto(`${base}/app/collections`);
    await page.getByRole("heading", { name: "Collections" }).first().waitFor();
    await page.getByTestId("collection-link").first().waitFor();
    expect(await page.getByTestId("collection-link").count()).toBeGreaterThanOrEqual(6);
    await page.getByRole("tab", { name: "Drafts" }).click();
    await page.waitForURL((u) => u.searchParams.get("status") === "draft");
    await screenshot(page, "admin-collections-drafts");
  });

  it("creates a draft, refuses to publish it empty, adds a product, publishes it", async () => {
    await page.getByRole("button", { name: "Create collection" }).click();
    await page.getByRole("dialog").getByLabel("Title").fill(TITLE);
    await page.getByRole("dialog").getByRole("button", { name: "Create draft" }).click();
    await page.waitForURL((u) => /^\/app\/collections\/[^/]+$/.test(u.pathname));
    await page.getByRole("heading", { name: TITLE }).first().waitFor();

    await page.getByRole("button", { name: "Publish" }).first().click();
    await page.getByText("A collection needs at least one product before it can be published").first().waitFor();

    // A catalogue product to look for (the picker searches the same catalogue).
    const found = await (await fetch(`${base}/api/products?query=linen&limit=1`)).json();
    const productTitle: string = found.products[0].title;
    await page.getByLabel("Add products").fill(productTitle);
    const candidate = page.getByTestId("product-picker").locator("li").filter({ hasText: productTitle }).first();
    await candidate.waitFor();
    await candidate.getByRole("button", { name: `Add ${productTitle}` }).first().click();
    await page.getByText("Added 1 product.").waitFor();
    await page.getByTestId("collection-product").filter({ hasText: productTitle }).waitFor();

    await page.getByRole("button", { name: "Publish" }).first().click();
    await page.getByText("Published: shoppers can see this collection.").waitFor();
    await screenshot(page, "admin-collection-detail");

    const id = new URL(page.url()).pathname.split("/").pop()!;
    const pub = await (await fetch(`${base}/api/collections/${id}`)).json();
    expect(pub).toMatchObject({ title: TITLE, status: "active", productCount: 1 });
  });

  it("the new collection is in the Active tab and can be featured from the list", async () => {
    await page.getByRole("button", { name: "Collections" }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/collections");
    await page.getByRole("tab", { name: "Active" }).click();
    await page.waitForURL((u) => u.searchParams.get("status") === "active");
    await page.getByPlaceholder("Search by title or handle").fill(TITLE);
    await page.waitForURL((u) => u.searchParams.get("q") === TITLE);
    const row = page.getByRole("row").filter({ hasText: TITLE });
    await row.waitFor();
    await row.getByRole("button", { name: `Feature ${TITLE}` }).click();
    await row.getByRole("button", { name: `Unfeature ${TITLE}` }).waitFor();
    await screenshot(page, "admin-collections-active");
    const featured = await (await fetch(`${base}/api/collections/featured?take=50`)).json();
    expect(featured.collections.map((c: { title: string }) => c.title)).toContain(TITLE);
  });
});
