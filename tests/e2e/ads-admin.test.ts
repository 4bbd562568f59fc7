/**
 * The ads team's side of product ads in Chromium (issue 18), on the admin pages of
 * app/routes/app.ads*.tsx against the real server with demo data: vendor@demo.local files a
 * request through the API (its own product, a format, a brief, a budget); admin@demo.local finds it
 * in the queue, opens it, creates an ad for its product, writes copy variants and uses one, edits the
 * headline and primary text and completes the ad; the vendor sends feedback (API), the team sees it
 * on the timeline and completes again; the vendor approves (API); the team publishes (LIVE), starts
 * "Sync metrics" on the board and follows its progress, and the ad's page shows its delivery.
 * The vendor's pages are covered by ads.test.ts. The image creative is put in through the API (the
 * product's own image): the page offers images only through the image generation, too slow for a
 * browser test on a loaded machine. The file makes its own request and ad: the demo's ads stay.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { DEMO_ADMIN, apiCall, apiSignIn, launchStaffBrowser, reportFailedTest, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const VENDOR_EMAIL = "vendor@demo.local";
const TOKEN = `adm${Date.now().toString(36)}`;
const BRIEF = `Admin e2e ${TOKEN}: autumn layers for the city, 25–40`;
const HEADLINE = `Autumn layers ${TOKEN}`;
const PRIMARY = "Soft knits and light coats for cool city mornings.";
const FEEDBACK = "Please mention the free returns";
const LONG = 60_000;

const count = (text: string | null) => Number((text ?? "").replace(/[^\d.]/g, ""));

describe("product ads: the team's pages (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let problems: string[];
  let admin: string;
  let vendor: string;
  let requestId = "";
  let adId = "";
  let product = { id: "", title: "", imageUrl: "" };

  const call = async <T>(token: string, method: string, path: string, body?: unknown): Promise<T> => {
    const r = await apiCall<T>(base, method, path, { token, body });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const status = (s: string) => page.locator(`[data-testid="ad-status"][data-status="${s}"]`).first();
  const notice = (text: string) => page.getByTestId("ad-notice").getByText(text, { exact: false });

  beforeAll(async () => {
    admin = (await apiSignIn(base, DEMO_ADMIN)).token;
    vendor = (await apiSignIn(base, VENDOR_EMAIL)).token;
    const b = await launchStaffBrowser(base, { email: DEMO_ADMIN, next: "/app/ads/requests" });
    ({ page, problems } = b);
    close = b.close;
  });
  afterEach((t) => reportFailedTest(t, page, { name: "ads-admin", problems }));
  afterAll(async () => {
    // The ad stops running so later runs' demo figures do not grow with it.
    if (adId) await apiCall(base, "POST", `/product-ads/${adId}/unpublish`, { token: admin });
    await close?.();
  });

  it("the vendor files a request through the API", async () => {
    const products = await call<{ items: { id: string; title: string; featuredImage: { url: string } | null }[] }>(vendor, "GET", "/vendors/me/products?status=active&sort=title&limit=10");
    const withImage = products.items.find((p) => p.featuredImage) ?? products.items[0];
    expect(withImage).toBeTruthy();
    product = { id: withImage!.id, title: withImage!.title, imageUrl: withImage!.featuredImage?.url ?? "" };
    const formats = await call<{ items: { id: string; name: string }[] }>(vendor, "GET", "/product-ad-features?kind=format");
    expect(formats.items.length).toBeGreaterThan(0);
    const filed = await call<{ id: string; status: string }>(vendor, "POST", "/product-ad-requests", {
      product_ids: [product.id],
      feature_ids: [formats.items[0]!.id],
      brief: BRIEF,
      daily_budget: 15,
    });
    expect(filed.status).toBe("open");
    requestId = filed.id;
  });

  it("the team finds the request in the queue, opens it and creates an ad for its product", async () => {
    expect(requestId).not.toBe("");
    await page.getByRole("heading", { name: "Ad requests" }).first().waitFor({ timeout: LONG });
    await page.goto(`${base}/app/ads/requests?q=${encodeURIComponent(TOKEN)}`);
    const link = page.locator(`a[data-testid="request-link"][href="/app/ads/requests/${requestId}"]`);
    await link.waitFor({ timeout: LONG });
    expect(await page.getByTestId("request-link").count()).toBe(1);
    await screenshot(page, "ads-admin-queue");
    await link.click();
    await page.waitForURL((u) => u.pathname === `/app/ads/requests/${requestId}`, { timeout: LONG });
    await page.getByTestId("request-brief").getByText(BRIEF).waitFor({ timeout: LONG });
    expect(await page.getByTestId("request-budget").textContent()).toBe("$15.00 a day");
    expect(await page.getByTestId("request-product").getByText(product.title, { exact: true }).count()).toBe(1);
    await page.getByRole("button", { name: "Create ad" }).click();
    await page.waitForURL((u) => /^\/app\/ads\/(?!requests)[^/]+$/.test(u.pathname), { timeout: LONG });
    adId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
    await status("PENDING").waitFor({ timeout: LONG });
    await page.getByRole("heading", { name: "Untitled ad" }).first().waitFor();
    const ad = await call<{ status: string; request_id: string | null; product: { id: string } }>(admin, "GET", `/product-ads/${adId}`);
    expect(ad).toMatchObject({ status: "PENDING", request_id: requestId, product: { id: product.id } });
  });

  it("the team writes copy variants, uses one, edits the copy and completes the ad", async () => {
    expect(adId).not.toBe("");
    await page.getByRole("button", { name: "Write copy variants" }).click();
    await notice("copy variant").waitFor({ timeout: LONG });
    const variant = page.locator('[data-testid="ad-candidate"][data-kind="copy"]').first();
    await variant.waitFor();
    await variant.getByRole("button", { name: "Use" }).click();
    await notice("The variant's headline and text are in the ad.").waitFor({ timeout: LONG });
    // The copy form is made anew once the page's data is read again: typing before that would be lost.
    await expect.poll(() => page.getByLabel("Headline").inputValue(), { timeout: LONG }).not.toBe("");

    await page.getByLabel("Headline").fill(HEADLINE);
    await page.getByLabel("Primary text").fill(PRIMARY);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await notice("Saved.").waitFor({ timeout: LONG });
    await page.getByRole("heading", { name: HEADLINE }).first().waitFor({ timeout: LONG });

    // Completing without an image is refused, in the dialog; the ad stays PENDING.
    await page.getByTestId("ad-moves").getByRole("button", { name: "Complete" }).click();
    let dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Complete" }).click();
    await dialog.getByTestId("complete-error").waitFor({ timeout: LONG });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await status("PENDING").count()).toBe(1);

    // The image creative: the product's own image (see the file's comment).
    expect(product.imageUrl).not.toBe("");
    await call(admin, "PATCH", `/product-ads/${adId}`, { creative_urls: [product.imageUrl] });
    await page.reload();
    await page.getByTestId("ad-creative").first().waitFor({ timeout: LONG });
    expect(await page.getByLabel("Headline").inputValue()).toBe(HEADLINE);
    expect(await page.getByLabel("Primary text").inputValue()).toBe(PRIMARY);

    await page.getByTestId("ad-moves").getByRole("button", { name: "Complete" }).click();
    dialog = page.getByRole("dialog");
    await dialog.getByLabel("Note for the vendor (optional)").fill("First version");
    await dialog.getByRole("button", { name: "Complete" }).click();
    await notice("The ad is completed").waitFor({ timeout: LONG });
    await status("COMPLETED").waitFor({ timeout: LONG });
    // The vendor reviews it now: completing again is no longer a move of the ad.
    expect(await page.getByTestId("ad-moves").getByRole("button", { name: "Complete" }).count()).toBe(0);
    await screenshot(page, "ads-admin-completed");
    const saved = await call<{ status: string; headline: string; primary_text: string; creative_urls: string[] }>(admin, "GET", `/product-ads/${adId}`);
    expect(saved).toMatchObject({ status: "COMPLETED", headline: HEADLINE, primary_text: PRIMARY, creative_urls: [product.imageUrl] });
  });

  it("the vendor's feedback shows on the timeline; the team completes again; the vendor approves", async () => {
    await call(vendor, "POST", `/product-ads/${adId}/feedback`, { text: FEEDBACK });
    await page.reload();
    await status("FEEDBACK_PENDING").waitFor({ timeout: LONG });
    await page.locator('[data-testid="ad-event"][data-kind="feedback"]').getByText(FEEDBACK, { exact: false }).waitFor({ timeout: LONG });
    await page.getByTestId("ad-moves").getByRole("button", { name: "Complete" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Note for the vendor (optional)").fill("Free returns in the text");
    await dialog.getByRole("button", { name: "Complete" }).click();
    await notice("The ad is completed").waitFor({ timeout: LONG });
    await status("COMPLETED").waitFor({ timeout: LONG });

    const approved = await call<{ status: string }>(vendor, "POST", `/product-ads/${adId}/approve`);
    expect(approved.status).toBe("APPROVED");
  });

  it("the team publishes, syncs the metrics on the board with its progress, and the ad shows its delivery", async () => {
    await page.reload();
    await status("APPROVED").waitFor({ timeout: LONG });
    await page.getByTestId("ad-moves").getByRole("button", { name: "Publish" }).click();
    await notice("The ad is live on the ads platform.").waitFor({ timeout: LONG });
    await status("LIVE").waitFor({ timeout: LONG });
    await page.getByText(`Platform ad local-ad-${adId}`, { exact: false }).first().waitFor({ timeout: LONG });
    expect(await page.getByTestId("ad-moves").getByRole("button", { name: "Unpublish" }).count()).toBe(1);
    await screenshot(page, "ads-admin-live");

    await page.getByRole("link", { name: "Ads" }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/ads", { timeout: LONG });
    await page.locator(`a[data-testid="ad-link"][href="/app/ads/${adId}"]`).first().waitFor({ timeout: LONG });
    await page.getByRole("button", { name: "Sync metrics" }).first().click();
    await page.getByTestId("ads-notice").getByText("Syncing the ads' metrics", { exact: false }).waitFor({ timeout: LONG });
    const progress = page.getByTestId("ads-sync-progress");
    await progress.waitFor({ timeout: LONG });
    await page.locator('[data-testid="ads-sync-progress"][data-status="completed"]').waitFor({ timeout: 120_000 });
    expect(await progress.textContent()).toContain("Syncing metrics: done.");
    await screenshot(page, "ads-admin-synced");

    await page.locator(`a[data-testid="ad-link"][href="/app/ads/${adId}"]`).first().click();
    await page.waitForURL((u) => u.pathname === `/app/ads/${adId}`, { timeout: LONG });
    await status("LIVE").waitFor({ timeout: LONG });
    const chart = page.locator('[data-testid="ad-chart-delivery"][data-chart-ready="true"]');
    await chart.locator("svg path").first().waitFor({ state: "attached", timeout: LONG });
    expect(count(await page.getByTestId("kpi-impressions").textContent())).toBeGreaterThan(0);
    expect(await page.getByTestId("ad-metrics-empty").count()).toBe(0);
    await screenshot(page, "ads-admin-metrics");
  });
});
