/**
 * Discovery screens in Chromium against the real server with demo data: the home feed (first page,
 * infinite scroll), the product modal, the product page (related feed, recently viewed), search
 * (debounce, sort, filters, page sizes on mobile and desktop) and the photo search.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import sharp from "sharp";
import type { Browser, Page, Request } from "playwright-core";
import { launchBrowser, screenshot, signInShopper, withoutEmbeddedAnswers } from "../helpers/browser";

const base = inject("e2eBaseUrl");

const isSearchCall = (r: Request) => r.method() === "POST" && new URL(r.url()).pathname === "/api/search";

async function feedProductCount(page: Page): Promise<number> {
  // Products of the feed itself (not those inside insertions)
  return page.locator('[data-testid="home-feed"] > [data-testid="product-card"]').count();
}

async function searchCount(page: Page): Promise<number> {
  const text = (await page.getByTestId("search-count").textContent()) ?? "";
  return Number(/^(\d+)/.exec(text.trim())?.[1] ?? NaN);
}

/** A camera-like JPEG: a demo product photo at 1800×2400 with EXIF camera fields. */
async function cameraJpeg(): Promise<Buffer> {
  const demo = Buffer.from(await (await fetch(`${base}/uploads/images/demo/shorts-black-solid.jpg`)).arrayBuffer());
  return sharp(demo).resize(1800, 2400).jpeg({ quality: 90 }).withExif({ IFD0: { Make: "E2E-Camera", Model: "Fixture 1" } }).toBuffer();
}

/** The JPEG inside a multipart body. */
function jpegIn(body: Buffer): Buffer {
  const start = body.indexOf(Buffer.from([0xff, 0xd8, 0xff]));
  const end = body.lastIndexOf(Buffer.from([0xff, 0xd9]));
  return body.subarray(start, end + 2);
}

async function cardPrices(page: Page): Promise<number[]> {
  const texts = await page.getByTestId("search-results").locator(".card__price").allTextContents();
  return texts.map((t) => Number(t.replace(/[^0-9.]/g, "")));
}

