/**
 * The admin Analytics page in Chromium against the real server with demo data (its dates moved so
 * the demo ends yesterday): opened from the Orders page, the revenue chart is drawn by polaris-viz
 * with the demo's days (an svg with paths), the presets change the range in the URL and the KPI
 * values with it, and a custom range the API refuses shows its message.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, reportFailedTest, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

const kpi = (page: Page, key: string) => page.getByTestId(`kpi-${key}`).textContent();
const count = (text: string | null) => Number((text ?? "").replace(/[^\d.]/g, ""));

describe("admin: order analytics (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let problems: string[];
  beforeAll(async () => {
    ({ page, close, problems } = await launchStaffBrowser(base, { next: "/app/orders" }));
  });
  afterEach((t) => reportFailedTest(t, page, { name: "admin-analytics", problems }));
  afterAll(() => close?.());

  it("opens from the Orders page and draws the revenue of the last 30 days", async () => {
    await page.getByRole("link", { name: "Analytics", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/orders/analytics");
    await page.getByRole("heading", { name: "Analytics" }).first().waitFor();
    // polaris-viz draws in the browser only: the container says when, then the lines are there.
    const revenue = page.locator('[data-testid="chart-revenue"][data-chart-ready="true"]');
    await revenue.locator("svg path").first().waitFor({ state: "attached", timeout: 30_000 });
    expect(await revenue.locator("svg path").count()).toBeGreaterThan(1);
    await page.locator('[data-testid="chart-top-products"][data-chart-ready="true"] svg').first().waitFor({ state: "attached" });
    expect(count(await kpi(page, "orders"))).toBeGreaterThan(0);
    expect(await kpi(page, "revenue")).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(await page.getByTestId("kpi-orders-change").textContent()).toMatch(/%|New|No change/);
    expect(await page.getByRole("button", { name: "Last 30 days" }).getAttribute("aria-pressed")).toBe("true");
    await screenshot(page, "admin-analytics-30-days");
  });

  it("a preset changes the range in the URL and the KPI values", async () => {
    const month = count(await kpi(page, "orders"));
    await page.getByRole("button", { name: "Last 7 days" }).click();
    await page.waitForURL((u) => u.searchParams.get("days") === "7");
    await expect.poll(async () => count(await kpi(page, "orders")), { timeout: 20_000 }).toBeLessThan(month);
    expect(count(await kpi(page, "orders"))).toBeGreaterThan(0);
    expect(await page.getByRole("button", { name: "Last 7 days" }).getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: "Last 90 days" }).click();
    await page.waitForURL((u) => u.searchParams.get("days") === "90");
    await expect.poll(async () => count(await kpi(page, "orders")), { timeout: 20_000 }).toBeGreaterThan(month);
    await page.locator('[data-testid="chart-orders"][data-chart-ready="true"] svg path').first().waitFor({ state: "attached" });
    await screenshot(page, "admin-analytics-90-days");
    // The bars drawn without their entry animation, for a screenshot that shows them at rest.
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.reload();
    await page.locator('[data-testid="chart-top-vendors"][data-chart-ready="true"] svg').first().waitFor({ state: "attached" });
    await page.getByTestId("chart-top-products").evaluate((el) => el.scrollIntoView({ block: "center" }));
    await screenshot(page, "admin-analytics-top");
  });

  it("a custom range the API refuses shows its message", async () => {
    await page.getByRole("textbox", { name: "From", exact: true }).fill("2026-10-08");
    await page.getByRole("textbox", { name: "To", exact: true }).fill("2026-10-05");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL((u) => u.searchParams.get("from") === "2026-10-08");
    expect(await page.getByTestId("analytics-error").textContent()).toBe("from: must not be after to");
  });
});
