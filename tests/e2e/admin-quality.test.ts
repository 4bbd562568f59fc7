/**
 * Admin screens as a merchant sees them in Chromium (issue 20, item 5): at 1366×900 the review
 * moderation table fits its card (no horizontal cut-off: Publish and Reject inside the table's box
 * and the viewport), every other admin list page fits too (no table or other scroll box wider than
 * its box, no page wider than the window), list titles are not default blue underlined links; on a
 * phone (390×844) the main lists are stacked rows inside the screen with their links and actions;
 * an unknown admin address shows "Page not found" inside the frame with the navigation.
 * Screenshots at 1366×900 and 390×844.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, reportFailedTest, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Each index table's scroll box on the page: its content width against its visible width. */
async function tableBoxes(page: Page): Promise<{ scrollWidth: number; clientWidth: number }[]> {
  return page.$$eval(".Polaris-IndexTable-ScrollContainer", (els) => els.map((e) => ({ scrollWidth: e.scrollWidth, clientWidth: e.clientWidth })));
}

/**
 * What does not fit on the page: the page itself wider than the window, any scroll box (a table's
 * or another) whose content is wider than the box, and on a phone anything of the page's content
 * that reaches past the window's right edge. Polaris' tab strips are left out: on a phone they
 * scroll sideways by design (every tab reachable by a swipe) and keep a hidden "More views" button.
 */
async function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const doc = document.scrollingElement ?? document.documentElement;
    if (doc.scrollWidth > window.innerWidth + 1) found.push(`page ${doc.scrollWidth} px in a ${window.innerWidth} px window`);
    const inTabs = (el: Element) => Boolean(el.closest(".Polaris-Tabs__Outer, .Polaris-Tabs__Wrapper, .Polaris-Tabs"));
    for (const el of document.querySelectorAll(".Polaris-Frame__Main *")) {
      if (inTabs(el)) continue;
      const style = getComputedStyle(el);
      if ((style.overflowX === "auto" || style.overflowX === "scroll") && el.scrollWidth > el.clientWidth + 1) {
        found.push(`${el.className.toString().split(" ")[0] || el.tagName} ${el.scrollWidth} px in a ${el.clientWidth} px box`);
      }
    }
    if (window.innerWidth < 500) {
      const past = [...document.querySelectorAll(".Polaris-Page *")].filter((el) => !inTabs(el) && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > window.innerWidth + 1);
      if (past.length) found.push(`${past.length} elements past the right edge, e.g. "${(past[past.length - 1].textContent ?? "").slice(0, 40)}"`);
    }
    return found;
  });
}

/** The admin list pages (path, the rows' title link if the demo data has rows, a screenshot name if the page was fixed for issue 20). */
type ListPage = { path: string; link?: string; shot?: string };
const LIST_PAGES: ListPage[] = [
  { path: "/app/orders", link: "order-link", shot: "admin-orders" },
  { path: "/app/orders/analytics" },
  { path: "/app/returns", link: "return-link", shot: "admin-returns" },
  { path: "/app/returns?view=requests", link: "request-link", shot: "admin-return-requests" },
  { path: "/app/products", link: "product-link", shot: "admin-products" },
  { path: "/app/import" },
  { path: "/app/stores", link: "store-link", shot: "admin-stores" },
  { path: "/app/collections", link: "collection-link" },
  { path: "/app/styles", link: "style-link" },
  { path: "/app/drops" },
  { path: "/app/media" },
  { path: "/app/proposed-images" },
  { path: "/app/proposed-edits" },
  { path: "/app/clones" },
  { path: "/app/sync" },
  { path: "/app/reviews" },
  { path: "/app/api-keys" },
  { path: "/app/privacy" },
  { path: "/app/admins" },
  { path: "/app/vendors", link: "vendor-link", shot: "admin-vendors" },
  { path: "/app/ads", link: "ad-link", shot: "admin-ads" },
  { path: "/app/ads/requests", link: "request-link", shot: "admin-ad-requests" },
  { path: "/app/ads/features", shot: "admin-ad-features" },
];
/** A vendor's own lists as the team sees them (the vendor's id from the vendors list). */
const VENDOR_PAGES = ["/products", "/stores", "/payouts", "/ads"];
/** The lists checked on a phone too: the ones a merchant works through daily. */
const PHONE_PAGES = LIST_PAGES.filter((p) => p.shot);

async function openList(page: Page, target: ListPage): Promise<void> {
  await page.goto(`${base}${target.path}`);
  await page.locator(".Polaris-Page").first().waitFor({ timeout: 30_000 });
  if (target.link) await page.getByTestId(target.link).first().waitFor({ timeout: 30_000 });
}

