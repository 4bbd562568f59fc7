/**
 * Clones and virtual try-on in Chromium against the real server, which runs the REAL local image
 * provider (person analysis, photo preparation, try-on on the CPU): the demo shopper creates a
 * clone from photos of tests/fixtures/people (a group photo is refused with its reason and the
 * photos stay), trains it and watches the progress reach "Ready", opens an eligible product with
 * `?tryon=1` (the theme block's link), sees the server's message when a try-on is refused (501),
 * tries the product on, saves the result and finds it on the Saved try-ons and My try-ons pages.
 * A guest is offered to sign in or create a clone. The screenshots are real local try-on results.
 *
 * The e2e server is shared with other files: nothing here depends on counts of shared data.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { apiErrorAnswer, apiGet, failRequestsOnRelease, launchBrowser, productPath, screenshot, signInShopper } from "../helpers/browser";

const base = inject("e2eBaseUrl");
const PEOPLE = path.resolve("tests/fixtures/people");
const photo = (name: string) => path.join(PEOPLE, name);
/** Preparing photos, training and try-on run on the CPU: minutes, not seconds. */
const SLOW = 300_000;

interface EligibleProduct {
  id: string;
  handle: string;
  title: string;
}

const productUrl = (p: EligibleProduct, search = "") => `${base}${productPath(p)}${search}`;

