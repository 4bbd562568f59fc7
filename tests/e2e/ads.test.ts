/**
 * Product ads end to end in Chromium against the real server with demo data (issues 17, 18): as
 * vendor@demo.local a request is filed from the form (a product, an uploaded image, a format, a
 * brief and a budget); the ads team (admin@demo.local, through the API with its session) makes an
 * ad from it and completes it; the vendor sends feedback from the ad's page; the team reworks and
 * completes again; the vendor approves; the team publishes and syncs the metrics (local ads
 * platform, simulated delivery); the vendor's ad page then shows the delivery. The test files its
 * own request and ad: the demo's ads stay as other tests expect them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { DEMO_ADMIN, apiCall, apiSignIn, launchStaffBrowser, reportFailedTest, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const VENDOR_EMAIL = "vendor@demo.local";
const BRIEF = `E2E brief ${Date.now()}: weekend city looks, free shipping this week`;
const FEEDBACK = "Please use the beige background and mention free shipping";

const count = (text: string | null) => Number((text ?? "").replace(/[^\d.]/g, ""));

describe("product ads (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let problems: string[];
  let admin: string;
  let requestId = "";
  let adId = "";
  let productTitle = "";

  const team = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await apiCall<T>(base, method, path, { token: admin, body });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const statusOnPage = () => page.getByTestId("ad-status").first().getAttribute("data-status");

  beforeAll(async () => {
    admin = (await apiSignIn(base, DEMO_ADMIN)).token;
    const vendor = await apiSignIn(base, VENDOR_EMAIL);
    const products = await apiCall<{ items: { title: string }[] }>(base, "GET", "/vendors/me/products?status=active&sort=title&limit=5", { token: vendor.token });
    productTitle = products.body.items[0]?.title ?? "";
    const b = await launchStaffBrowser(base, { email: VENDOR_EMAIL, next: "/app/vendor/ads/requests/new" });
    ({ page, problems } = b);
    close = b.close;
  });
  afterEach((t) => reportFailedTest(t, page, { name: "ads", problems }));
  afterAll(async () => {
    // The ad stops running so later runs' demo figures do not grow with it.
    if (adId) await apiCall(base, "POST", `/product-ads/${adId}/unpublish`, { token: admin });
    await close?.();
  });

  it("the vendor files a request with a product, an uploaded image and a format", async () => {
    expect(productTitle).not.toBe("");
    await page.getByRole("heading", { name: "New ad request" }).first().waitFor();
    await page.getByText(productTitle, { exact: true }).first().click();
    expect(await page.getByRole("checkbox", { name: productTitle, exact: true }).isChecked()).toBe(true);
    const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#d9c7a7" } }).png().toBuffer();
    await page.locator('input[type="file"]').setInputFiles({ name: "look.png", mimeType: "image/png", buffer: png });
    await page.getByTestId("uploaded-image").first().waitFor({ timeout: 30_000 });
    await page.getByText(/^Single image/).first().click();
    await page.getByLabel("Brief").fill(BRIEF);
    await page.getByLabel("Daily budget").fill("15");
    await screenshot(page, "ads-request-form");
    await page.getByRole("button", { name: "File request" }).click();
    await page.waitForURL((u) => u.pathname === "/app/vendor/ads" && u.searchParams.has("filed"), { timeout: 30_000 });
    requestId = new URL(page.url()).searchParams.get("filed") ?? "";
    await page.getByTestId("ads-notice").waitFor();
    await page.locator(`[data-testid="ad-request-row"][data-request-id="${requestId}"]`).waitFor();
    await screenshot(page, "ads-list-filed");
  });

  it("the team makes an ad from it and completes it; the vendor sends feedback from the ad's page", async () => {
    expect(requestId).not.toBe("");
    const request = await team<{ products: { id: string }[]; uploaded_images: { url: string }[]; brief: string }>("GET", `/product-ad-requests/${requestId}`);
    expect(request.brief).toBe(BRIEF);
    expect(request.uploaded_images).toHaveLength(1);
    const ad = await team<{ id: string }>("POST", "/product-ads", {
      request_id: requestId,
      product_id: request.products[0]!.id,
      headline: "City looks for the weekend",
      primary_text: "Linen and light layers for warm city days.",
      creative_urls: [request.uploaded_images[0]!.url],
      daily_budget: 15,
    });
    adId = ad.id;
    await team("POST", `/product-ads/${adId}/complete`, { note: "First version" });

    await page.goto(`${base}/app/vendor/ads/${adId}`);
    await page.getByTestId("ad-headline").getByText("City looks for the weekend").waitFor();
    expect(await statusOnPage()).toBe("COMPLETED");
    await page.getByTestId("ad-creative").first().waitFor();
    await page.getByRole("button", { name: "Send feedback" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("What should change?").fill(FEEDBACK);
    await dialog.getByRole("button", { name: "Send feedback" }).click();
    await page.getByTestId("ad-notice").getByText("Feedback sent", { exact: false }).waitFor();
    await page.locator('[data-testid="ad-status"][data-status="FEEDBACK_PENDING"]').first().waitFor();
    await page.getByTestId("ad-timeline").getByText(FEEDBACK).waitFor();
    await screenshot(page, "ads-feedback");
  });

  it("the team reworks and completes again; the vendor approves", async () => {
    const thread = await team<{ timeline: { kind: string; text: string | null; author: { role: string } | null }[] }>("GET", `/product-ads/${adId}`);
    expect(thread.timeline.find((e) => e.kind === "feedback")).toMatchObject({ text: FEEDBACK, author: { role: "VENDOR" } });
    await team("PATCH", `/product-ads/${adId}`, { headline: "Free shipping: city looks" });
    await team("POST", `/product-ads/${adId}/complete`, { note: "Beige background, free shipping in the headline" });

    await page.reload();
    await page.getByTestId("ad-headline").getByText("Free shipping: city looks").waitFor();
    expect(await statusOnPage()).toBe("COMPLETED");
    await page.getByRole("button", { name: "Approve" }).first().click();
    await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
    await page.getByTestId("ad-notice").getByText("Ad approved", { exact: false }).waitFor();
    await page.locator('[data-testid="ad-status"][data-status="APPROVED"]').first().waitFor();
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
  });

  it("the team publishes and syncs the metrics; the delivery shows on the vendor's ad page and list", async () => {
    const live = await team<{ status: string; meta_ad_id: string | null }>("POST", `/product-ads/${adId}/publish`);
    expect(live.status).toBe("LIVE");
    expect(live.meta_ad_id).toBe(`local-ad-${adId}`);
    const { jobId } = await team<{ jobId: string }>("POST", "/product-ads/sync-meta-performance", { ad_ids: [adId] });
    const deadline = Date.now() + 60_000;
    let job = { status: "queued" };
    while (Date.now() < deadline) {
      job = await team<{ status: string }>("GET", `/product-ads/sync-jobs/${jobId}`);
      if (job.status === "completed" || job.status === "failed") break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(job.status).toBe("completed");

    await page.reload();
    await page.locator('[data-testid="ad-status"][data-status="LIVE"]').first().waitFor();
    const chart = page.locator('[data-testid="chart-ad-daily"][data-chart-ready="true"]');
    await chart.locator("svg path").first().waitFor({ state: "attached", timeout: 30_000 });
    expect(count(await page.getByTestId("ad-metric-impressions").textContent())).toBeGreaterThan(0);
    expect(await page.getByTestId("ad-metric-spend").textContent()).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(await page.getByRole("button", { name: "Unpublish" }).count()).toBeGreaterThan(0);
    await screenshot(page, "ads-live-metrics");

    await page.getByRole("link", { name: "Ads" }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/vendor/ads");
    await page.locator(`[data-testid="ad-row"][data-ad-id="${adId}"]`).waitFor();
    await page.locator('[data-testid="chart-ads-daily"][data-chart-ready="true"] svg').first().waitFor({ state: "attached", timeout: 30_000 });
    expect(count(await page.getByTestId("ads-kpi-impressions").textContent())).toBeGreaterThan(0);
    await screenshot(page, "ads-list-metrics");
  });
});
