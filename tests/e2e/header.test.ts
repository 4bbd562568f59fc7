/**
 * The storefront header with a signed-in shopper at 1280 px and 375 px: nothing overflows the
 * viewport, the account area stays on one line, and the shopper's pages (Account, Orders, Returns,
 * Reviews to write, Notifications, My clones) are in the account menu, which opens and closes
 * (navigation, Escape, a click elsewhere). Sign out stays in the header. A menu opened while the
 * page the shopper is being sent to still loads stays open when that page arrives.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, screenshot, signInShopper, submitShopperSignIn, DEMO_SHOPPER, DEMO_PASSWORD } from "../helpers/browser";

const base = inject("e2eBaseUrl");

/** Elements of the header sticking out of the viewport, and the page's horizontal overflow. */
async function layout(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const outside = [...document.querySelectorAll(".header *")]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && (r.right > width + 0.5 || r.left < -0.5);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${(el as HTMLElement).className}`);
    const account = document.querySelector(".header .account")!.getBoundingClientRect();
    const signOut = [...document.querySelectorAll(".header button")].find((b) => b.textContent === "Sign out")!.getBoundingClientRect();
    return { outside, scrollWidth: document.documentElement.scrollWidth, width, accountHeight: account.height, signOutVisible: signOut.width > 0 };
  });
}

describe("storefront header (Chromium, demo shopper)", () => {
  let browser: Browser;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ browser, close } = await launchBrowser());
  });
  afterAll(() => close?.());

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 375, height: 812 },
  ]) {
    it(`fits at ${viewport.width} px; the account menu holds the shopper's pages`, async () => {
      const context = await browser.newContext({ viewport });
      try {
        const page = await context.newPage();
        await signInShopper(page, base);
        await page.getByTestId("account-menu-button").waitFor();
        const l = await layout(page);
        expect(l.outside).toEqual([]);
        expect(l.scrollWidth).toBeLessThanOrEqual(l.width);
        expect(l.accountHeight).toBeLessThanOrEqual(48); // one line, not wrapped
        expect(l.signOutVisible).toBe(true);

        const menu = page.getByTestId("account-menu");
        const button = page.getByTestId("account-menu-button");
        expect(await menu.isVisible()).toBe(false);
        expect(await button.getAttribute("aria-expanded")).toBe("false");
        await button.click();
        await menu.waitFor();
        expect(await button.getAttribute("aria-expanded")).toBe("true");
        expect(await menu.locator(".account__email").textContent()).toBe("shopper@demo.local");
        expect(await menu.getByRole("link").allTextContents()).toEqual(["Account", "Orders", "Returns", "Reviews to write", "Notifications", "My clones"]);
        const box = (await menu.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `header-menu-${viewport.width}`);

        // Escape closes and gives the focus back; a click elsewhere closes.
        await page.keyboard.press("Escape");
        await menu.waitFor({ state: "hidden" });
        expect(await button.evaluate((b) => b === document.activeElement)).toBe(true);
        await button.click();
        await menu.waitFor();
        // A point of the page far from the header and the menu: the feed below keeps loading and
        // moving, so a click on an element of it waits for a stability it may never reach.
        await page.mouse.click(2, viewport.height - 2);
        await menu.waitFor({ state: "hidden" });

        // A link navigates and closes the menu.
        await button.click();
        await page.getByTestId("account-returns-link").click();
        await page.waitForURL((u) => u.pathname === "/account/returns");
        await menu.waitFor({ state: "hidden" });
        await screenshot(page, `header-${viewport.width}`);
      } finally {
        await context.close();
      }
    });
  }

  it("a menu opened while the next page's code still loads stays open when that page arrives", async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    try {
      const page = await context.newPage();
      // The page after sign-in (the shopper's home) waits for its code: the route commits ~1.5 s after
      // the address bar changed, the window in which the menu used to close on its own.
      await page.goto(`${base}/login`);
      await page.getByTestId("header-saved-link").first().waitFor({ state: "attached", timeout: 30_000 });
      await page.route(/\/sf-assets\/.*\.js$/, async (route) => {
        await new Promise((r) => setTimeout(r, 1_500));
        await route.continue();
      });
      await submitShopperSignIn(page, base, DEMO_SHOPPER, DEMO_PASSWORD, { alreadyOnLogin: true });
      const button = page.getByTestId("account-menu-button");
      await button.waitFor({ timeout: 20_000 });
      await button.click();
      const menu = page.getByTestId("account-menu");
      await menu.waitFor();
      await page.waitForURL((u) => u.pathname !== "/login", { timeout: 20_000 });
      await page.waitForLoadState("networkidle").catch(() => undefined);
      expect(await menu.isVisible()).toBe(true);
      expect(await button.getAttribute("aria-expanded")).toBe("true");
    } finally {
      await context.close();
    }
  });
});
