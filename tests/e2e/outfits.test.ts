/**
 * Outfits end to end in Chromium (issue 19): an admin builds a look in the Polaris builder (create,
 * add two try-on products from the catalogue picker, publish); the demo shopper opens one of them,
 * sees "Complete the look" with that look, generates it on a public house model and sees the
 * progress (polled every 5 s) and then the picture. The server runs the REAL local image provider:
 * the garments are composited onto the model one after the other on the CPU.
 *
 * The e2e server is shared with other files: nothing here depends on counts of shared data.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { apiGet, launchBrowser, launchStaffBrowser, productPath, screenshot, signInShopper } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const LOOK = `E2E look ${Date.now().toString(36)}`;
/** Two garments rendered on the CPU, one after the other: minutes on a loaded machine, not seconds. */
const SLOW = 300_000;

interface EligibleProduct {
  id: string;
  handle: string;
  title: string;
  productType?: string;
}

describe("outfits: an admin builds a look, a shopper generates it on a house model (Chromium)", () => {
  let admin: Page;
  let closeAdmin: () => Promise<void>;
  let shopper: Page;
  let closeShopper: () => Promise<void>;
  let products: EligibleProduct[] = [];
  let lookId = "";

  beforeAll(async () => {
    ({ page: admin, close: closeAdmin } = await launchStaffBrowser(base, { next: "/app/outfits" }));
    ({ page: shopper, close: closeShopper } = await launchBrowser());
    const eligible = await apiGet<{ products: EligibleProduct[] }>(base, "/try-ons/eligible-products?limit=40");
    // A bottom and a top when the catalogue has them (two distinct titles, so the picker finds each).
    const bottom = eligible.products.find((p) => /jeans|trousers|skirt|shorts|pants/i.test(`${p.productType ?? ""} ${p.title}`));
    const top = eligible.products.find((p) => p !== bottom && !/jeans|trousers|skirt|shorts|pants|dress/i.test(`${p.productType ?? ""} ${p.title}`) && p.title !== bottom?.title);
    products = [bottom, top].filter((p): p is EligibleProduct => !!p);
    for (const p of eligible.products) if (products.length < 2 && !products.some((q) => q.title === p.title)) products.push(p);
    expect(products).toHaveLength(2);
  }, 60_000);
  afterAll(async () => {
    await closeAdmin?.();
    await closeShopper?.();
  });

  it("the admin creates a look, adds two products with the picker and publishes it", async () => {
    await admin.goto(`${base}/app/outfits`);
    await admin.getByRole("button", { name: "Create outfit" }).first().click();
    await admin.getByRole("dialog").getByLabel("Name").fill(LOOK);
    await admin.getByRole("dialog").getByRole("button", { name: "Create" }).click();
    await admin.waitForURL((u) => /^\/app\/outfits\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith("/proposals"));
    lookId = new URL(admin.url()).pathname.split("/").pop()!;

    for (const p of products) {
      // By its id: exactly the try-on product (titles can repeat in the demo catalogue).
      await admin.getByLabel("Add products").fill(p.id);
      const add = admin.getByRole("button", { name: `Add ${p.title}` }).first();
      await add.waitFor({ timeout: 30_000 });
      await add.click();
      await admin.getByTestId("outfit-product").filter({ hasText: p.title }).first().waitFor({ timeout: 30_000 });
    }
    await admin.getByRole("button", { name: "Publish" }).first().click();
    await admin.getByText("Outfit published.").first().waitFor({ timeout: 30_000 });
    await screenshot(admin, "outfits-admin-look-built");
  }, 120_000);

  it(
    "the shopper sees Complete the look, generates the look on a house model, sees progress then the image",
    async () => {
      expect(lookId).not.toBe("");
      await signInShopper(shopper, base);
      await shopper.goto(`${base}${productPath(products[0])}`);
      // The section loads when it comes near the screen.
      const section = shopper.getByTestId("complete-the-look");
      for (let i = 0; i < 20 && (await section.count()) === 0; i++) {
        await shopper.mouse.wheel(0, 1200);
        await shopper.waitForTimeout(300);
      }
      await section.waitFor({ timeout: 30_000 });
      await section.scrollIntoViewIfNeeded();
      expect(await section.getByRole("heading", { name: "Complete the look" }).count()).toBe(1);
      const look = section.locator(`[data-testid="outfit"][data-outfit-id="${lookId}"]`);
      await look.waitFor({ timeout: 30_000 });
      expect(await look.textContent()).toContain(LOOK);

      const generator = look.getByTestId("outfit-generator");
      await generator.getByTestId("outfit-generator-open").click();
      // A public house model from the demo data.
      const house = generator.locator('[data-testid="outfit-generator-clone"]').filter({ hasText: "house model" }).first();
      await house.waitFor({ timeout: 30_000 });
      await house.click();
      expect(await house.locator("input").isChecked()).toBe(true);
      await screenshot(shopper, "outfits-generator-choose-clone");

      await generator.getByTestId("outfit-generate").click();
      const result = generator.getByTestId("outfit-generation");
      // Progress while in progress (queued or rendering)…
      await generator.locator('[data-testid="outfit-generation"][data-status="in-progress"]').waitFor({ timeout: 30_000 });
      await generator.getByTestId("outfit-generation-progress").waitFor({ timeout: 10_000 });
      await screenshot(shopper, "outfits-generation-in-progress");
      // …then done: the picture (or a failure, reported with the server's words).
      await shopper.waitForFunction(
        (id) => {
          const s = document.querySelector(`[data-outfit-id="${id}"] [data-testid="outfit-generation"]`)?.getAttribute("data-status");
          return s === "completed" || s === "failed";
        },
        lookId,
        { timeout: SLOW, polling: 1000 },
      );
      if ((await result.getAttribute("data-status")) === "failed") {
        throw new Error(`outfit generation failed: ${await generator.getByTestId("outfit-generation-failed").textContent()}`);
      }
      const image = generator.getByTestId("outfit-generation-image");
      await image.waitFor({ timeout: 10_000 });
      await shopper.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await image.elementHandle(), { timeout: 30_000 });
      expect(await generator.getByTestId("outfit-generation-progress").count()).toBe(0);
      await image.scrollIntoViewIfNeeded();
      await screenshot(shopper, "outfits-generation-done");
    },
    SLOW + 120_000,
  );
});