describe("clones and try-on (Chromium, real local image provider)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let product: EligibleProduct;
  const cloneName = `E2E clone ${Date.now().toString(36)}`;
  let cloneId = "";
  let tryonId = "";

  beforeAll(async () => {
    ({ page, close } = await launchBrowser());
    const eligible = await apiGet<{ products: EligibleProduct[] }>(base, "/try-ons/eligible-products?limit=5");
    expect(eligible.products.length).toBeGreaterThan(0);
    product = eligible.products[0];
  });
  afterAll(() => close?.());

  it("a guest on an eligible product's ?tryon=1 page is offered to sign in or create a clone", async () => {
    await page.goto(productUrl(product, "?tryon=1"));
    const panel = page.getByTestId("tryon-panel");
    await panel.waitFor({ timeout: 30_000 });
    // Opened by the address, no click needed
    await panel.getByTestId("tryon-body").waitFor({ timeout: 30_000 });
    // A new guest has no clone of its own: the panel offers to make one or to sign in; when house
    // models exist (other files may make some), it offers them with a note to sign in.
    await panel.locator('[data-testid="tryon-no-clone"], [data-testid="tryon-guest-note"]').first().waitFor({ timeout: 30_000 });
    if ((await panel.getByTestId("tryon-no-clone").count()) > 0) {
      expect(await panel.getByTestId("tryon-create-clone").count()).toBe(1);
      expect(await panel.getByTestId("tryon-sign-in").count()).toBe(1);
    } else {
      expect(await panel.getByTestId("tryon-guest-note").getByRole("link", { name: "Sign in" }).count()).toBe(1);
    }
    await screenshot(page, "tryon-guest-panel");
  });

  it(
    "refuses a group photo with its reason and keeps the photos; then creates a clone from 4 photos and trains it to ready",
    async () => {
      await signInShopper(page, base);
      await page.goto(`${base}/clones`);
      const form = page.getByTestId("clone-create");
      await form.waitFor({ timeout: 30_000 });
      await form.getByTestId("clone-name").fill(cloneName);
      await form.getByTestId("clone-gender").selectOption("womenswear");

      // A group photo and three good photos: fewer than 4 usable, nothing is created
      await form.getByTestId("clone-photos-input").setInputFiles([photo("group.jpg"), photo("person-2.jpg"), photo("person-3.jpg"), photo("person-4.jpg")]);
      await page.waitForFunction(() => document.querySelector('[data-testid="clone-photo-count"]')?.textContent?.startsWith("4 photos ready"), null, {
        timeout: 60_000,
      });
      await form.getByTestId("clone-upload").click();
      const error = page.getByTestId("clone-create-error");
      await error.waitFor({ timeout: 120_000 });
      expect(await error.textContent()).toMatch(/at least 4/);
      const refused = form.locator('[data-testid="clone-photo"][data-verdict="refused"]');
      await refused.first().waitFor({ timeout: 10_000 });
      const reason = (await refused.first().getByTestId("clone-photo-status").textContent()) ?? "";
      expect(reason).toMatch(/person/i);
      // The photos are kept, with their verdicts
      expect(await form.getByTestId("clone-photo").count()).toBe(4);
      await screenshot(page, "tryon-clone-photo-refused");

      // Remove the refused photos, add others of the same person, send again
      while ((await refused.count()) > 0)
        await refused
          .first()
          .getByRole("button", { name: /^Remove photo/ })
          .click();
      const more = ["person-5.jpg", "person-6.jpg", "person-1.jpg"].slice(0, 4 - (await form.getByTestId("clone-photo").count()) + 1);
      await form.getByTestId("clone-photos-input").setInputFiles(more.map(photo));
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid="clone-photo-count"]')?.textContent?.startsWith(`${n} photos ready`),
        await form.getByTestId("clone-photo").count(),
        { timeout: 60_000 }
      );
      await form.getByTestId("clone-upload").click();
      const created = page.getByTestId("clone-created");
      await created.waitFor({ timeout: 120_000 });
      expect(await created.locator('[data-verdict="ok"]').count()).toBeGreaterThanOrEqual(4);
      await screenshot(page, "tryon-clone-photos-checked");
      await created.getByTestId("clone-start-training").click();

      // The new clone's card: training progress polled until ready
      const card = page.getByTestId("clone-card").filter({ hasText: cloneName });
      await card.waitFor({ timeout: 30_000 });
      cloneId = (await card.getAttribute("data-clone-id")) ?? "";
      expect(cloneId).not.toBe("");
      expect(await card.getByText("Private").count()).toBeGreaterThan(0);
      if ((await card.getAttribute("data-status")) === "training") {
        await card
          .getByTestId("clone-training-progress")
          .waitFor({ timeout: 10_000 })
          .catch(() => undefined);
        await screenshot(page, "tryon-clone-training");
      }
      await page.waitForFunction(
        (id) => {
          const s = document.querySelector(`[data-testid="clone-card"][data-clone-id="${id}"]`)?.getAttribute("data-status");
          return s === "ready" || s === "failed";
        },
        cloneId,
        { timeout: SLOW, polling: 1000 }
      );
      const status = await card.getAttribute("data-status");
      if (status !== "ready")
        throw new Error(
          `training failed: ${await card
            .getByTestId("clone-job-error")
            .textContent()
            .catch(() => "")}`
        );
      await card.getByTestId("clone-job-duration").waitFor({ timeout: 30_000 });
      await screenshot(page, "tryon-clone-ready");

      // Choose one of the photos as the profile picture
      await card.getByRole("button", { name: "Choose a photo" }).click();
      const second = card.getByRole("button", { name: "Use photo 2 as the profile picture" });
      const chosen = await second.locator("img").getAttribute("src");
      await second.click();
      await page.waitForFunction(
        ([id, url]) => document.querySelector(`[data-testid="clone-card"][data-clone-id="${id}"] .clone-card__avatar`)?.getAttribute("src") === url,
        [cloneId, chosen] as const,
        { timeout: 20_000 }
      );
    },
    SLOW + 240_000
  );

  it(
    "tries the product on from ?tryon=1: a 501 shows the server's message; the real try-on shows its picture, which is saved",
    async () => {
      expect(cloneId).not.toBe("");
      await page.goto(productUrl(product, "?tryon=1"));
      const panel = page.getByTestId("tryon-panel");
      const option = panel.locator(`[data-testid="tryon-clone"][data-clone-id="${cloneId}"]`);
      await option.waitFor({ timeout: 30_000 });
      await option.click();
      expect(await option.locator("input").isChecked()).toBe(true);

      // The provider cannot do it: the server's message is shown
      const refusal = "Virtual try-on is not available with the current image provider (test).";
      await page.route("**/api/vton/get-or-generate", (route) =>
        route.fulfill(apiErrorAnswer(501, "not_implemented", refusal))
      );
      const start = panel.getByTestId("tryon-start");
      // The latest try-on of this clone and product is asked first (none yet)
      await start.waitFor({ timeout: 30_000 });
      await start.click();
      const err = panel.getByTestId("tryon-error");
      await err.waitFor({ timeout: 20_000 });
      expect(await err.textContent()).toContain(refusal);
      await page.unroute("**/api/vton/get-or-generate");

      // The real try-on, on the local provider
      await start.click();
      await panel
        .locator(
          '[data-testid="tryon-result"][data-status="queued"], [data-testid="tryon-result"][data-status="processing"], [data-testid="tryon-result"][data-status="completed"]'
        )
        .waitFor({ timeout: 30_000 });
      if ((await panel.getByTestId("tryon-progress").count()) > 0) await screenshot(page, "tryon-in-progress");
      await page.waitForFunction(
        () => {
          const s = document.querySelector('[data-testid="tryon-result"]')?.getAttribute("data-status");
          return s === "completed" || s === "failed";
        },
        null,
        { timeout: SLOW, polling: 1000 }
      );
      if ((await panel.getByTestId("tryon-result").getAttribute("data-status")) === "failed") {
        throw new Error(`try-on failed: ${await panel.getByTestId("tryon-failed").textContent()}`);
      }
      const image = panel.getByTestId("tryon-result-image");
      await image.waitFor({ timeout: 10_000 });
      expect(await image.getAttribute("data-placeholder")).toBeNull();
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('[data-testid="tryon-result-image"]');
        return !!img && img.complete && img.naturalWidth > 0;
      });
      await image.scrollIntoViewIfNeeded();
      await screenshot(page, "tryon-result");

      // Save it (optimistic: the heart fills at once), then find it on the Saved try-ons page
      const save = panel.getByTestId("tryon-save");
      await panel.locator('[data-testid="tryon-save"][data-known="true"]').waitFor({ timeout: 20_000 });
      expect(await save.getAttribute("data-saved")).toBe("false");
      await save.click();
      await expect.poll(() => save.getAttribute("data-saved")).toBe("true");
      await page.waitForFunction(() => !document.querySelector('[data-testid="tryon-save"][data-pending]'));
      expect(await save.getAttribute("data-saved")).toBe("true");

      await page.goto(`${base}/saved-try-ons`);
      const saved = page.getByTestId("saved-tryon-card").filter({ hasText: product.title }).first();
      await saved.waitFor({ timeout: 30_000 });
      tryonId = (await saved.getAttribute("data-tryon-id")) ?? "";
      expect(await saved.getByTestId("tryon-card-image").getAttribute("data-placeholder")).toBeNull();
      await screenshot(page, "tryon-saved-list");

      await page.goto(`${base}/try-ons`);
      await page.locator(`[data-testid="tryon-card"][data-tryon-id="${tryonId}"]`).waitFor({ timeout: 30_000 });
      await screenshot(page, "tryon-my-tryons");
    },
    SLOW + 120_000
  );

  it("the product modal has the try-on panel too, showing the latest result (phone-sized screen)", async () => {
    expect(tryonId).not.toBe("");
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${base}/?product=${product.id.split("/").pop()}`);
      const modal = page.getByTestId("product-modal");
      await modal.waitFor({ timeout: 30_000 });
      const panel = modal.getByTestId("tryon-panel");
      await panel.getByTestId("tryon-open").click();
      await panel.locator(`[data-testid="tryon-clone"][data-clone-id="${cloneId}"]`).click();
      // The latest try-on of this product on this clone comes back without starting a new one
      const image = panel.getByTestId("tryon-result-image");
      await image.waitFor({ timeout: 30_000 });
      expect(await image.getAttribute("data-placeholder")).toBeNull();
      await panel.locator('[data-testid="tryon-save"][data-known="true"]').waitFor({ timeout: 20_000 });
      expect(await panel.getByTestId("tryon-save").getAttribute("data-saved")).toBe("true");
      // Scroll the modal's own body (not the fixed dialog) to the panel
      await page.evaluate(() => {
        const body = document.querySelector(".modal__body");
        const panelEl = document.querySelector('[data-testid="product-modal"] [data-testid="tryon-panel"]');
        if (body && panelEl) body.scrollTop += panelEl.getBoundingClientRect().top - body.getBoundingClientRect().top;
      });
      await screenshot(page, "tryon-modal-mobile");
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("a save that fails is rolled back with a message; unsaving from the Saved try-ons page takes it off the list", async () => {
    expect(tryonId).not.toBe("");
    await page.goto(`${base}/saved-try-ons`);
    const card = page.locator(`[data-testid="saved-tryon-card"][data-tryon-id="${tryonId}"]`);
    await card.waitFor({ timeout: 30_000 });
    const heart = card.getByTestId("tryon-save");
    expect(await heart.getAttribute("data-saved")).toBe("true");

    const release = await failRequestsOnRelease(page, "**/api/users/saved-tryons/toggle");
    await heart.click();
    // Optimistic: flipped before the (held) answer, once React has re-rendered.
    await expect.poll(() => heart.getAttribute("data-saved")).toBe("false");
    release();
    await page.waitForFunction(
      (id) => document.querySelector(`[data-tryon-id="${id}"] [data-testid="tryon-save"]`)?.getAttribute("data-saved") === "true",
      tryonId
    );
    await card.getByTestId("tryon-save-error").waitFor();
    await page.unroute("**/api/users/saved-tryons/toggle");

    await heart.click();
    await card.waitFor({ state: "detached", timeout: 30_000 });
  });

  it("deletes the try-on's image, then the clone, each after confirming", async () => {
    expect(tryonId).not.toBe("");
    await page.goto(`${base}/try-ons`);
    const card = page.locator(`[data-testid="tryon-card"][data-tryon-id="${tryonId}"]`);
    await card.waitFor({ timeout: 30_000 });
    await card.getByTestId("tryon-delete").click();
    await page.getByTestId("tryon-delete-dialog").waitFor();
    await page.getByTestId("tryon-delete-dialog-confirm").click();
    await card.waitFor({ state: "detached", timeout: 30_000 });

    await page.goto(`${base}/clones`);
    const clone = page.locator(`[data-testid="clone-card"][data-clone-id="${cloneId}"]`);
    await clone.waitFor({ timeout: 30_000 });
    await clone.getByTestId("clone-delete").click();
    await page.getByTestId("clone-delete-dialog").waitFor();
    await screenshot(page, "tryon-clone-delete-confirm");
    await page.getByTestId("clone-delete-dialog-confirm").click();
    await clone.waitFor({ state: "detached", timeout: 30_000 });
  });
});
