import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

describe("end-to-end smoke (Chromium, embedded default)", () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await launchBrowser());
  });
  afterAll(() => close?.());

  it("prints the URLs and demo accounts on start", () => {
    const out = inject("e2eServerOutput");
    expect(out).toMatch(/Admin:\s+http:\/\/\S+\/app/);
    expect(out).toContain("admin@demo.local");
    expect(out).toMatch(/Demo data created: \d+ products/);
  });

  it("the storefront home shows demo products with their images", async () => {
    await page.goto(`${base}/`);
    const cards = page.getByTestId("product-card");
    await cards.first().waitFor({ timeout: 30_000 });
    expect(await cards.count()).toBeGreaterThanOrEqual(6);
    const img = cards.first().locator("img");
    await img.waitFor();
    await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle(), { timeout: 15_000 });
    await screenshot(page, "storefront-home");
  });

  it("a gender switch rewrites the path", async () => {
    await page.goto(`${base}/`);
    await page.getByTestId("gender-switch-menswear").click();
    await page.waitForURL((u) => u.pathname === "/mens");
    await page.getByTestId("product-card").first().waitFor();
    await screenshot(page, "storefront-mens");
    await page.getByTestId("gender-switch-womenswear").click();
    await page.waitForURL((u) => u.pathname === "/womens");
    await page.getByTestId("gender-switch-both").click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.goto(`${base}/stores`);
    await page.getByTestId("gender-switch-menswear").click();
    await page.waitForURL((u) => u.pathname === "/mens/stores");
  });

  it("a saved gender preference redirects the root", async () => {
    await page.goto(`${base}/womens`);
    await page.getByTestId("gender-switch-womenswear").click();
    await page.goto(`${base}/`);
    await page.waitForURL((u) => u.pathname === "/womens");
  });

  it("the admin login reaches a Polaris page, without App Bridge", async () => {
    await page.goto(`${base}/app`);
    await page.waitForURL((u) => u.pathname === "/app/login");
    await page.getByLabel("Email").fill("admin@demo.local");
    await page.getByLabel("Password").fill("demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((u) => u.pathname === "/app");
    await page.locator(".Polaris-Page").first().waitFor();
    await page.getByRole("heading", { name: "Dashboard" }).first().waitFor();
    const products = await page.getByTestId("stat-activeProducts").textContent();
    expect(Number(products?.replace(/[^0-9]/g, ""))).toBeGreaterThanOrEqual(600);
    await screenshot(page, "admin-dashboard");
    await page.getByRole("link", { name: "Admin users" }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/admins");
    await page.getByText("vendor@demo.local").first().waitFor();
    await screenshot(page, "admin-users");
  });

  it("a wrong admin password is refused with a clear message", async () => {
    const b = await launchBrowser();
    try {
      await b.page.goto(`${base}/app/login`);
      await b.page.getByLabel("Email").fill("admin@demo.local");
      await b.page.getByLabel("Password").fill("wrong-password");
      await b.page.getByRole("button", { name: "Sign in" }).click();
      await b.page.getByText("Email or password is incorrect").waitFor();
    } finally {
      await b.close();
    }
  });

  it("the vendor sees their own vendor page", async () => {
    const b = await launchBrowser();
    try {
      await b.page.goto(`${base}/app/login`);
      await b.page.getByLabel("Email").fill("vendor@demo.local");
      await b.page.getByLabel("Password").fill("demo-password");
      await b.page.getByRole("button", { name: "Sign in" }).click();
      await b.page.waitForURL((u) => u.pathname === "/app/vendor");
      await b.page.getByText("Northwind Atelier").first().waitFor();
      await screenshot(b.page, "vendor-home");
      const res = await b.page.goto(`${base}/app/admins`);
      expect(res?.status()).toBe(403);
    } finally {
      await b.close();
    }
  });

  it("serves the API docs and health", async () => {
    await page.goto(`${base}/api/docs`);
    await page.getByText("/api/users/guest").first().waitFor();
    const health = await (await fetch(`${base}/api/health`)).json();
    expect(health.database.ok).toBe(true);
    expect(health.worker.ok).toBe(true);
  });
});
