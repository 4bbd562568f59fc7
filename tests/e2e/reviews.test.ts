/**
 * Reviews in Chromium against the real server with demo data: a shopper writes a review (with a
 * photo, compressed in the browser) on a product page; an admin finds it in the Reviews screen,
 * sees the server's message when a create form is incomplete, and publishes the review after the
 * confirmation; the product page then shows it with the updated rating summary.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Browser, Page } from "playwright-core";
import { apiSignIn, DEMO_ADMIN, launchBrowser, newSession, screenshot, signInAsStaff, signInShopper } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const stamp = Date.now().toString(36);
const TITLE = `Lovely fabric ${stamp}`;
const BODY = `Soft, well cut and true to size. Written by the e2e test ${stamp}.`;

/** A visible product the demo shopper has not reviewed yet (so the review is accepted), with its page path. */
async function productToReview(): Promise<{ id: string; path: string; title: string }> {
  const admin = (await apiSignIn(base, DEMO_ADMIN)).token;
  const mine = await fetch(`${base}/api/product-reviews/admin?status=all&take=100&q=shopper%40demo.local`, { headers: { authorization: `Bearer ${admin}` } });
  const reviewed = new Set(((await mine.json()) as { reviews: { product_id: string }[] }).reviews.map((r) => r.product_id));
  const list = (await (await fetch(`${base}/api/products?limit=60`)).json()) as { products: { id: string; handle: string; title: string }[] };
  const p = list.products.find((x) => !reviewed.has(x.id));
  if (!p) throw new Error("no product left to review");
  return { id: p.id, title: p.title, path: `/products/${p.id.split("/").pop()}/${p.handle}` };
}

describe("reviews (Chromium, demo data)", () => {
  let browser: Browser;
  let shopper: Page;
  let admin: Page;
  let close: () => Promise<void>;
  let product: { id: string; path: string; title: string };

  beforeAll(async () => {
    const b = await launchBrowser();
    browser = b.browser;
    shopper = b.page;
    close = b.close;
    admin = (await newSession(browser, { viewport: { width: 1400, height: 900 } })).page;
    product = await productToReview();
  });
  afterAll(() => close?.());

  it("a shopper writes a review with a photo on a product page; it waits for moderation", async () => {
    await signInShopper(shopper, base);

    await shopper.goto(`${base}${product.path}`);
    const reviews = shopper.getByTestId("product-reviews");
    await reviews.waitFor({ timeout: 30_000 });
    await reviews.getByTestId("write-review").click();
    const form = shopper.getByTestId("review-form");
    await form.waitFor();

    // Sending without stars: the form says what is missing.
    await form.getByRole("button", { name: "Submit review" }).click();
    await form.getByTestId("review-form-error").filter({ hasText: "Choose a rating" }).waitFor();

    await form.getByTitle("4 stars").click(); // the visible star (its radio input is visually hidden)
    expect(await form.getByRole("radio", { name: "4 stars" }).isChecked()).toBe(true);
    await form.getByLabel("Title (optional)").fill(TITLE);
    await form.getByLabel("Your review").fill(BODY);
    const photo = await sharp({ create: { width: 2400, height: 1800, channels: 3, background: "#8a5a3c" } }).jpeg({ quality: 90 }).toBuffer();
    const uploads: number[] = [];
    shopper.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/product-reviews/images") uploads.push(r.postDataBuffer()?.byteLength ?? 0);
    });
    await form.getByLabel("Add photos").setInputFiles([{ name: "camera.jpg", mimeType: "image/jpeg", buffer: photo }]);
    await form.locator('[data-testid="review-photo"][data-status="done"]').waitFor({ timeout: 30_000 });
    // Compressed in the browser before the upload (1024 px on the longer side).
    expect(uploads.length).toBe(1);
    expect(uploads[0]).toBeLessThan(photo.byteLength);
    await screenshot(shopper, "reviews-form");

    await form.getByRole("button", { name: "Submit review" }).click();
    await shopper.getByTestId("review-sent").waitFor({ timeout: 20_000 });
    expect(await shopper.getByTestId("review-sent").textContent()).toContain("once our team has checked it");
    // Pending: not on the page yet.
    expect(await shopper.getByText(TITLE).count()).toBe(0);
  });

  it("an admin sees the server's message in the create form, then publishes the review after confirming", async () => {
    await signInAsStaff(admin, base, { next: "/app" });
    await admin.getByRole("link", { name: "Reviews", exact: true }).first().click();
    await admin.waitForURL((u) => u.pathname === "/app/reviews");
    await admin.getByRole("heading", { name: "Ratings of published reviews" }).waitFor();
    await admin.getByTestId("rating-chart").locator("svg").waitFor();

    // SPEC §8: admin review creation surfaces the server's message.
    await admin.getByRole("button", { name: "Create review" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("Review", { exact: true }).fill("Made in the shop");
    await dialog.getByRole("button", { name: "Create", exact: true }).click();
    await dialog.getByTestId("review-form-error").filter({ hasText: "No product ID provided" }).waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });

    await admin.getByPlaceholder("Search title, text, name or email").fill(stamp);
    await admin.getByRole("button", { name: "Search", exact: true }).click();
    await admin.waitForURL((u) => u.searchParams.get("q") === stamp);
    const row = admin.getByRole("row").filter({ hasText: TITLE });
    await row.waitFor();
    expect(await row.getByText("Pending").count()).toBeGreaterThan(0);
    await screenshot(admin, "reviews-admin-pending");

    await row.getByRole("button", { name: /^Publish the review by/ }).click();
    const confirm = admin.getByRole("dialog");
    await confirm.getByText("Publish this review?").waitFor();
    await confirm.getByRole("button", { name: "Publish", exact: true }).click();
    await admin.getByTestId("reviews-notice").filter({ hasText: "Published the review by" }).waitFor({ timeout: 20_000 });
    // Gone from Pending; listed under Published, where it can only be deleted.
    await admin.getByRole("row").filter({ hasText: TITLE }).waitFor({ state: "detached" });
    await admin.getByRole("tab", { name: /^Published/ }).click();
    await admin.waitForURL((u) => u.searchParams.get("status") === "approved");
    const published = admin.getByRole("row").filter({ hasText: TITLE });
    await published.waitFor();
    expect(await published.getByRole("button", { name: /^Publish the review/ }).count()).toBe(0);
    expect(await published.getByRole("button", { name: /^Delete the review/ }).count()).toBe(1);
  });

  it("the product page shows the published review and the updated summary", async () => {
    await shopper.goto(`${base}${product.path}`);
    const reviews = shopper.getByTestId("product-reviews");
    await reviews.waitFor({ timeout: 30_000 });
    const item = reviews.getByTestId("review-item").filter({ hasText: TITLE });
    await item.waitFor({ timeout: 20_000 });
    expect(await item.getByText(BODY).count()).toBe(1);
    expect(await item.getByRole("img", { name: /^Photo 1 from/ }).count()).toBe(1);
    const summary = reviews.getByTestId("rating-summary");
    await summary.waitFor();
    expect(Number((await summary.getByTestId("rating-summary-count").textContent())?.match(/\d+/)?.[0])).toBeGreaterThanOrEqual(1);
    await shopper.getByTestId("product-rating").waitFor();
    await item.scrollIntoViewIfNeeded();
    await screenshot(shopper, "reviews-product-page");
  });
});
