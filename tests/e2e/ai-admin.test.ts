/**
 * The AI admin screens in Chromium on the e2e server (the real local image provider): run a
 * product shot on a demo product's first image from /app/ai-tools, watch its progress, compare
 * before/after, send it to proposed edits; approve it on /app/proposed-edits and see the
 * product's image replaced (same position, the original gone). A tool the local provider cannot
 * do (an edit by a model) shows the "needs fal" banner before anything runs, and cannot run.
 * Also the AI models screen lists and creates an admin model (no training: photos as they are).
 * The e2e files share one server: everything is found by id, never by counts of shared data.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { apiCall, apiSignIn, DEMO_ADMIN, launchStaffBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

interface ProductImage {
  id: string;
  url: string;
}
interface Product {
  id: string;
  title: string;
  images: ProductImage[];
}

const api = <T>(method: string, path: string, token: string | null, body?: unknown) => apiCall<T>(base, method, path, { token, body });

describe("admin: AI image tools and proposed edits (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let token: string;
  let product: Product;

  beforeAll(async () => {
    token = (await apiSignIn(base, DEMO_ADMIN)).token;
    const list = await api<{ products: { id: string }[] }>("GET", "/products?limit=40", null);
    // A demo product with at least two images that no other file is editing (late in the list).
    for (const p of list.body.products.slice(10)) {
      const d = (await api<Product>("GET", `/products/${encodeURIComponent(p.id)}`, null)).body;
      if (d.images.length >= 2 && d.images[0].url.startsWith("/uploads/")) {
        product = d;
        break;
      }
    }
    expect(product).toBeTruthy();
    ({ page, close } = await launchStaffBrowser(base, { next: "/app" }));
  });
  afterAll(() => close?.());

  it("an operation the local provider cannot do shows the needs-fal banner and cannot run", async () => {
    await page.getByRole("link", { name: "AI image tools", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/ai-tools");
    await page.getByLabel("Tool").selectOption("edit");
    await page.waitForURL((u) => u.searchParams.get("tool") === "edit");
    const banner = page.getByTestId("needs-provider");
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/chrono-edit needs the fal image provider; the local provider cannot do it/);
    expect(await page.getByRole("button", { name: "Run" }).isDisabled()).toBe(true);
    await page.getByLabel("Model").selectOption("gemini-image-edit");
    await page.getByTestId("needs-provider").filter({ hasText: "gemini-image-edit needs the fal image provider" }).waitFor();
    await screenshot(page, "admin-ai-tools-needs-fal");
  });

  it("runs a product shot with live progress, compares before/after and sends it to proposed edits", { timeout: 240_000 }, async () => {
    await page.goto(`${base}/app/ai-tools?tool=product-shot&product=${encodeURIComponent(product.id)}`);
    await page.getByRole("button", { name: "Use image 1" }).click();
    await page.waitForURL((u) => u.searchParams.get("image") === product.images[0].url);
    await page.getByTestId("source-image").waitFor();
    await page.getByLabel("Scene").fill("studio");
    await page.getByRole("button", { name: "Run" }).click();
    await page.waitForURL((u) => u.searchParams.has("request"));
    const requestId = new URL(page.url()).searchParams.get("request")!;
    // Progress while it runs (queued or running), then completed.
    await page.getByTestId("request-status").waitFor();
    const first = (await page.getByTestId("request-status").textContent()) ?? "";
    expect(first).toMatch(/Queued|Running|Completed/);
    if (!/Completed/.test(first)) await page.getByTestId("progress").waitFor();
    await page.getByTestId("request-status").filter({ hasText: "Completed" }).waitFor({ timeout: 200_000 });
    const compare = page.getByTestId("result-compare");
    await compare.waitFor();
    expect(await compare.getByRole("img", { name: "Before" }).getAttribute("src")).toBe(product.images[0].url);
    const after = await compare.getByRole("img", { name: "After" }).getAttribute("src");
    expect(after).toMatch(/^\/uploads\/images\//);
    await page.waitForFunction(() => [...document.querySelectorAll("img[alt=After]")].every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0));
    await compare.scrollIntoViewIfNeeded();
    await screenshot(page, "admin-ai-tools-product-shot");

    await page.getByRole("button", { name: "Send to proposed edits" }).click();
    await page.getByText(`Sent to proposed edits (${product.title}).`).waitFor();
    const edits = await api<{ items: { id: string; proposed_image_url: string; image_url: string; operation: string; status: string }[] }>(
      "GET",
      `/proposed-image-edits?product_id=${encodeURIComponent(product.id)}&status=pending`,
      token,
    );
    const edit = edits.body.items.find((e) => e.proposed_image_url === after);
    expect(edit).toMatchObject({ image_url: product.images[0].url, operation: "generate-flux-product-shot", status: "pending" });
    expect(requestId).toBeTruthy();

    // Review it: the proposed edit replaces the product's first image.
    await page.getByRole("link", { name: "Proposed edits", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/proposed-edits");
    await page.goto(`${base}/app/proposed-edits?product=${encodeURIComponent(product.id)}`);
    const row = page.getByTestId("before-after").filter({ has: page.locator(`img[src="${after}"]`) });
    await row.waitFor();
    expect(await row.getByRole("img", { name: "Before" }).getAttribute("src")).toBe(product.images[0].url);
    await page.getByRole("button", { name: `Compare ${product.title}` }).first().click();
    await page.getByRole("dialog").getByTestId("compare-images").waitFor();
    await screenshot(page, "admin-proposed-edits-compare");
    await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
    await page.getByText(`Approved: ${product.title} now shows the edited image.`).waitFor({ timeout: 30_000 });

    const now = (await api<Product>("GET", `/products/${encodeURIComponent(product.id)}`, null)).body;
    expect(now.images[0].url).toBe(after);
    expect(now.images.map((i) => i.url)).not.toContain(product.images[0].url);
    expect(now.images.slice(1).map((i) => i.url)).toEqual(product.images.slice(1).map((i) => i.url));
    const approved = await api<{ status: string; reviewed_at: string | null }>("GET", `/proposed-image-edits/${edit!.id}`, token);
    expect(approved.body.status).toBe("approved");
    expect(approved.body.reviewed_at).toBeTruthy();

    // The approved tab shows it; deleting asks first.
    await page.getByRole("tab", { name: /Approved/ }).click();
    await page.waitForURL((u) => u.searchParams.get("status") === "approved");
    await page.getByTestId("before-after").filter({ has: page.locator(`img[src="${after}"]`) }).waitFor();
    await screenshot(page, "admin-proposed-edits-approved");
    await page.getByRole("button", { name: `Delete ${product.title}` }).first().click();
    await page.getByRole("dialog").getByText("Its image stays on the product.").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
  });

  it("creates an admin model from uploaded photos on the AI models screen", async () => {
    await page.goto(`${base}/app/clones`);
    const name = `E2E house model ${Date.now()}`;
    await page.getByLabel("Name").fill(name);
    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#8899aa" } }).jpeg().toBuffer();
    await page.getByLabel("Base photos").setInputFiles([{ name: "a.jpg", mimeType: "image/jpeg", buffer: photo }]);
    // A private house model, not trained: nothing other files (public clones for try-on) can see.
    await page.getByLabel("Public: shoppers can try clothes on this model").uncheck({ force: true });
    await page.getByLabel("Train now").uncheck({ force: true });
    await page.getByRole("button", { name: "Create model" }).click();
    await page.getByText(`${name} created.`).waitFor({ timeout: 30_000 });
    await page.getByText(name, { exact: true }).waitFor();
    await screenshot(page, "admin-ai-models");
    await page.getByRole("button", { name: `Delete ${name}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByText("Model deleted.").waitFor();
    await page.getByText(name, { exact: true }).waitFor({ state: "detached" });
  });
});
