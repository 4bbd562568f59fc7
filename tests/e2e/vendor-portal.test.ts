/**
 * The vendor portal in Chromium against the real server with demo data (issue 17): as
 * vendor@demo.local (Northwind Atelier) the home's daily chart is drawn by polaris-viz with the
 * demo's 90 days of activity; a product set to draft from the vendor's products table (after the
 * confirmation) shows as draft in the admin's products list; an admin opens the vendor from
 * /app/vendors and sees the same home. The product is set back to active afterwards, through the API.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { apiCall, apiSignIn, launchStaffBrowser, newSession, recordBrowserProblems, reportFailedTest, screenshot, signInAsStaff } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const VENDOR_EMAIL = "vendor@demo.local";
const VENDOR_NAME = "Northwind Atelier";

const count = (text: string | null) => Number((text ?? "").replace(/[^\d.]/g, ""));

describe("vendor portal (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let problems: string[];
  let changed: { id: string; title: string } | null = null;
  let admin: { page: Page; problems: string[]; close: () => Promise<void> } | null = null;

  beforeAll(async () => {
    const b = await launchStaffBrowser(base, { email: VENDOR_EMAIL, next: "/app/vendor" });
    ({ page, problems } = b);
    close = async () => {
      await admin?.close();
      await b.close();
    };
  });
  afterEach((t) => reportFailedTest(t, admin?.page ?? page, { name: "vendor-portal", problems: [...problems, ...(admin?.problems ?? [])] }));
  afterAll(async () => {
    // The demo product goes back to active for the next runs (the vendor's own API route).
    if (changed) {
      const { token } = await apiSignIn(base, VENDOR_EMAIL);
      await apiCall(base, "PATCH", `/vendors/me/products/${encodeURIComponent(changed.id)}/status`, { token, body: { status: "active" } });
    }
    await close?.();
  });

  it("the vendor's home draws the daily chart with the demo's data", async () => {
    await page.getByRole("heading", { name: VENDOR_NAME }).first().waitFor();
    // polaris-viz draws in the browser only: the container says when, then the lines are there.
    const chart = page.locator('[data-testid="chart-vendor-daily"][data-chart-ready="true"]');
    await chart.locator("svg path").first().waitFor({ state: "attached", timeout: 30_000 });
    expect(await chart.locator("svg path").count()).toBeGreaterThan(1);
    expect(count(await page.getByTestId("kpi-views").textContent())).toBeGreaterThan(0);
    expect(await page.getByTestId("kpi-revenue").textContent()).toMatch(/^\$[\d,]+\.\d\d$/);
    await page.locator('[data-testid="chart-top-products"][data-chart-ready="true"] svg').first().waitFor({ state: "attached" });
    // The views series of the same chart.
    await page.getByRole("button", { name: "Views", exact: true }).click();
    await page.locator('[data-measure="views"] [data-chart-ready="true"] svg path').first().waitFor({ state: "attached" });
    await screenshot(page, "vendor-portal-home");
  });

  it("the vendor's payouts list paid and pending periods under the chart of their net", async () => {
    await page.getByRole("tab", { name: "Payouts" }).click();
    await page.waitForURL((u) => u.pathname === "/app/vendor/payouts");
    await page.locator('[data-testid="chart-payouts-net"][data-chart-ready="true"] svg').first().waitFor({ state: "attached", timeout: 30_000 });
    await page.locator('[data-testid="payout-status"][data-status="paid"]').first().waitFor();
    await page.locator('[data-testid="payout-status"][data-status="pending"]').first().waitFor();
    expect(await page.getByRole("button", { name: "Mark paid" }).count()).toBe(0);
    await screenshot(page, "vendor-portal-payouts");
  });

  it("sets a product to draft after the confirmation", async () => {
    await page.getByRole("tab", { name: "Products" }).click();
    await page.waitForURL((u) => u.pathname === "/app/vendor/products");
    await page.getByRole("tab", { name: "Active" }).click();
    await page.waitForURL((u) => u.searchParams.get("status") === "active");
    const firstTitle = page.getByTestId("vendor-product-title").first();
    await firstTitle.waitFor();
    const title = (await firstTitle.textContent()) ?? "";
    expect(title).not.toBe("");
    await page.getByLabel(`Status of ${title}`, { exact: true }).selectOption("draft");
    const dialog = page.getByRole("dialog");
    await dialog.getByText(`Set “${title}” to draft?`).waitFor();
    await dialog.getByRole("button", { name: "Set draft" }).click();
    await page.getByTestId("product-status-notice").getByText(`“${title}” is draft now.`).waitFor();
    const product = await page.evaluate(async (t) => {
      const res = await fetch(`/api/vendors/me/products?q=${encodeURIComponent(t)}&status=draft`);
      return ((await res.json()) as { items: { id: string; title: string }[] }).items.find((p) => p.title === t) ?? null;
    }, title);
    expect(product?.title).toBe(title);
    changed = product;
    await screenshot(page, "vendor-portal-products");
  });

  it("the admin sees the product as draft in the products list", async () => {
    expect(changed).not.toBeNull();
    const browser = page.context().browser()!;
    const session = await newSession(browser);
    const adminProblems = recordBrowserProblems(session.page);
    admin = { page: session.page, problems: adminProblems, close: () => session.context.close() };
    const next = `/app/products?q=${encodeURIComponent(changed!.title)}&status=draft`;
    await signInAsStaff(session.page, base, { next });
    const row = session.page.getByRole("row").filter({ has: session.page.getByTestId("product-link").getByText(changed!.title, { exact: true }) });
    await row.first().waitFor();
    expect(await row.first().getByText("Draft", { exact: true }).count()).toBeGreaterThan(0);
  });

  it("the admin opens the vendor from the vendors list and sees its home", async () => {
    const p = admin!.page;
    await p.goto(`${base}/app/vendors`);
    await p.getByRole("heading", { name: "Vendors" }).first().waitFor();
    await p.getByTestId("vendor-link").getByText(VENDOR_NAME, { exact: true }).click();
    await p.waitForURL((u) => /^\/app\/vendors\/[^/]+$/.test(u.pathname));
    await p.getByRole("heading", { name: VENDOR_NAME }).first().waitFor();
    const chart = p.locator('[data-testid="chart-vendor-daily"][data-chart-ready="true"]');
    await chart.locator("svg path").first().waitFor({ state: "attached", timeout: 30_000 });
    expect(count(await p.getByTestId("kpi-views").textContent())).toBeGreaterThan(0);
    await p.getByRole("button", { name: "Commission rate" }).waitFor();
    await screenshot(p, "vendor-portal-admin-home");
  });
});
