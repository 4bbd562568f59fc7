/**
 * The theme app extension's blocks in Chromium, on the local theme preview (/theme-preview: the
 * blocks' real Liquid rendered with their built scripts) against the real server with demo data.
 * Every call goes through the local App Proxy stand-in (/apps/fashion → signed → /proxy), as on a
 * store: the app embed's guest session and recorded view, the save button, the rating summary,
 * the reviews list and write-a-review (with a photo), similar and frequently-bought-together
 * products, the try-on link and the photo search with tests/fixtures/theme-blocks/look.jpg
 * (1500×2000 JPEG with EXIF camera fields), and a logged-in customer taking over a guest's saves.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { launchBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const FIXTURE = path.resolve(__dirname, "../fixtures/theme-blocks/look.jpg");
const SESSION_KEY = "fashion-discovery:theme-session";
const RECENT_KEY = "fashion-discovery:recently-viewed";

async function api<T = any>(method: string, p: string, opts: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}/api${p}`, {
    method,
    headers: {
      accept: "application/json",
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

const enc = encodeURIComponent;
const numericId = (gid: string) => gid.split("/").pop()!;

/** The JPEG inside a multipart body. */
function jpegIn(body: Buffer): Buffer {
  const start = body.indexOf(Buffer.from([0xff, 0xd8, 0xff]));
  const end = body.lastIndexOf(Buffer.from([0xff, 0xd9]));
  return body.subarray(start, end + 2);
}

async function storedSession(page: Page): Promise<{ token: string; userId: string } | null> {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "null"), SESSION_KEY);
}

