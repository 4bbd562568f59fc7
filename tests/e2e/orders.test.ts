/**
 * Orders, returns and notifications in Chromium against the real server with demo data, as the demo
 * shopper: the orders list (10, then more) → an order's detail (statuses, tracking) → requesting a
 * return → the returns timeline; cancelling an unsent order with a reason; "Notify me when back in
 * stock" on a sold-out product → the request in the notification settings, then removed; a guest
 * is asked to sign in.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchBrowser, openAccountMenu, screenshot, screenshotAtSizes, signInShopper } from "../helpers/browser";

const base = inject("e2eBaseUrl");

type Card = { id: string; handle: string; title: string; availableForSale: boolean };
type Summary = { id: string; name: string; stage: string; can_cancel: boolean };

/** The API as the signed-in page sees it (same cookies). */
async function apiInPage<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const res = await fetch(`/api${p}`, { credentials: "include" });
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    return res.json();
  }, path) as Promise<T>;
}

const short = (id: string) => id.split("/").pop()!;

describe("orders, returns and notifications (Chromium, demo data)", () => {
  let page: Page;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ page, close } = await launchBrowser());
    await signInShopper(page, base);
  });
  afterAll(() => close?.());

  it("orders list → order detail → request a return → the returns timeline", async () => {
    await openAccountMenu(page);
    await page.getByTestId("account-orders-link").click();
    await page.waitForURL((u) => u.pathname === "/account/orders");
    const cards = page.getByTestId("order-card");
    await cards.first().waitFor({ timeout: 20_000 });
    expect(await cards.count()).toBe(10);
    await page.getByTestId("orders-more").click();
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBeGreaterThan(10);
    expect(await page.getByTestId("orders-more").count()).toBe(0);
    await screenshot(page, "orders-list");

    // A delivered order that can still be returned (found through the API the page uses).
    const { items } = await apiInPage<{ items: Summary[] }>(page, "/users/orders?limit=50");
    let target: { id: string; name: string; item: string } | null = null;
    for (const o of items.filter((x) => x.stage === "delivered")) {
      const d = await apiInPage<{ can_return: boolean; items: { id: string; returnable: boolean }[] }>(page, `/users/orders/${short(o.id)}`);
      const item = d.items.find((i) => i.returnable);
      if (item) {
        target = { id: o.id, name: o.name, item: item.id };
        break;
      }
    }
    expect(target).not.toBeNull();

    await page.locator(`[data-testid="order-card"][data-order-id="${target!.id}"] a`).click();
    await page.waitForURL((u) => u.pathname === `/account/orders/${short(target!.id)}`);
    const detail = page.getByTestId("order-detail");
    await detail.waitFor();
    expect(await detail.getByRole("heading", { level: 1 }).textContent()).toBe(`Order ${target!.name}`);
    expect(await page.getByTestId("order-detail-stage").textContent()).toBe("Delivered");
    expect(await page.getByTestId("order-item-status").first().textContent()).toBe("Delivered");
    const tracking = page.getByTestId("tracking-link").first();
    expect(await tracking.getAttribute("href")).toMatch(/^https:\/\//);
    expect(await tracking.getAttribute("target")).toBe("_blank");
    // A delivered order cannot be cancelled.
    expect(await page.getByTestId("order-cancel-open").count()).toBe(0);

    await page.getByTestId("order-return-open").click();
    const form = page.getByTestId("order-return-form");
    await form.waitFor();
    // Nothing chosen yet: the request cannot be sent.
    expect(await page.getByTestId("order-return-submit").isDisabled()).toBe(true);
    await form.locator(`[data-testid="order-return-item"][data-item-id="${target!.item}"]`).check();
    await page.getByTestId("order-return-reason").selectOption("SIZE_TOO_LARGE");
    await page.getByTestId("order-return-note").fill("One size too big");
    await screenshot(page, "orders-return-form");
    await page.getByTestId("order-return-submit").click();
    await page.getByTestId("order-return-done").waitFor({ timeout: 15_000 });
    const badge = page.locator(`[data-testid="order-item"][data-item-id="${target!.item}"] [data-testid="order-item-return"]`);
    await badge.waitFor({ timeout: 10_000 });
    expect(await badge.textContent()).toBe("Return: Requested");
    await screenshotAtSizes(page, "orders-return-requested", badge);

    await page.getByTestId("orders-nav-returns").click();
    await page.waitForURL((u) => u.pathname === "/account/returns");
    const first = page.getByTestId("return-card").first();
    await first.waitFor({ timeout: 15_000 });
    expect(await first.textContent()).toContain(`order ${target!.name}`);
    expect(await first.textContent()).toContain("Too large");
    expect(await first.getByTestId("return-status").textContent()).toBe("Requested");
    const steps = first.getByTestId("timeline-step");
    expect(await steps.count()).toBe(6);
    expect(await steps.first().getAttribute("data-state")).toBe("current");
    expect(await steps.nth(1).getAttribute("data-state")).toBe("upcoming");
    // The demo's other returns show later points of the timeline.
    expect(await page.locator('[data-testid="timeline-step"][data-step="refunded"][data-state="current"]').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('[data-testid="timeline-step"][data-step="in_transit"][data-state="current"]').count()).toBeGreaterThanOrEqual(1);
    await screenshot(page, "orders-returns-timeline");
  });

  it("cancels an order that has not been sent, with a reason", async () => {
    const { items } = await apiInPage<{ items: Summary[] }>(page, "/users/orders?limit=50");
    const open = items.find((o) => o.can_cancel);
    expect(open).toBeTruthy();
    await page.goto(`${base}/account/orders/${short(open!.id)}`);
    await page.getByTestId("order-cancel-open").click();
    expect(await page.getByTestId("order-cancel-submit").isDisabled()).toBe(true);
    await page.getByTestId("order-cancel-reason").selectOption("CHANGED_MIND");
    await page.getByTestId("order-cancel-submit").click();
    await page.getByTestId("order-cancelled-notice").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("order-detail-stage").textContent()).toBe("Cancelled");
    expect(await page.getByTestId("order-cancel-open").count()).toBe(0);
    await screenshot(page, "orders-cancelled");
  });

  it("a back-in-stock request made on a sold-out product appears in the notification settings, and can be removed", async () => {
    const waiting = await apiInPage<{ items: { product: { id: string } | null }[] }>(page, "/users/notification-requests?limit=100");
    const taken = new Set(waiting.items.map((r) => r.product?.id));
    let soldOut: Card | undefined;
    let cursor: string | null = null;
    for (let i = 0; i < 10 && !soldOut; i++) {
      const r: { products: Card[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } } = await apiInPage(page, `/products?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      soldOut = r.products.find((p) => !p.availableForSale && !taken.has(p.id));
      cursor = r.pageInfo.hasNextPage ? r.pageInfo.endCursor : null;
      if (!cursor) break;
    }
    expect(soldOut).toBeTruthy();

    await page.goto(`${base}/products/${short(soldOut!.id)}/${soldOut!.handle}`);
    const button = page.getByTestId("back-in-stock-button");
    await button.waitFor({ timeout: 20_000 });
    await button.click();
    await page.getByTestId("back-in-stock-done").waitFor({ timeout: 10_000 });
    await screenshot(page, "orders-back-in-stock");

    await page.goto(`${base}/account/notifications`);
    const row = page.locator('[data-testid="notification-request"]', { hasText: soldOut!.title });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getAttribute("data-kind")).toBe("back_in_stock");
    expect(await row.getByTestId("notification-status").textContent()).toBe("Waiting");
    expect(await page.getByTestId("notification-request").count()).toBe(waiting.items.length + 1);
    await screenshot(page, "orders-notifications");

    await row.getByTestId("notification-remove").click();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    const after = await apiInPage<{ items: { product: { id: string } | null }[] }>(page, "/users/notification-requests?limit=100");
    expect(after.items.some((r) => r.product?.id === soldOut!.id)).toBe(false);
  });

  it("asks a guest to sign in before a back-in-stock request", async () => {
    const guest = await launchBrowser();
    try {
      const p = guest.page;
      // A product the demo shopper waits for as a whole: sold out in every size and colour.
      const waiting = await apiInPage<{ items: { product: { id: string; handle: string } | null; variant: unknown }[] }>(page, "/users/notification-requests?kind=back_in_stock");
      const product = waiting.items.find((r) => r.product && r.variant === null)!.product!;
      await p.goto(`${base}/products/${short(product.id)}/${product.handle}`);
      const button = p.getByTestId("back-in-stock-button");
      await button.waitFor({ timeout: 20_000 });
      await button.click();
      const prompt = p.getByTestId("login-prompt");
      await prompt.waitFor();
      expect(await prompt.textContent()).toContain("User is not authenticated");
      expect(await prompt.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/login");
      await p.goto(`${base}/account/orders`);
      await p.getByTestId("orders-signin").waitFor({ timeout: 20_000 });
    } finally {
      await guest.close();
    }
  });
});
