/**
 * The shopper's own screens in Chromium against the real server with demo data: the Save heart
 * (optimistic, rolled back on a failure, sign-in prompt on a 401) and the Saved page; following a
 * store and the Following page; a collection created, filled from a product page, emptied, renamed
 * and deleted; the Account page's interests (which set the gender preference).
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

interface Card {
  id: string;
  handle: string;
  title: string;
}

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${base}/api${path}`);
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
}

const productUrl = (p: Card) => `${base}/products/${p.id.split("/").pop()}/${p.handle}`;

async function signIn(page: Page) {
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill("shopper@demo.local");
  await page.getByLabel("Password").fill("demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).first().waitFor({ timeout: 20_000 });
}

describe("account screens (Chromium, demo data)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let products: Card[];

  beforeAll(async () => {
    const b = await launchBrowser();
    page = b.page;
    close = b.close;
    products = (await api<{ products: Card[] }>("/products?limit=6")).products;
    expect(products.length).toBe(6);
  });
  afterAll(() => close?.());

  it("a guest saves a product from its page (the heart fills at once) and finds it on the Saved page", async () => {
    const p = products[0];
    await page.goto(productUrl(p));
    // The guest session is there (the header's links show once it is)
    await page.getByTestId("header-saved-link").waitFor({ timeout: 30_000 });
    const heart = page.getByTestId("product-details").getByTestId("save-button");
    await page.getByTestId("product-details").locator('[data-testid="save-button"][data-known="true"]').waitFor({ timeout: 30_000 });
    expect(await heart.getAttribute("data-saved")).toBe("false");
    await heart.click();
    expect(await heart.getAttribute("data-saved")).toBe("true");
    await page.waitForFunction(() => !document.querySelector('[data-testid="product-details"] [data-testid="save-button"][data-pending]'));
    await screenshot(page, "account-product-saved");

    await page.getByTestId("header-saved-link").click();
    await page.waitForURL((u) => u.pathname === "/saved");
    const card = page.getByTestId("saved-list").locator(`[data-product-id="${p.id}"]`);
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getByTestId("save-button").getAttribute("data-saved")).toBe("true");
    await page.getByTestId("guest-note").waitFor();
    await screenshot(page, "account-saved");

    // Unsave from the Saved page: the card leaves the list
    await card.getByTestId("save-button").click();
    await card.waitFor({ state: "detached", timeout: 20_000 });
    await page.reload();
    await page.getByTestId("saved-empty").waitFor({ timeout: 20_000 });
  });

  it("rolls the heart back when saving fails, and asks to sign in on a 401", async () => {
    const p = products[1];
    await page.goto(productUrl(p));
    const heart = page.getByTestId("product-details").getByTestId("save-button");
    await heart.waitFor({ timeout: 30_000 });

    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/users/saved-products/toggle", async (route) => {
      await held;
      await route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal", message: "Something went wrong on our side" } }),
      });
    });
    await heart.click();
    // Optimistic: filled while the request is on its way…
    expect(await heart.getAttribute("data-saved")).toBe("true");
    release();
    // …and rolled back when it fails, with a message
    await page.waitForFunction(
      () => document.querySelector('[data-testid="product-details"] [data-testid="save-button"]')?.getAttribute("data-saved") === "false"
    );
    await page.getByTestId("save-error").waitFor();
    await page.unroute("**/api/users/saved-products/toggle");

    await page.route("**/api/users/saved-products/toggle", (route) =>
      route.fulfill({
        status: 401,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "unauthenticated", message: "User is not authenticated" } }),
      })
    );
    await heart.click();
    const prompt = page.getByTestId("login-prompt");
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain("User is not authenticated");
    expect(await heart.getAttribute("data-saved")).toBe("false");
    await screenshot(page, "account-login-prompt");
    await page.unroute("**/api/users/saved-products/toggle");
    await prompt.getByRole("button", { name: "Not now" }).click();
    await prompt.waitFor({ state: "detached" });
  });

  it("hearts on feed cards save without opening the product; what a guest saved moves into the account on sign-in", async () => {
    await page.goto(`${base}/`);
    const card = page.locator('[data-testid="home-feed"] > [data-testid="product-card"]').first();
    await card.waitFor({ timeout: 30_000 });
    const id = (await card.getAttribute("data-product-id"))!;
    await card.getByTestId("save-button").click();
    await page.waitForFunction(
      (pid) =>
        document.querySelector(`[data-testid="home-feed"] > [data-product-id="${pid}"] [data-testid="save-button"]`)?.getAttribute("data-saved") === "true",
      id
    );
    expect(await page.getByTestId("product-modal").count()).toBe(0);
    await page.waitForFunction(() => !document.querySelector('[data-testid="save-button"][data-pending]'));

    await signIn(page);
    await page.goto(`${base}/saved`);
    await page.getByTestId("saved-list").locator(`[data-product-id="${id}"]`).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("guest-note").count()).toBe(0);
  });

  it("follows a store from its page, lists it on the Following page, and unfollows it there", async () => {
    const { stores } = await api<{ stores: { id: string; handle: string; name: string; followerCount: number }[] }>("/stores?take=20");
    const store = stores[stores.length - 1];
    await page.goto(`${base}/stores/${store.id}/${store.handle}`);
    const follow = page.getByTestId("store-page").getByTestId("follow-button");
    // Wait until the button knows whether the shopper follows the store
    await page.getByTestId("store-page").locator('[data-testid="follow-button"][data-known="true"]').waitFor({ timeout: 30_000 });
    const startedFollowing = (await follow.getAttribute("data-following")) === "true";
    if (startedFollowing) {
      await follow.click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="store-page"] [data-testid="follow-button"]')?.getAttribute("data-following") === "false"
      );
      await page.waitForFunction(() => !document.querySelector('[data-testid="follow-button"][data-pending]'));
    }
    const before = Number(((await page.getByTestId("store-followers").textContent()) ?? "").match(/\d+/)![0]);
    await follow.click();
    expect(await follow.getAttribute("data-following")).toBe("true");
    expect(await follow.textContent()).toBe("Following");
    await page.waitForFunction((n) => document.querySelector('[data-testid="store-followers"]')?.textContent?.startsWith(String(n)), before + 1);
    await screenshot(page, "account-store-followed");

    await page.goto(`${base}/following`);
    const row = page.getByTestId("following-list").locator(`[data-store-id="${store.id}"]`);
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toContain(store.name);
    await screenshot(page, "account-following");
    await row.locator('[data-testid="follow-button"][data-known="true"][data-following="true"]').click();
    await row.waitFor({ state: "detached", timeout: 20_000 });
  });

  it("creates a collection, adds a product from its page, removes it, renames and deletes the collection", async () => {
    await page.goto(`${base}/my-collections`);
    const form = page.getByTestId("collection-create-form");
    await form.waitFor({ timeout: 20_000 });
    const name = `E2E picks ${Date.now() % 100000}`;
    await form.getByLabel("Name").fill(name);
    await form.getByRole("button", { name: "Create collection" }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/my-collections/"));
    const collectionUrl = page.url();
    await page.getByTestId("collection-empty").waitFor({ timeout: 20_000 });

    const p = products[2];
    await page.goto(productUrl(p));
    await page.getByTestId("add-to-collection").click();
    const panel = page.getByTestId("add-to-collection-panel");
    const option = panel.locator("label", { hasText: name }).getByTestId("add-to-collection-option");
    await option.waitFor({ timeout: 20_000 });
    expect(await option.isChecked()).toBe(false);
    await option.click();
    // Ticked at once, then confirmed by the server (the count becomes 1)
    expect(await option.isChecked()).toBe(true);
    await page.waitForFunction((n) => {
      const label = [...document.querySelectorAll('[data-testid="add-to-collection-panel"] label')].find((l) => l.textContent?.includes(n));
      return label?.querySelector("input")?.checked === true && label.querySelector(".add-to__count")?.textContent === "1";
    }, name);
    await screenshot(page, "account-add-to-collection");

    await page.goto(collectionUrl);
    const item = page.getByTestId("collection-products").locator(`[data-testid="collection-item"][data-product-id="${p.id}"]`);
    await item.waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("collection-count").textContent()).toBe("1 product");
    await screenshot(page, "account-collection");
    await item.getByTestId("collection-remove-product").click();
    await page.getByTestId("collection-empty").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("collection-count").textContent()).toBe("0 products");

    await page.getByTestId("collection-rename").click();
    const rename = page.getByTestId("collection-rename-form");
    await rename.getByLabel("Name").fill(`${name} renamed`);
    await rename.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { level: 1, name: `${name} renamed` }).waitFor({ timeout: 20_000 });

    await page.getByTestId("collection-delete").click();
    const dialog = page.getByTestId("collection-delete-dialog");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByTestId("collection-delete").click();
    await page.getByTestId("collection-delete-dialog-confirm").click();
    await page.waitForURL((u) => u.pathname === "/my-collections");
    await page.getByTestId("my-collections-page").waitFor();
    await page.waitForFunction((n) => !document.body.textContent?.includes(n), `${name} renamed`);
  });

  it("edits interests on the Account page: the gender chosen becomes the gender preference", async () => {
    await page.goto(`${base}/account`);
    const form = page.getByTestId("interests-form");
    await form.waitFor({ timeout: 20_000 });
    await form.getByLabel("Menswear", { exact: true }).check();
    await form.getByTestId("interest-custom").fill("linen, e2e-interest");
    await form.getByRole("button", { name: "Add", exact: true }).click();
    await form.getByTestId("interest-chip").filter({ hasText: "e2e-interest" }).waitFor();
    await form.getByTestId("interests-save").click();
    await form.getByText("Interests saved").waitFor({ timeout: 20_000 });
    await screenshot(page, "account-interests");

    const prefs = await page.evaluate(async () => (await fetch("/api/users/style-preferences")).json());
    expect(prefs.gender).toBe("menswear");
    expect(prefs.interestList).toEqual(expect.arrayContaining(["menswear", "linen", "e2e-interest"]));
    expect(prefs.interestList).not.toContain("womenswear");
    // The header's gender switch follows, and the home page goes to /mens
    expect(await page.getByTestId("gender-switch-menswear").getAttribute("aria-pressed")).toBe("true");
    await page.goto(`${base}/`);
    await page.waitForURL((u) => u.pathname === "/mens");

    // Back to womenswear for the demo shopper
    await page.goto(`${base}/account`);
    await page.getByTestId("interests-form").getByLabel("Womenswear", { exact: true }).check();
    await page.getByTestId("interests-form").getByTestId("interests-save").click();
    await page.getByTestId("interests-form").getByText("Interests saved").waitFor({ timeout: 20_000 });
  });
});
