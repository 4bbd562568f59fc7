/**
 * Responsive images in Chromium (issue 20), on the built server with demo data: on a phone
 * (Lighthouse's mobile preset, 412 px at 1.75×) the home page's cards load AVIF variants from the
 * image route at the srcset width the browser picks, never the full-size originals; the first card
 * is the priority image; the image bytes of the home page before (the originals) and after are
 * printed. The admin product list loads 160 px WebP thumbnails.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Browser, Response } from "playwright-core";
import { DEMO_ADMIN, launchBrowser, newSession, screenshot, signInAsStaff } from "../helpers/browser";

const base = inject("e2eBaseUrl");

describe("responsive images (Chromium, demo data)", () => {
  let browser: Browser;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ browser, close } = await launchBrowser());
  });
  afterAll(() => close?.());

  it("a phone loads AVIF card images in sizes from /images, the first one with high priority", async () => {
    const { context, page } = await newSession(browser, { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    const images: Response[] = [];
    page.on("response", (r) => {
      if (r.request().resourceType() === "image") images.push(r);
    });
    await page.goto(`${base}/`);
    await page.getByTestId("home-feed").waitFor({ timeout: 30_000 });
    const first = page.locator('[data-testid="product-card"] img').first();
    await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 30_000 }).toBe(true);
    await page.waitForLoadState("networkidle");
    expect(await first.getAttribute("fetchpriority")).toBe("high");
    const current = await first.evaluate((img: HTMLImageElement) => img.currentSrc);
    expect(new URL(current).pathname).toMatch(/^\/images\//);
    expect(new URL(current).searchParams.get("fm")).toBe("avif");
    expect(new URL(current).searchParams.get("w")).toBe("400");

    const cardImages = images.filter((r) => new URL(r.url()).pathname.startsWith("/images/demo/"));
    expect(cardImages.length).toBeGreaterThan(0);
    expect(images.filter((r) => new URL(r.url()).pathname.startsWith("/uploads/images/demo/") && !/\/store-/.test(r.url()))).toEqual([]);
    let after = 0;
    let before = 0;
    for (const r of cardImages) {
      expect(r.status()).toBe(200);
      expect(r.headers()["content-type"]).toBe("image/avif");
      expect(r.headers()["cache-control"]).toContain("immutable");
      after += (await r.body()).length;
      const original = await fetch(`${base}${new URL(r.url()).pathname.replace(/^\/images\//, "/uploads/images/")}`);
      before += (await original.arrayBuffer()).byteLength;
    }
    console.log(`home page card images on a phone: ${cardImages.length} images, before ${(before / 1024).toFixed(1)} KB (full-size JPEG), after ${(after / 1024).toFixed(1)} KB (AVIF in sizes)`);
    expect(after).toBeLessThan(before / 2);
    await screenshot(page, "responsive-images-home-mobile");
    await context.close();
  });

  it("the admin product list loads 160 px WebP thumbnails", async () => {
    const { context, page } = await newSession(browser);
    const thumbs: Response[] = [];
    page.on("response", (r) => {
      if (r.request().resourceType() === "image" && /\/(images|uploads)\//.test(new URL(r.url()).pathname)) thumbs.push(r);
    });
    await signInAsStaff(page, base, { email: DEMO_ADMIN, next: "/app/products" });
    if (!new URL(page.url()).pathname.startsWith("/app/products")) await page.goto(`${base}/app/products`);
    await page.locator("img").first().waitFor({ timeout: 30_000 });
    // The list's thumbnails may still be on their way on a loaded machine: wait for them, then for the rest.
    await expect.poll(() => thumbs.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.waitForLoadState("networkidle");
    for (const r of thumbs) {
      const u = new URL(r.url());
      expect(u.pathname).toMatch(/^\/images\//);
      expect(u.searchParams.get("w")).toBe("160");
      expect(r.headers()["content-type"]).toBe("image/webp");
    }
    const bytes = (await Promise.all(thumbs.map(async (r) => (await r.body()).length))).reduce((a, b) => a + b, 0);
    console.log(`admin product list: ${thumbs.length} thumbnails, ${(bytes / 1024).toFixed(1)} KB`);
    await context.close();
  });
});
