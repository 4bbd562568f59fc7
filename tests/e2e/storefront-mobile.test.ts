/**
 * The storefront on a phone (390×844) and a laptop (1366×900), issue 20: the stores page (stores
 * with their products, Follow, More stores), the mobile menu (the main nav is hidden below 768 px:
 * the menu reaches Stores and the Assistant, Escape closes it), the Following page and the other
 * storefront pages without horizontal overflow, and the signed-out header (Saved and Sign in, not
 * Account as well). Screenshots of each screen at both sizes under test-results/e2e/.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { apiGet, launchBrowser, newSession, productPath, recordBrowserProblems, reportFailedTest, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

const SIZES = {
  mobile: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1366, height: 900 } },
} as const;
type Size = keyof typeof SIZES;

/** How far the page is wider than the window (0: no horizontal scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function settle(page: Page) {
  await page.waitForLoadState("networkidle", { timeout: 15_000 }).catch(() => undefined);
}

describe("storefront at 390×844 and 1366×900 (Chromium)", () => {
  let browser: Browser;
  let close: () => Promise<void>;
  const sessions = {} as Record<Size, { context: BrowserContext; page: Page; problems: string[] }>;
  let current: Page | null = null;

  beforeAll(async () => {
    ({ browser, close } = await launchBrowser());
    for (const size of Object.keys(SIZES) as Size[]) {
      const s = await newSession(browser, SIZES[size]);
      sessions[size] = { ...s, problems: recordBrowserProblems(s.page) };
    }
  });
  afterEach(async (t) => {
    if (current) await reportFailedTest(t, current, { name: "storefront-mobile", problems: [...sessions.mobile.problems, ...sessions.desktop.problems] });
  });
  afterAll(() => close?.());

  it("the stores page lists stores with their products and Follow buttons; a followed store is on Following, which fits a phone", async () => {
    const { total } = await apiGet<{ total: number }>(base, "/stores/target-gender/both?take=1&productsPerStore=0");
    expect(total).toBeGreaterThan(10);
    for (const size of ["mobile", "desktop"] as Size[]) {
      const { page } = sessions[size];
      current = page;
      await page.goto(`${base}/stores`);
      const blocks = page.getByTestId("store-block");
      await blocks.first().waitFor({ timeout: 30_000 });
      expect(await blocks.count()).toBe(10);
      await page.getByTestId("featured-store").first().waitFor();
      const first = blocks.first();
      expect(await first.getByTestId("product-card").count()).toBeGreaterThan(0);
      // The store's link leads to its page.
      const href = await first.getByTestId("store-link").getAttribute("href");
      expect(href).toMatch(/^\/stores\/[^/]+\/[^/]+$/);
      await settle(page);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `storefront-stores-${size}`);

      // Follow the first listed store (a guest session can follow).
      const follow = first.getByTestId("follow-button");
      await first.locator('[data-testid="follow-button"][data-known="true"]').waitFor({ timeout: 20_000 });
      if ((await follow.getAttribute("data-following")) === "false") await follow.click();
      await expect.poll(() => follow.getAttribute("data-following")).toBe("true");
      await page.waitForFunction(() => !document.querySelector('[data-testid="store-block"] [data-testid="follow-button"][data-pending]'));
      const storeId = await first.getAttribute("data-store-id");

      // More stores: the rest of the list.
      if (size === "desktop") {
        await page.getByTestId("stores-more").click();
        await expect.poll(() => blocks.count(), { timeout: 20_000 }).toBe(total);
        expect(await page.getByTestId("stores-more").count()).toBe(0);
      }

      // Following: the store is there, no wider than the window, its button inside the screen.
      await page.goto(`${base}/following`);
      const row = page.locator(`[data-testid="followed-store"][data-store-id="${storeId}"]`);
      await row.waitFor({ timeout: 20_000 });
      await settle(page);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      const box = await row.getByTestId("follow-button").boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(SIZES[size].viewport.width);
      await screenshot(page, `storefront-following-${size}`);
    }
  });

  it("on a phone the menu reaches Stores and the Assistant (Escape closes it); on a laptop the nav shows and the menu does not", async () => {
    const { page } = sessions.mobile;
    current = page;
    await page.goto(`${base}/`);
    const button = page.getByTestId("mobile-menu-button");
    await button.waitFor();
    expect(await page.locator(".header__nav").isVisible()).toBe(false);
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await button.getAttribute("aria-label")).toBe("Menu");

    // Opens with the focus on its first link; Escape closes it and gives the focus back.
    await button.click();
    const menu = page.getByTestId("mobile-menu");
    await menu.getByTestId("mobile-menu-stores").waitFor();
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("mobile-menu-shop");
    await menu.getByTestId("mobile-menu-gender-womenswear").waitFor();
    await screenshot(page, "storefront-mobile-menu-mobile");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "hidden" });
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("mobile-menu-button");

    // Stores, then the Assistant, each from the menu (which closes on the way).
    await button.click();
    await menu.getByTestId("mobile-menu-stores").click();
    await page.waitForURL((u) => u.pathname.endsWith("/stores"));
    await page.getByTestId("store-block").first().waitFor({ timeout: 30_000 });
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    await button.click();
    await menu.getByTestId("mobile-menu-assistant").click();
    await page.waitForURL((u) => u.pathname === "/assistant");
    expect(await menu.isVisible()).toBe(false);

    // Signed out: Saved (named, as its label is hidden here) and Sign in, no Account link.
    expect(await page.getByRole("link", { name: "Saved" }).first().isVisible()).toBe(true);
    expect(await page.getByTestId("header-sign-in").isVisible()).toBe(true);
    expect(await page.getByTestId("header-account-link").count()).toBe(0);
    await screenshot(page, "storefront-header-mobile");

    const desktop = sessions.desktop.page;
    current = desktop;
    await desktop.goto(`${base}/assistant`);
    await desktop.locator(".header__nav").waitFor();
    expect(await desktop.getByTestId("mobile-menu-button").isVisible()).toBe(false);
    expect(await desktop.locator(".header__nav").getByRole("link", { name: "Stores" }).isVisible()).toBe(true);
    expect(await desktop.getByTestId("header-sign-in").isVisible()).toBe(true);
    expect(await desktop.getByTestId("header-account-link").count()).toBe(0);
    await screenshot(desktop, "storefront-header-desktop");
  });

  it("a search for black jeans shows the black variants, and My try-ons, at both sizes", async () => {
    for (const size of ["mobile", "desktop"] as Size[]) {
      const { page } = sessions[size];
      current = page;
      await page.goto(`${base}/?search=black%20jeans`);
      await page.getByTestId("search-results").locator('[data-testid="product-card"]').first().waitFor({ timeout: 30_000 });
      // Cards of products with a black variant show and link to it.
      expect(await page.locator('[data-testid="product-card"][data-variant-id]').count()).toBeGreaterThan(0);
      await settle(page);
      await screenshot(page, `storefront-search-black-jeans-${size}`);

      await page.goto(`${base}/try-ons`);
      await page.getByTestId("tryons-page").waitFor({ timeout: 20_000 });
      await settle(page);
      await screenshot(page, `storefront-try-ons-${size}`);
    }
  });

  it("moving inside the app, each page's title, description and canonical are the ones the server writes for it", async () => {
    const { page } = sessions.desktop;
    current = page;
    /** The head as the page shows it now, or as the server's HTML of `path` has it. */
    const head = (path?: string) =>
      page.evaluate(async (p) => {
        const doc = p ? new DOMParser().parseFromString(await (await fetch(p)).text(), "text/html") : document;
        return {
          title: doc.title,
          description: doc.querySelector('meta[name="description"]')?.getAttribute("content") ?? null,
          canonical: doc.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? null,
        };
      }, path);
    const pathname = () => new URL(page.url()).pathname;

    await page.goto(`${base}/drops`);
    await page.locator(".header__nav").waitFor();
    expect((await head()).title).toBe("Upcoming drops · Fashion Discovery");

    await page.locator(".header__nav").getByRole("link", { name: "Stores" }).click();
    await page.waitForURL((u) => u.pathname === "/stores");
    const stores = await head("/stores");
    expect(stores.title).toBe("Stores · Fashion Discovery");
    await expect.poll(() => head(), { timeout: 15_000 }).toEqual(stores);

    await page.getByTestId("store-link").first().click();
    await page.waitForURL((u) => /^\/stores\/[^/]+\/[^/]+$/.test(u.pathname));
    await page.getByTestId("store-page").waitFor({ timeout: 20_000 });
    await expect.poll(() => head(), { timeout: 15_000 }).toEqual(await head(pathname()));

    // A product: its card opens the modal, whose link leads to the product's page.
    await page.getByTestId("store-page").getByTestId("product-card").first().click();
    await page.getByTestId("product-modal-full").click();
    await page.waitForURL((u) => u.pathname.startsWith("/products/"));
    await page.getByTestId("product-page").waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await head()).title, { timeout: 15_000 }).not.toBe("Product · Fashion Discovery");
    expect(await head()).toEqual(await head(pathname()));
  });

  it("no storefront page is wider than a phone's screen", async () => {
    const { page } = sessions.mobile;
    current = page;
    const [product] = (await apiGet<{ products: { id: string; handle: string }[] }>(base, "/products?limit=1")).products;
    const { stores } = await apiGet<{ stores: { id: string; handle: string }[] }>(base, "/stores?take=1");
    const paths = [
      "/",
      "/mens/stores",
      productPath(product),
      `/stores/${stores[0].id}/${stores[0].handle}`,
      "/saved",
      "/following",
      "/my-collections",
      "/try-ons",
      "/account",
      "/login",
      "/assistant",
      "/photo-search",
      "/cart",
      "/no-such-page",
    ];
    const wide: string[] = [];
    for (const p of paths) {
      await page.goto(`${base}${p}`);
      await page.locator("main").waitFor();
      await settle(page);
      const extra = await overflow(page);
      if (extra > 0) wide.push(`${p}: ${extra}px too wide`);
    }
    expect(wide).toEqual([]);
  });
});