describe("theme app blocks (Chromium, theme preview, demo data)", () => {
  let context: BrowserContext;
  let page: Page;
  let close: () => Promise<void>;
  let adminToken: string;
  let product: { id: string; handle: string; title: string };
  const reviewText = `Theme block review ${Date.now()}: the fabric is soft and the fit is true to size.`;

  beforeAll(async () => {
    const b = await launchBrowser();
    context = b.context;
    page = b.page;
    close = b.close;
    page.on("pageerror", (e) => console.warn("[page error]", e.message));

    const login = await api<{ token: string }>("POST", "/auth/login", { body: { email: "admin@demo.local", password: "demo-password" } });
    expect(login.status).toBe(200);
    adminToken = login.body.token;

    // A product with similar and frequently-bought-together products…
    const { body: list } = await api<{ products: { id: string; handle: string; title: string }[] }>("GET", "/products?limit=40");
    for (const p of list.products) {
      const similar = await api<{ results: unknown[] }>("GET", `/shopify/companion/similar/${enc(p.id)}?limit=4`);
      const fbt = await api<{ results: unknown[] }>("GET", `/recommendations/frequently-bought-together/${enc(p.id)}?limit=4`);
      if (similar.body.results.length && fbt.body.results.length) {
        product = p;
        break;
      }
    }
    expect(product, "a demo product with recommendations").toBeDefined();
    // …and at least one approved review (published by a moderator).
    const created = await api("POST", "/product-reviews/admin", {
      token: adminToken,
      body: { product_id: product.id, rating: 4, title: "Lovely", body: "Published for the theme block test.", name: "Ada", publish: true },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
  afterAll(() => close?.());

  it("the home page: the app embed starts a guest session through the App Proxy; the feed and the photo search render", async () => {
    const guest = page.waitForResponse((r) => r.url().endsWith("/apps/fashion/api/users/guest") && r.request().method() === "POST");
    await page.goto(`${base}/theme-preview`);
    expect((await guest).status()).toBe(201);
    const embed = page.locator(".fd-app-embed");
    await expect.poll(() => embed.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    expect(await embed.getAttribute("data-session")).toBe("guest");
    const session = await storedSession(page);
    expect(session?.token).toEqual(expect.any(String));
    // The token is the guest's: the API knows it.
    const me = await api<{ id: string; auth_provider: string }>("GET", "/users/me", { token: session!.token });
    expect(me.body).toMatchObject({ id: session!.userId, auth_provider: "guest" });

    await page.locator(".fd-product-feed .fd-card").first().waitFor({ timeout: 20_000 });
    expect(await page.locator(".fd-product-feed .fd-card").count()).toBeGreaterThan(0);
    await page.locator(".fd-photo-search.fd-photo-search--ready").waitFor();

    // A second page keeps the same guest.
    await page.reload();
    await expect.poll(() => embed.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    expect((await storedSession(page))?.userId).toBe(session!.userId);
    await screenshot(page, "theme-blocks-home");
  });

  it("the product page: the app embed records the view (server event and recently viewed, read by the storefront)", async () => {
    const view = page.waitForResponse((r) => r.url().endsWith("/apps/fashion/api/users/view-product"));
    await page.goto(`${base}/theme-preview/products/${numericId(product.id)}`);
    const viewRes = await view;
    expect(viewRes.status()).toBe(201);
    expect(await viewRes.json()).toMatchObject({ productId: product.id });
    const embed = page.locator(".fd-app-embed");
    await expect.poll(() => embed.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    expect(await embed.getAttribute("data-viewed")).toBe("local");
    expect(await embed.getAttribute("data-view-recorded")).toBe("true");
    const recent = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "[]"), RECENT_KEY);
    expect(recent[0]).toMatchObject({ id: product.id, handle: product.handle, title: product.title });

    // The storefront (same origin here) reads the same list.
    await page.goto(`${base}/`);
    const home = page.getByTestId("recently-viewed");
    await home.waitFor({ timeout: 30_000 });
    expect(await home.locator('[data-testid="product-card"]').first().getAttribute("data-product-id")).toBe(product.id);
  });

  it("the save button toggles the product in the guest's saved products, optimistically", async () => {
    await page.goto(`${base}/theme-preview/products/${numericId(product.id)}`);
    const block = page.locator(".fd-save-button");
    const button = block.locator("button");
    await expect.poll(() => button.isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(await button.getAttribute("aria-pressed")).toBe("false");

    const toggled = page.waitForResponse((r) => r.url().endsWith("/apps/fashion/api/users/saved-products/toggle"));
    await button.click();
    expect(await button.getAttribute("aria-pressed")).toBe("true"); // before the answer
    expect(await (await toggled).json()).toMatchObject({ saved: true, product_id: product.id });
    await expect.poll(() => block.getAttribute("data-state")).toBe("ready");
    expect(await block.locator(".fd-save-button__label").textContent()).toBe("Saved");

    const { token } = (await storedSession(page))!;
    const check = await api<{ saved: string[] }>("GET", `/users/saved-products/check?ids=${enc(product.id)}`, { token });
    expect(check.body.saved).toEqual([product.id]);
    // Another shopper does not see it.
    const other = await api<{ token: string }>("POST", "/users/guest");
    expect((await api<{ saved: string[] }>("GET", `/users/saved-products/check?ids=${enc(product.id)}`, { token: other.body.token })).body.saved).toEqual([]);

    // A new page load shows the saved state from the API.
    await page.reload();
    await expect.poll(() => button.getAttribute("aria-pressed"), { timeout: 20_000 }).toBe("true");
    await screenshot(page, "theme-blocks-product");

    // Unsave.
    const again = page.waitForResponse((r) => r.url().endsWith("/apps/fashion/api/users/saved-products/toggle"));
    await button.click();
    expect(await (await again).json()).toMatchObject({ saved: false });
    expect((await api<{ saved: string[] }>("GET", `/users/saved-products/check?ids=${enc(product.id)}`, { token })).body.saved).toEqual([]);
  });

  it("the rating summary and the reviews list show the approved reviews", async () => {
    const summary = await api<{ average: number; count: number }>("GET", `/product-reviews/product/${enc(product.id)}/summary`);
    expect(summary.body.count).toBeGreaterThan(0);
    await page.goto(`${base}/theme-preview/products/${numericId(product.id)}`);
    const rating = page.locator(".fd-rating-summary");
    await expect.poll(() => rating.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    expect(Number(await rating.getAttribute("data-count"))).toBe(summary.body.count);
    expect(await rating.locator(".fd-stars").getAttribute("aria-label")).toMatch(/^Rated \d\.\d out of 5$/);
    expect(await rating.locator("a").getAttribute("href")).toBe("#fashion-reviews");

    const reviews = page.locator(".fd-reviews");
    await expect.poll(() => reviews.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    expect(Number(await reviews.getAttribute("data-total"))).toBe(summary.body.count);
    await expect.poll(() => reviews.locator(".fd-review").count()).toBeGreaterThan(0);
    expect(await reviews.locator(".fd-reviews__bar").count()).toBe(5);
    expect(await reviews.locator(".fd-review__text").allTextContents()).toContain("Published for the theme block test.");
  });

  it("write a review: rating, text and a photo compressed in the browser, posted through the App Proxy, pending moderation", async () => {
    await page.goto(`${base}/theme-preview/products/${numericId(product.id)}`);
    const reviews = page.locator(".fd-reviews");
    await expect.poll(() => reviews.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    await reviews.locator(".fd-reviews__write").click();
    const form = reviews.locator("form.fd-reviews__form");
    await form.waitFor();

    // Without a rating the form says so and sends nothing.
    await form.locator("textarea").fill(reviewText);
    await form.locator("button[type=submit]").click();
    expect(await form.locator(".fd-reviews__form-error").textContent()).toBe("Choose a rating from 1 to 5 stars.");

    await form.locator("label[for$='-r4']").click();
    await form.locator("input[name=title]").fill("Soft and true to size");
    await form.locator("input[type=file]").setInputFiles(FIXTURE);
    expect(await form.locator(".fd-reviews__photo-list li").count()).toBe(1);
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, "theme-blocks-review-form");

    const upload = page.waitForRequest((r) => r.url().endsWith("/apps/fashion/api/product-reviews/images"));
    const created = page.waitForResponse((r) => r.url().endsWith("/apps/fashion/api/product-reviews") && r.request().method() === "POST");
    await form.locator("button[type=submit]").click();
    const sent = jpegIn((await upload).postDataBuffer()!);
    const meta = await sharp(sent).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(1024);
    expect(meta.exif, "EXIF kept").toBeDefined();
    const res = await created;
    expect(res.status()).toBe(201);
    const review = await res.json();
    expect(review).toMatchObject({ rating: 4, title: "Soft and true to size", body: reviewText, status: "pending" });
    expect(review.images).toHaveLength(1);
    await expect.poll(() => reviews.getAttribute("data-form")).toBe("posted");
    // One review per visit: the write button stays hidden; "Show more" only when there are more.
    expect(await reviews.locator(".fd-reviews__write").isVisible()).toBe(false);
    expect(await reviews.locator(".fd-reviews__more").isVisible()).toBe(Number(await reviews.getAttribute("data-total")) > Number(await reviews.getAttribute("data-count")));
    expect(await reviews.locator(".fd-reviews__thanks").textContent()).toContain("once it has been checked");
    await reviews.scrollIntoViewIfNeeded();

    // The moderator sees it pending; it is not public yet.
    const pending = await api<{ reviews: { id: string; body: string; images: string[] }[] }>(
      "GET",
      `/product-reviews/admin?status=pending&product_id=${enc(product.id)}`,
      { token: adminToken },
    );
    expect(pending.body.reviews.find((r) => r.id === review.id)).toMatchObject({ body: reviewText });
    const publicList = await api<{ reviews: { id: string }[] }>("GET", `/product-reviews/product/${enc(product.id)}?take=100`);
    expect(publicList.body.reviews.map((r) => r.id)).not.toContain(review.id);
    await screenshot(page, "theme-blocks-review-posted");
  });

  it("similar products and frequently bought together render product cards", async () => {
    await page.goto(`${base}/theme-preview/products/${numericId(product.id)}`);
    for (const kind of ["similar", "bought-together"]) {
      const block = page.locator(`.fd-recommendations[data-kind="${kind}"]`);
      await expect.poll(() => block.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
      const cards = block.locator(".fd-card");
      expect(await cards.count()).toBeGreaterThan(0);
      expect(await cards.count()).toBeLessThanOrEqual(4);
      const ids = await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-product-id")));
      expect(ids).not.toContain(product.id);
      expect(await cards.first().locator("a").getAttribute("href")).toMatch(/^\/products\//);
    }
    await page.locator('.fd-recommendations[data-kind="bought-together"]').scrollIntoViewIfNeeded();
    await screenshot(page, "theme-blocks-recommendations");
  });

  it("the try-on button opens the storefront's product page with ?tryon=1 (through the App Proxy redirect)", async () => {
    await page.goto(`${base}/theme-preview/products/${numericId(product.id)}`);
    const link = page.locator(".fd-try-on a.fd-try-on__button");
    await expect.poll(() => page.locator(".fd-try-on").getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    const href = await link.getAttribute("href");
    expect(href).toBe(`/apps/fashion/storefront/products/${numericId(product.id)}/${enc(product.handle)}?tryon=1`);
    await link.click();
    await page.waitForURL((u) => u.pathname === `/products/${numericId(product.id)}/${product.handle}` && u.searchParams.get("tryon") === "1");
    await page.getByTestId("product-details").waitFor({ timeout: 30_000 });
  });

  it("the photo search compresses the fixture photo, uploads it through the App Proxy and shows similar products", async () => {
    const original = await sharp(fs.readFileSync(FIXTURE)).metadata();
    expect([original.width, original.height]).toEqual([1500, 2000]);
    await page.goto(`${base}/theme-preview`);
    const block = page.locator(".fd-photo-search");
    await expect.poll(() => block.getAttribute("data-state"), { timeout: 20_000 }).toBe("idle");

    // A file that is not a photo is refused in the browser.
    await block.locator("input[type=file]").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") });
    expect(await block.getAttribute("data-state")).toBe("error");
    expect(await block.locator(".fd-photo-search__status").textContent()).toContain("not a photo we can read");

    const request = page.waitForRequest((r) => r.url().endsWith("/apps/fashion/api/vision/product-search"));
    const answer = page.waitForResponse((r) => r.url().endsWith("/apps/fashion/api/vision/product-search"));
    await block.locator("input[type=file]").setInputFiles(FIXTURE);
    const sent = jpegIn((await request).postDataBuffer()!);
    const meta = await sharp(sent).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(1024);
    expect(meta.format).toBe("jpeg");
    expect(meta.exif, "EXIF kept").toBeDefined();
    const res = await answer;
    expect(res.status()).toBe(200);
    const json = await res.json();
    expect(json.results.length).toBeGreaterThan(0);
    await expect.poll(() => block.getAttribute("data-state"), { timeout: 30_000 }).toBe("ready");
    expect(Number(await block.getAttribute("data-count"))).toBe(json.results.length);
    expect(await block.locator(".fd-card").count()).toBe(json.results.length);
    expect(await block.locator(".fd-photo-search__status").textContent()).toBe(`${json.results.length} similar products`);
    await block.scrollIntoViewIfNeeded();
    // The cards' images load (the app's /uploads/ files through the App Proxy redirect).
    const firstImage = block.locator(".fd-card img").first();
    await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0, await firstImage.elementHandle(), { timeout: 15_000 });
    await screenshot(page, "theme-blocks-photo-search");
  });

  it("a logged-in customer: the app embed merges the guest's saves into the customer and drops the guest token", async () => {
    // As a guest: save the product.
    await page.goto(`${base}/theme-preview/products/${numericId(product.id)}`);
    const button = page.locator(".fd-save-button button");
    await expect.poll(() => button.isEnabled(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.locator(".fd-app-embed").getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    if ((await button.getAttribute("aria-pressed")) !== "true") {
      const toggled = page.waitForResponse((r) => r.url().endsWith("/apps/fashion/api/users/saved-products/toggle"));
      await button.click();
      expect(await (await toggled).json()).toMatchObject({ saved: true });
    }
    const guest = (await storedSession(page))!;

    // The shopper logs in on the store (simulated: the preview's customer cookie).
    const customerId = String(Date.now()).slice(-9);
    await context.addCookies([{ name: "fd_preview_customer", value: customerId, url: base }]);
    const merge = page.waitForResponse((r) => r.url().endsWith("/apps/fashion/api/users/merge-guest-into-me"));
    await page.reload();
    const merged = await merge;
    expect(merged.status()).toBe(200);
    expect((await merged.json()).merged.savedProducts).toBeGreaterThanOrEqual(1);
    const embed = page.locator(".fd-app-embed");
    await expect.poll(() => embed.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    expect(await embed.getAttribute("data-session")).toBe("customer");
    expect(await storedSession(page)).toBeNull();
    // The save button now reads the customer's saved products (through the proxy's customer mapping).
    await expect.poll(() => button.getAttribute("aria-pressed"), { timeout: 20_000 }).toBe("true");
    // The guest's token no longer holds the save.
    const check = await api<{ saved: string[] }>("GET", `/users/saved-products/check?ids=${enc(product.id)}`, { token: guest.token });
    expect(check.status === 401 || check.body.saved.length === 0).toBe(true);
    await context.clearCookies();
  });
});