describe("admin screens (Chromium, demo data)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let problems: string[] = [];
  beforeAll(async () => {
    ({ page, close, problems } = await launchStaffBrowser(base, { next: "/app" }));
    await page.setViewportSize(DESKTOP);
  });
  afterAll(() => close?.());
  afterEach((t) => reportFailedTest(t, page, { name: "admin-quality", problems }));

  it("the review moderation table fits at 1366×900: Publish and Reject are inside the table and the viewport", async () => {
    await page.goto(`${base}/app/reviews?status=pending`);
    const publish = page.getByRole("button", { name: /^Publish the review by/ }).first();
    await publish.waitFor({ timeout: 30_000 });
    for (const box of await tableBoxes(page)) expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth + 1);
    const table = (await page.locator(".Polaris-IndexTable-ScrollContainer").first().boundingBox())!;
    for (const button of [publish, page.getByRole("button", { name: /^Reject the review by/ }).first()]) {
      const b = (await button.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(table.x);
      expect(b.x + b.width).toBeLessThanOrEqual(table.x + table.width + 1);
      expect(b.x + b.width).toBeLessThanOrEqual(DESKTOP.width);
    }
    await screenshot(page, "admin-reviews-1366");
  });

  it("every admin list page fits at 1366×900, and list titles are not blue underlined links", async () => {
    await page.goto(`${base}/app/vendors`);
    const vendor = await page.getByTestId("vendor-link").first().getAttribute("href");
    const pages: ListPage[] = [...LIST_PAGES, { path: vendor! }, ...VENDOR_PAGES.map((p) => ({ path: `${vendor}${p}` }))];
    const problems: string[] = [];
    for (const target of pages) {
      await openList(page, target);
      for (const o of await overflows(page)) problems.push(`${target.path}: ${o}`);
      if (target.shot) await screenshot(page, `${target.shot}-1366`);
      if (!target.link) continue;
      const look = await page.getByTestId(target.link).first().evaluate((a) => {
        const s = getComputedStyle(a);
        return { underline: s.textDecorationLine.includes("underline"), color: s.color };
      });
      expect(look.underline, target.path).toBe(false);
      expect(look.color, target.path).not.toBe("rgb(0, 0, 238)");
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it("the returns list's links and refunds are inside its box at 1366×900", async () => {
    await openList(page, { path: "/app/returns", link: "return-link" });
    const table = (await page.locator(".Polaris-IndexTable-ScrollContainer").first().boundingBox())!;
    const lastHeading = (await page.getByRole("columnheader", { name: "Refund" }).boundingBox())!;
    expect(lastHeading.x + lastHeading.width).toBeLessThanOrEqual(table.x + table.width + 1);
    expect(table.x + table.width).toBeLessThanOrEqual(DESKTOP.width);
  });

  it("an unknown admin address shows Page not found inside the frame, navigation kept", async () => {
    const res = await page.goto(`${base}/app/anything-unknown`);
    expect(res?.status()).toBe(404);
    await page.getByTestId("admin-not-found").waitFor();
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    expect(await page.getByText("Unhandled Thrown Response").count()).toBe(0);
    // The navigation is there and works.
    await page.getByRole("link", { name: "Reviews", exact: true }).first().waitFor();
    await screenshot(page, "admin-not-found-1366");
    await page.getByRole("link", { name: "Go to the home page" }).click();
    await page.waitForURL((u) => u.pathname === "/app");
  });

  it("on a phone (390×844): the reviews and the main lists as stacked rows inside the screen with their links and actions, the not-found page with the menu", async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${base}/app/reviews?status=pending`);
    const publish = page.getByRole("button", { name: /^Publish the review by/ }).first();
    await publish.waitFor({ timeout: 30_000 });
    // Polaris switches the table to its condensed (stacked) layout after hydration, from the breakpoint.
    await expect.poll(async () => {
      const b = (await publish.boundingBox())!;
      return b.x + b.width;
    }, { timeout: 15_000 }).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "admin-reviews-390");
    const problems: string[] = [];
    for (const target of PHONE_PAGES) {
      await openList(page, target);
      // Stacked rows (Polaris' condensed list) once hydrated: the breakpoint is known in the browser only.
      await page.locator(".Polaris-IndexTable__CondensedList").first().waitFor({ timeout: 15_000 });
      for (const o of await overflows(page)) problems.push(`${target.path}: ${o}`);
      if (target.link) {
        const link = (await page.getByTestId(target.link).first().boundingBox())!;
        expect(link.x + link.width, target.path).toBeLessThanOrEqual(PHONE.width);
      }
      await screenshot(page, `${target.shot}-390`);
    }
    // The decisions on a return request stay on screen.
    await openList(page, { path: "/app/returns?view=requests", link: "request-link" });
    const approve = (await page.getByRole("button", { name: "Approve" }).first().boundingBox())!;
    expect(approve.x + approve.width).toBeLessThanOrEqual(PHONE.width);
    expect(problems).toEqual([]);
    await page.goto(`${base}/app/anything-unknown`);
    await page.getByTestId("admin-not-found").waitFor();
    await screenshot(page, "admin-not-found-390");
    // The frame's navigation toggle opens the navigation.
    await page.getByRole("button", { name: /toggle menu|navigation/i }).first().click();
    await page.getByRole("link", { name: "Reviews", exact: true }).first().waitFor({ state: "visible" });
    await page.setViewportSize(DESKTOP);
  }, 240_000);
});