describe("discovery (Chromium, demo data)", () => {
  let browser: Browser;
  let page: Page;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ browser, page, close } = await launchBrowser());
  });
  afterAll(() => close?.());

  it("the home feed shows its first page, then loads more on scroll", async () => {
    await page.goto(`${base}/`);
    const feed = page.getByTestId("home-feed");
    await feed.waitFor({ timeout: 30_000 });
    expect(await feed.getAttribute("data-pages")).toBe("1");
    // First page: 6 random + up to 6 related products, and insertions between them
    const first = await feedProductCount(page);
    expect(first).toBeGreaterThanOrEqual(6);
    expect(first).toBeLessThanOrEqual(12);
    expect(await page.getByTestId("feed-insertion").count()).toBeGreaterThanOrEqual(1);
    await page.getByTestId("feed-insertion").first().locator('[data-testid="product-card"]').first().waitFor();
    await screenshot(page, "discovery-home");

    // Infinite scroll: reaching the end of the feed loads the next pages
    for (let i = 0; i < 10 && Number(await feed.getAttribute("data-pages")) < 3; i++) {
      await page.getByTestId("home-feed-footer").scrollIntoViewIfNeeded();
      await page.waitForTimeout(400);
    }
    expect(Number(await feed.getAttribute("data-pages"))).toBeGreaterThanOrEqual(3);
    expect(await feedProductCount(page)).toBeGreaterThan(first);
    // no product twice
    const ids = await page.locator('[data-testid="home-feed"] > [data-testid="product-card"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-product-id")));
    expect(new Set(ids).size).toBe(ids.length);
    await screenshot(page, "discovery-home-scrolled");
  });

  it("a feed card opens the product modal in place; Escape closes it and focus stays inside while open", async () => {
    await page.goto(`${base}/`);
    const card = page.locator('[data-testid="home-feed"] > [data-testid="product-card"]').first();
    await card.waitFor({ timeout: 30_000 });
    const title = (await card.getAttribute("aria-label")) ?? "";
    await card.locator("a.card__link").click();
    const modal = page.getByTestId("product-modal");
    await modal.waitFor();
    await page.waitForURL((u) => u.pathname === "/" && u.searchParams.has("product"));
    await modal.getByRole("heading", { name: title }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("product-modal-close");
    // Recommendations in batches of 20
    const recs = page.getByTestId("modal-recommendations");
    await recs.locator('[data-testid="product-card"]').first().waitFor({ timeout: 20_000 });
    const n = Number(await recs.getAttribute("data-count"));
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThanOrEqual(20);
    await screenshot(page, "discovery-modal");
    // Focus is trapped: Shift+Tab from the first control goes to the last one inside the dialog
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="product-modal"]'))).toBe(true);
    for (let i = 0; i < 5; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="product-modal"]'))).toBe(true);
    await page.keyboard.press("Escape");
    await modal.waitFor({ state: "detached" });
    expect(new URL(page.url()).searchParams.has("product")).toBe(false);
    // The address opens it directly, and the close button closes it
    const id = await card.getAttribute("data-product-id");
    await page.goto(`${base}/?product=${encodeURIComponent(id!.split("/").pop()!)}`);
    await page.getByTestId("product-modal").getByRole("heading", { name: title }).waitFor({ timeout: 20_000 });
    await page.getByTestId("product-modal-close").click();
    await page.getByTestId("product-modal").waitFor({ state: "detached" });
  });

  it("the product page shows the product, its store, related products by batches of 20, and records recently viewed", async () => {
    const views: string[] = [];
    const onRequest = (r: Request) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/api/users/view-product") views.push(r.postData() ?? "");
    };
    page.on("request", onRequest);
    await page.goto(`${base}/products/1038`);
    await page.waitForURL((u) => u.pathname === "/products/1038/denim-bermuda-shorts");
    await page.getByRole("heading", { level: 1, name: "Denim Bermuda Shorts" }).waitFor({ timeout: 20_000 });
    await page.getByTestId("product-store-link").waitFor();
    expect(await page.getByTestId("product-price").textContent()).toContain("65.00");
    // Options: choosing a colour changes the variant
    await page.getByTestId("product-option-color").getByRole("button", { name: /Color Sand/ }).click();
    expect(await page.getByTestId("product-variant").textContent()).toContain("Sand");
    const related = page.getByTestId("related");
    // Related products are asked for when their section comes near the screen, not with the product.
    await related.scrollIntoViewIfNeeded();
    await related.locator('[data-testid="product-card"]').first().waitFor({ timeout: 20_000 });
    expect(Number(await related.getAttribute("data-count"))).toBe(20);
    await screenshot(page, "discovery-product");
    for (let i = 0; i < 10 && Number(await related.getAttribute("data-count")) <= 20; i++) {
      await page.getByTestId("related-footer").scrollIntoViewIfNeeded();
      await page.waitForTimeout(400);
    }
    expect(Number(await related.getAttribute("data-count"))).toBeGreaterThan(20);
    await expect.poll(() => views.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(views[0]).product_id).toBe("gid://shopify/Product/1038");

    // Two more products: the recently viewed list keeps the last 3 and never shows the current one
    const others = await related.locator('[data-testid="product-card"]').evaluateAll((els) => els.slice(0, 3).map((e) => e.querySelector("a")!.getAttribute("href")!));
    for (const href of others) {
      await page.goto(`${base}${href}`);
      await page.getByTestId("product-details").waitFor({ timeout: 20_000 });
    }
    const recent = page.getByTestId("recently-viewed");
    await recent.waitFor();
    const current = await page.getByTestId("product-details").getAttribute("data-product-id");
    const recentIds = await recent.locator('[data-testid="product-card"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-product-id")));
    expect(recentIds).toHaveLength(2);
    expect(recentIds).not.toContain(current);
    await page.goto(`${base}/`);
    const home = page.getByTestId("recently-viewed");
    await home.waitFor({ timeout: 20_000 });
    expect(await home.locator('[data-testid="product-card"]').count()).toBe(3);
    expect(await home.locator('[data-testid="product-card"]').first().getAttribute("data-product-id")).toBe(current);
    page.off("request", onRequest);
  });

  it("the search box is debounced: typing fast sends one search 500 ms after the last key", async () => {
    await page.goto(`${base}/`);
    await page.getByTestId("home-feed").waitFor({ timeout: 30_000 });
    const calls: { at: number; body: string }[] = [];
    const onRequest = (r: Request) => {
      if (isSearchCall(r)) calls.push({ at: Date.now(), body: r.postData() ?? "" });
    };
    page.on("request", onRequest);
    const input = page.getByTestId("search-input");
    await input.click();
    await input.pressSequentially("linen shirt", { delay: 60 });
    const typed = Date.now();
    await page.waitForTimeout(300);
    expect(calls).toHaveLength(0);
    await page.getByTestId("search-results").waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1200);
    page.off("request", onRequest);
    expect(calls).toHaveLength(1);
    expect(calls[0].at - typed).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(calls[0].body)).toMatchObject({ query: "linen shirt", page: 1, limit: 20 });
    expect(new URL(page.url()).searchParams.get("search")).toBe("linen shirt");
    await screenshot(page, "discovery-search");
  });

  it("sort changes the order, with exactly the four options", async () => {
    await page.goto(`${base}/?search=shirt`);
    await page.getByTestId("search-results").waitFor({ timeout: 20_000 });
    const options = await page.getByTestId("search-sort").locator("option").allTextContents();
    expect(options).toEqual(["Relevance", "Price low to high", "Price high to low", "Newest"]);
    await page.getByTestId("search-sort").selectOption("Price low to high");
    await page.waitForURL((u) => u.searchParams.get("sort") === "price-asc");
    const results = page.getByTestId("search-results");
    const shown = async () => `${await results.getAttribute("data-sort")}|${await results.getAttribute("data-state")}`;
    await expect.poll(shown, { timeout: 15_000 }).toBe("Price low to high|ready");
    const asc = await cardPrices(page);
    expect(asc.length).toBeGreaterThan(1);
    expect([...asc].sort((a, b) => a - b)).toEqual(asc);
    await page.getByTestId("search-sort").selectOption("Price high to low");
    await page.waitForURL((u) => u.searchParams.get("sort") === "price-desc");
    await expect.poll(shown, { timeout: 15_000 }).toBe("Price high to low|ready");
    const desc = await cardPrices(page);
    expect(desc[0]).toBeGreaterThan(asc[0]);
    expect([...desc].sort((a, b) => b - a)).toEqual(desc);
  });

  it("parsed chips and facets narrow the results; removing a chip resubmits without auto-parsing", async () => {
    await page.goto(`${base}/?search=linen%20shirt`);
    await page.getByTestId("search-results").waitFor({ timeout: 20_000 });
    const chips = page.getByTestId("search-chip");
    expect(await chips.count()).toBeGreaterThanOrEqual(1);
    const before = await searchCount(page);
    // A colour facet narrows the results: pick one that does not cover every result
    const buttons = page.getByTestId("facet-colors").locator("button");
    const counts = await buttons.locator(".facet__count").allTextContents();
    const index = counts.findIndex((c) => Number(c) > 0 && Number(c) < before);
    expect(index).toBeGreaterThanOrEqual(0);
    const colour = buttons.nth(index);
    const expected = Number(counts[index]);
    await colour.click();
    await page.waitForURL((u) => u.searchParams.has("color"));
    await expect.poll(() => searchCount(page), { timeout: 15_000 }).toBe(expected);
    expect(await searchCount(page)).toBeLessThan(before);
    expect(await colour.getAttribute("aria-pressed")).toBe("true");
    await screenshot(page, "discovery-search-filtered");
    // Removing a parsed chip: raw search of the remaining text with the remaining filters
    const chipCount = await chips.count();
    await chips.first().click();
    await page.waitForURL((u) => u.searchParams.get("raw") === "1");
    await expect.poll(() => chips.count(), { timeout: 15_000 }).toBe(0);
    expect(chipCount).toBeGreaterThan(0);
    expect(await page.getByTestId("search-filter-chip").count()).toBeGreaterThanOrEqual(1);
  });

  it("gives 14 results a page below 768 px and 20 on desktop, pages from 1", async () => {
    await page.goto(`${base}/?search=shirt`);
    const grid = page.getByTestId("search-results");
    await grid.waitFor({ timeout: 20_000 });
    expect(await grid.locator('[data-testid="product-card"]').count()).toBe(20);
    await page.getByTestId("search-page-2").click();
    await page.waitForURL((u) => u.searchParams.get("page") === "2");
    await expect.poll(() => grid.getAttribute("data-page"), { timeout: 15_000 }).toBe("2");

    const mobile = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const m = await mobile.newPage();
      const bodies: string[] = [];
      m.on("request", (r) => {
        if (isSearchCall(r)) bodies.push(r.postData() ?? "");
      });
      await m.goto(`${base}/?search=shirt`);
      const mgrid = m.getByTestId("search-results");
      await mgrid.waitFor({ timeout: 20_000 });
      expect(await mgrid.locator('[data-testid="product-card"]').count()).toBe(14);
      expect(bodies).toHaveLength(1);
      expect(JSON.parse(bodies[0])).toMatchObject({ limit: 14, page: 1 });
      await screenshot(m, "discovery-search-mobile");
    } finally {
      await mobile.close();
    }
  });

  it("photo search: wrong files are refused clearly; a cropped photo is sent at most 1024 px with its EXIF, and results follow the gender", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p = await ctx.newPage();
      await p.goto(`${base}/womens`);
      await p.getByTestId("gender-switch-womenswear").click();
      await p.getByTestId("photo-search-link").click();
      await p.waitForURL((u) => u.pathname === "/photo-search");
      await p.getByTestId("photo-history-signin").waitFor();

      await p.getByTestId("photo-file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") });
      expect(await p.getByTestId("photo-error").textContent()).toContain("not a photo we can read");

      let sent: Buffer | null = null;
      await p.route("**/api/vision/product-search", async (route) => {
        sent = route.request().postDataBuffer();
        await route.continue();
      });
      await p.getByTestId("photo-file").setInputFiles({ name: "look.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg() });
      await p.getByTestId("photo-crop-step").waitFor();
      expect(await p.getByTestId("photo-error").count()).toBe(0);
      // Crop: drag the top-left handle inwards, then nudge with the keyboard
      const h = (await p.getByTestId("crop-handle-nw").boundingBox())!;
      await p.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
      await p.mouse.down();
      await p.mouse.move(h.x + 60, h.y + 80, { steps: 5 });
      await p.mouse.up();
      await p.getByTestId("crop-rect").focus();
      await p.keyboard.press("ArrowRight");
      const size = (await p.locator(".cropper__size").textContent()) ?? "";
      expect(size).not.toContain("1800 × 2400 px of");
      await screenshot(p, "discovery-photo-crop");

      const answer = p.waitForResponse((r) => r.url().includes("/api/vision/product-search"));
      await p.getByTestId("photo-search-submit").click();
      const json = await (await answer).json();
      await p.getByTestId("photo-results").waitFor({ timeout: 30_000 });
      expect(Number(await p.getByTestId("photo-results").getAttribute("data-count"))).toBeGreaterThan(0);
      expect(json.results.length).toBeGreaterThan(0);
      expect(json.results.every((r: { target_gender: string }) => r.target_gender === "womenswear" || r.target_gender === "both")).toBe(true);

      expect(sent).not.toBeNull();
      const body = sent as unknown as Buffer;
      expect(body.toString("latin1")).toMatch(/name="target_gender"\r\n\r\nwomenswear/);
      expect(body.toString("latin1")).toMatch(/filename="photo\.jpg"/);
      const jpeg = jpegIn(body);
      const meta = await sharp(jpeg).metadata();
      expect(meta.format).toBe("jpeg");
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(1024);
      expect(meta.height).toBeLessThan(2400);
      expect(jpeg.includes(Buffer.from("E2E-Camera"))).toBe(true);
      await p.getByTestId("photo-results").locator('[data-testid="product-card"]').first().locator("img").waitFor();
      await screenshot(p, "discovery-photo-results");
    } finally {
      await ctx.close();
    }
  });

  it("photo search history: a signed-in shopper sees their past photo searches", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p = await ctx.newPage();
      await signInShopper(p, base);
      await p.goto(`${base}/photo-search`);
      await p.getByTestId("photo-file").setInputFiles({ name: "look.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg() });
      await p.getByTestId("photo-search-submit").click();
      await p.getByTestId("photo-results").waitFor({ timeout: 30_000 });
      const entries = p.getByTestId("photo-history-entry");
      await entries.first().waitFor({ timeout: 20_000 });
      expect(await entries.count()).toBeGreaterThanOrEqual(1);
      expect(await entries.count()).toBeLessThanOrEqual(10);
      await entries.first().click();
      await p.getByTestId("photo-history-results").locator("a").first().waitFor();
      await screenshot(p, "discovery-photo-history");
    } finally {
      await ctx.close();
    }
  });

  it("the home feed shows an error with a retry when the feed cannot load", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p = await ctx.newPage();
      await withoutEmbeddedAnswers(p);
      let fail = true;
      await p.route("**/api/recommendations/random**", (route) => (fail ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: { code: "internal", message: "Recommendations are resting" } }) }) : route.continue()));
      await p.goto(`${base}/`);
      const error = p.getByTestId("home-feed-error");
      await error.waitFor({ timeout: 30_000 });
      expect(await error.textContent()).toContain("Recommendations are resting");
      await screenshot(p, "discovery-home-error");
      fail = false;
      await p.getByTestId("home-feed-retry").click();
      await p.getByTestId("home-feed").waitFor({ timeout: 20_000 });
      expect(await feedProductCount(p)).toBeGreaterThanOrEqual(6);
    } finally {
      await ctx.close();
    }
  });

  it("search: typo correction notice, empty state with suggestions, and Notify me for guests and signed-in shoppers", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p = await ctx.newPage();
      await p.goto(`${base}/?search=jaket`);
      await p.getByTestId("search-results").waitFor({ timeout: 20_000 });
      expect(await p.getByTestId("search-corrected").textContent()).toContain("“jacket”");
      // guests are asked to sign in
      expect(await p.getByTestId("search-notify").textContent()).toContain("Sign in");

      await p.goto(`${base}/?search=zzzzqqq`);
      const empty = p.getByTestId("search-empty");
      await empty.waitFor({ timeout: 20_000 });
      expect(await p.getByTestId("search-suggestion").count()).toBeGreaterThanOrEqual(3);
      await screenshot(p, "discovery-search-empty");
      const suggestion = p.getByTestId("search-suggestion").first();
      const term = ((await suggestion.textContent()) ?? "").trim();
      await suggestion.click();
      await p.waitForURL((u) => u.searchParams.get("search") === term);
      await p.getByTestId("search-results").waitFor({ timeout: 20_000 });
      expect(await p.getByTestId("search-input").inputValue()).toBe(term);

      await signInShopper(p, base);
      await p.goto(`${base}/?search=linen%20shirt`);
      await p.getByTestId("search-results").waitFor({ timeout: 20_000 });
      const created = p.waitForResponse((r) => r.url().endsWith("/api/users/notification-requests/search") && r.request().method() === "POST");
      await p.getByTestId("search-notify-button").click();
      const res = await created;
      expect(res.status()).toBe(201);
      const body = JSON.parse(res.request().postData() ?? "{}");
      expect(body.searchId).toMatch(/\S/);
      expect(await p.getByTestId("search-notify-done").textContent()).toContain("shopper@demo.local");
    } finally {
      await ctx.close();
    }
  });

  it("the product page links to its store, which lists the store's products", async () => {
    await page.goto(`${base}/products/1038`);
    const link = page.getByTestId("product-store-link");
    await link.waitFor({ timeout: 20_000 });
    const name = ((await link.locator("strong").textContent()) ?? "").trim();
    await link.click();
    await page.waitForURL((u) => u.pathname.startsWith("/stores/"));
    await page.getByRole("heading", { level: 1, name }).waitFor({ timeout: 20_000 });
    await page.getByTestId("store-page").locator('[data-testid="product-card"]').first().waitFor();
  });

  it("search shows the server's message when it fails, with a retry", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const p = await ctx.newPage();
      await withoutEmbeddedAnswers(p);
      let fail = true;
      await p.route("**/api/search", (route) =>
        fail ? route.fulfill({ status: 422, contentType: "application/json", body: JSON.stringify({ error: { code: "unprocessable", message: "Search is being tuned, try again" } }) }) : route.continue(),
      );
      await p.goto(`${base}/?search=coat`);
      const error = p.getByTestId("search-error");
      await error.waitFor({ timeout: 20_000 });
      expect(await error.textContent()).toContain("Search is being tuned, try again");
      fail = false;
      await p.getByTestId("search-retry").click();
      await p.getByTestId("search-results").waitFor({ timeout: 20_000 });
    } finally {
      await ctx.close();
    }
  });
});
