/**
 * The Proposed images admin screen in Chromium, on the demo data: proposals are made through the
 * API (images of other demo products), then the admin reviews them: side-by-side images, a larger
 * comparison, approve one (the variant shows the new image in the storefront API), select a
 * product's rows and reject them in bulk, and the approved tab shows the image it replaced.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { apiCall, apiSignIn, DEMO_ADMIN, launchStaffBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

interface Variant {
  id: string;
  title: string;
  image: { url: string } | null;
}
interface Product {
  id: string;
  title: string;
  featuredImage: { url: string } | null;
  variants: Variant[];
}

const api = <T>(method: string, path: string, token: string | null, body?: unknown) => apiCall<T>(base, method, path, { token, body });

describe("admin: proposed variant images (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let token: string;
  let shirt: Product;
  let other: Product;
  let donor: Product;

  beforeAll(async () => {
    token = (await apiSignIn(base, DEMO_ADMIN)).token;
    // The e2e files share one server: proposals made by other files (the Taobao import proposes
    // SKU images) would change the counts this test reads. Start from none.
    for (;;) {
      const existing = await api<{ items: { id: string }[] }>("GET", "/proposed-variant-images?limit=100", token);
      expect(existing.status).toBe(200);
      if (existing.body.items.length === 0) break;
      for (const p of existing.body.items) expect((await api("DELETE", `/proposed-variant-images/${p.id}`, token)).status).toBe(200);
    }
    const list = await api<{ products: { id: string; featuredImage: { url: string } | null }[] }>("GET", "/products?limit=30", null);
    const details: Product[] = [];
    for (const p of list.body.products) details.push((await api<Product>("GET", `/products/${encodeURIComponent(p.id)}`, null)).body);
    // Variants with a current image (products imported by other e2e files may have none yet).
    const withVariants = details.filter((d) => d.variants.length >= 2 && d.featuredImage && d.variants.slice(0, 2).every((v) => v.image));
    [shirt, other] = withVariants;
    donor = details.find((d) => d.featuredImage && d.id !== shirt.id && d.id !== other.id && d.featuredImage.url !== shirt.featuredImage?.url && d.featuredImage.url !== other.featuredImage?.url)!;
    expect(shirt && other && donor).toBeTruthy();
    const proposeFor = async (p: Product, v: Variant, url: string) => {
      const r = await api<{ id: string; error?: unknown }>("POST", "/proposed-variant-images", token, { product_id: p.id, variant_id: v.id, proposed_image_url: url, source: "manual" });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id;
    };
    await proposeFor(shirt, shirt.variants[0], donor.featuredImage!.url);
    await proposeFor(shirt, shirt.variants[1], other.featuredImage!.url);
    await proposeFor(other, other.variants[0], donor.featuredImage!.url);
    await proposeFor(other, other.variants[1], shirt.featuredImage!.url);

    ({ page, close } = await launchStaffBrowser(base, { next: "/app" }));
  });
  afterAll(() => close?.());

  it("reviews per product: compare, approve one, bulk-reject a product's rows, approved tab", async () => {
    await page.getByRole("link", { name: "Proposed images", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/proposed-images");
    await page.getByText("4 pending on 2 products").waitFor();
    await page.getByTestId("proposal-product").filter({ hasText: shirt.title }).waitFor();
    await page.getByTestId("proposal-product").filter({ hasText: other.title }).waitFor();
    expect(await page.getByTestId("side-by-side").count()).toBe(4);
    const firstPair = page.getByTestId("side-by-side").first();
    expect(await firstPair.getByRole("img", { name: "Current" }).count()).toBe(1);
    expect(await firstPair.getByRole("img", { name: "Proposed" }).count()).toBe(1);
    await page.getByRole("img", { name: /Pending: 4, Approved: \d+, Rejected: \d+/ }).waitFor();

    // A larger side-by-side view.
    const label = `${shirt.title} – ${shirt.variants[0].title}`;
    await page.getByRole("button", { name: `Compare ${label}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("compare-images").waitFor();
    expect(await dialog.getByRole("img", { name: "Proposed" }).getAttribute("src")).toBe(donor.featuredImage!.url);
    await screenshot(page, "admin-proposed-images-compare");
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "detached" });

    // Approve one row: the variant shows the image in the storefront API.
    await page.getByRole("button", { name: `Approve ${label}` }).click();
    await page.getByText(`Approved: ${label} now shows the new image.`).waitFor();
    await page.getByRole("button", { name: `Approve ${label}` }).waitFor({ state: "detached" });
    const after = await api<Product>("GET", `/products/${encodeURIComponent(shirt.id)}`, null);
    expect(after.body.variants.find((v) => v.id === shirt.variants[0].id)!.image?.url).toBe(donor.featuredImage!.url);

    // Select every proposal of the other product through its header row, then reject them in bulk.
    await page.getByRole("checkbox", { name: `Select every proposal of ${other.title}` }).click({ force: true });
    await page.getByRole("button", { name: "Reject selected" }).click();
    await page.getByText("2 proposals rejected.").waitFor();
    await page.getByTestId("proposal-product").filter({ hasText: other.title }).waitFor({ state: "detached" });
    expect(await page.getByTestId("side-by-side").count()).toBe(1);
    await screenshot(page, "admin-proposed-images-pending");

    // The approved tab shows the image the approval replaced, next to the new one.
    await page.getByRole("tab", { name: "Approved" }).click();
    await page.waitForURL((u) => u.searchParams.get("status") === "approved");
    const approvedRow = page.getByTestId("side-by-side").first();
    await approvedRow.getByRole("img", { name: "Before" }).waitFor();
    expect(await approvedRow.getByRole("img", { name: "Proposed" }).getAttribute("src")).toBe(donor.featuredImage!.url);
    await page.getByRole("img", { name: /Pending: 1, Approved: 1, Rejected: 2/ }).waitFor();
  });
});
