/**
 * The shopper's own screens in Chromium against the real server with demo data: the Save heart
 * (optimistic, rolled back on a failure, sign-in prompt on a 401) and the Saved page; following a
 * store and the Following page; a collection created, filled from a product page, emptied, renamed
 * and deleted; the Account page's interests (which set the gender preference). Then, each as a
 * shopper registered through the API for that test (not the demo shopper): the profile edited and
 * kept, the password changed (wrong current password first), signing out, and deleting the account.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { apiErrorAnswer, apiGet, failRequestsOnRelease, launchBrowser, newSession, productPath, screenshot, signInShopper, submitShopperSignIn } from "../helpers/browser";

const base = inject("e2eBaseUrl");

interface Card {
  id: string;
  handle: string;
  title: string;
}

const productUrl = (p: Card) => `${base}${productPath(p)}`;

describe("account screens (Chromium, demo data)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let products: Card[];

  beforeAll(async () => {
    ({ page, close } = await launchBrowser());
    products = (await apiGet<{ products: Card[] }>(base, "/products?limit=6")).products;
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
    await expect.poll(() => heart.getAttribute("data-saved")).toBe("true");
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

    const release = await failRequestsOnRelease(page, "**/api/users/saved-products/toggle");
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
      route.fulfill(apiErrorAnswer(401, "unauthenticated", "User is not authenticated"))
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

    await signInShopper(page, base);
    await page.goto(`${base}/saved`);
    await page.getByTestId("saved-list").locator(`[data-product-id="${id}"]`).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("guest-note").count()).toBe(0);
  });

  it("follows a store from its page, lists it on the Following page, and unfollows it there", async () => {
    const { stores } = await apiGet<{ stores: { id: string; handle: string; name: string; followerCount: number }[] }>(base, "/stores?take=20");
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
    // Optimistic: the button turns at once, without waiting for the server (next render, not this tick).
    await page.waitForFunction(() => document.querySelector('[data-testid="store-page"] [data-testid="follow-button"]')?.getAttribute("data-following") === "true", undefined, { timeout: 2000 });
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

interface Shopper {
  id: string;
  email: string;
  password: string;
  /** The token the registration answered (a session of its own, apart from the browser's). */
  token: string;
}

/** A new shopper with a password account, registered through the API (unique email per call). */
async function registerShopper(label: string): Promise<Shopper> {
  const email = `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "first-password-1";
  const res = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  const { user, token } = (await res.json()) as { user: { id: string; auth_provider: string; email: string }; token: string };
  expect(user).toMatchObject({ auth_provider: "password", email });
  return { id: user.id, email, password, token };
}

/** GET /api/users/me with a bearer token: its status and error code (if any). */
async function meWithToken(token: string): Promise<{ status: number; code?: string }> {
  const res = await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { error?: { code: string } };
  return { status: res.status, code: body.error?.code };
}

/** The browser's session token (the httpOnly `fd_session` cookie). */
async function browserToken(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies(base)).find((c) => c.name === "fd_session");
  expect(cookie?.value).toBeTruthy();
  return decodeURIComponent(cookie!.value);
}

const HOME_PATHS = ["/", "/womens", "/mens"];

/** Signed out: the header offers Sign in (no Sign out), and the browser is a new, anonymous guest. */
async function expectSignedOut(page: Page, email: string) {
  await page.locator("a.account__signin").waitFor({ timeout: 20_000 });
  expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(0);
  expect(await page.locator(".account__email").count()).toBe(0);
  const me = await page.evaluate(async () => {
    const r = await fetch("/api/users/me");
    return { status: r.status, body: (await r.json()) as { auth_provider: string; email: string | null } };
  });
  expect(me.status).toBe(200);
  expect(me.body.auth_provider).toBe("guest");
  expect(me.body.email).not.toBe(email);
}

describe("account settings as a newly registered shopper (Chromium)", () => {
  let browser: Browser;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ browser, close } = await launchBrowser());
  });
  afterAll(() => close?.());

  it("edits first name, last name and phone; they are kept after a reload; fields are capped and can be cleared", async () => {
    const shopper = await registerShopper("profile");
    const { context, page } = await newSession(browser);
    try {
      await signInShopper(page, base, { email: shopper.email, password: shopper.password });
      await page.goto(`${base}/account`);
      const form = page.getByTestId("profile-form");
      await form.waitFor({ timeout: 20_000 });
      await form.getByText(`Email: ${shopper.email}`).waitFor();
      const first = form.getByLabel("First name");
      const last = form.getByLabel("Last name");
      const phone = form.getByLabel("Phone");
      expect([await first.inputValue(), await last.inputValue(), await phone.inputValue()]).toEqual(["", "", ""]);

      await first.fill("  Ada ");
      await last.fill("Lovelace");
      await phone.fill("+44 20 7946 0958");
      const [patch] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith("/api/users/me") && r.request().method() === "PATCH"),
        form.getByRole("button", { name: "Save profile" }).click(),
      ]);
      expect(patch.status()).toBe(200);
      await form.getByText("Profile saved").waitFor({ timeout: 20_000 });
      await screenshot(page, "account-profile-saved");
      // Editing again hides the confirmation
      await last.fill("Lovelace-King");
      expect(await form.getByText("Profile saved").count()).toBe(0);
      await last.fill("Lovelace");

      await page.reload();
      await form.waitFor({ timeout: 20_000 });
      expect(await first.inputValue()).toBe("Ada");
      expect(await last.inputValue()).toBe("Lovelace");
      expect(await phone.inputValue()).toBe("+44 20 7946 0958");
      const me = await (await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${shopper.token}` } })).json();
      expect(me).toMatchObject({ id: shopper.id, first_name: "Ada", last_name: "Lovelace", phone_number: "+44 20 7946 0958" });

      // The only checks the form makes are length caps (as the API's): a longer phone is cut to 30
      // characters, so the API's "too long" error cannot be reached from the page.
      await phone.fill("1".repeat(40));
      expect(await phone.inputValue()).toBe("1".repeat(30));
      // An emptied field is saved as empty (null), and stays empty after a reload
      await phone.fill("");
      await form.getByRole("button", { name: "Save profile" }).click();
      await form.getByText("Profile saved").waitFor({ timeout: 20_000 });
      await page.reload();
      await form.waitFor({ timeout: 20_000 });
      expect(await phone.inputValue()).toBe("");
      expect(await first.inputValue()).toBe("Ada");
      const after = await page.evaluate(async () => (await fetch("/api/users/me")).json());
      expect(after).toMatchObject({ id: shopper.id, first_name: "Ada", last_name: "Lovelace", phone_number: null });
    } finally {
      await context.close();
    }
  });

  it("changes the password: the repeat is checked, a wrong current password shows the server's message, and the new password signs in", async () => {
    const shopper = await registerShopper("password");
    const newPassword = "second-password-2";
    const { context, page } = await newSession(browser);
    try {
      await signInShopper(page, base, { email: shopper.email, password: shopper.password });
      await page.goto(`${base}/account`);
      const form = page.getByTestId("password-form");
      await form.waitFor({ timeout: 20_000 });
      const current = form.getByLabel("Current password");
      const next = form.getByLabel("New password", { exact: true });
      const repeat = form.getByLabel("Repeat the new password");
      const submit = form.getByRole("button", { name: "Change password" });
      const alert = form.getByRole("alert");

      // Checked on the page: the new passwords must match (nothing is sent)
      let sent = 0;
      page.on("request", (r) => {
        if (r.url().endsWith("/api/users/change-password")) sent++;
      });
      await current.fill(shopper.password);
      await next.fill(newPassword);
      await repeat.fill("something-else-3");
      await submit.click();
      await alert.waitFor();
      expect(await alert.textContent()).toBe("The new passwords do not match.");
      expect(sent).toBe(0);

      // A wrong current password: the server's message
      await current.fill("not-my-password");
      await repeat.fill(newPassword);
      const [wrong] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/users/change-password")), submit.click()]);
      expect(wrong.status()).toBe(400);
      await alert.filter({ hasText: "The current password is incorrect" }).waitFor({ timeout: 20_000 });
      expect(await alert.textContent()).toBe("The current password is incorrect");
      await screenshot(page, "account-password-wrong");
      // Still signed in after the failure
      expect(await page.getByTestId("account-signout").isVisible()).toBe(true);

      // The right one
      await current.fill(shopper.password);
      const [ok] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/users/change-password")), submit.click()]);
      expect(ok.status()).toBe(200);
      await form.getByText("Password changed").waitFor({ timeout: 20_000 });
      expect(await alert.count()).toBe(0);
      expect([await current.inputValue(), await next.inputValue(), await repeat.inputValue()]).toEqual(["", "", ""]);

      // Sign out, then the old password no longer signs in on the login page, and the new one does
      await page.getByTestId("account-signout").click();
      await page.waitForURL((u) => HOME_PATHS.includes(u.pathname), { timeout: 20_000 });
      await expectSignedOut(page, shopper.email);
      await submitShopperSignIn(page, base, shopper.email, shopper.password);
      await page.getByRole("alert").filter({ hasText: "Email or password is incorrect" }).waitFor({ timeout: 20_000 });
      await signInShopper(page, base, { email: shopper.email, password: newPassword });
      await page.waitForURL((u) => HOME_PATHS.includes(u.pathname));
      expect(await page.locator(".account__email").textContent()).toBe(shopper.email);
      const me = await page.evaluate(async () => (await fetch("/api/users/me")).json());
      expect(me).toMatchObject({ id: shopper.id, auth_provider: "password" });
    } finally {
      await context.close();
    }
  });

  it("signs out from the Account page: the signed-out header, a guest's Account page, and the old session no longer works", async () => {
    const shopper = await registerShopper("signout");
    const { context, page } = await newSession(browser);
    try {
      await signInShopper(page, base, { email: shopper.email, password: shopper.password });
      await page.goto(`${base}/account`);
      const signOut = page.getByTestId("account-signout");
      await signOut.waitFor({ timeout: 20_000 });
      const token = await browserToken(context);
      expect((await meWithToken(token)).status).toBe(200);

      await signOut.click();
      await page.waitForURL((u) => HOME_PATHS.includes(u.pathname), { timeout: 20_000 });
      await expectSignedOut(page, shopper.email);
      await screenshot(page, "account-signed-out");
      // The signed-in session was revoked; the browser holds a new guest's session instead
      expect(await meWithToken(token)).toEqual({ status: 401, code: "unauthenticated" });
      expect(await browserToken(context)).not.toBe(token);
      // The registration's own session is untouched (signing out ends this browser's session only)
      expect((await meWithToken(shopper.token)).status).toBe(200);

      // The Account page is now a guest's: a sign-in note, no password or sign-out
      await page.goto(`${base}/account`);
      await page.getByTestId("guest-note").waitFor({ timeout: 20_000 });
      expect(await page.getByTestId("password-form").count()).toBe(0);
      expect(await page.getByTestId("account-signout").count()).toBe(0);
      expect(await page.getByTestId("account-delete").textContent()).toBe("Delete my guest data");
      expect(await page.getByTestId("profile-form").textContent()).not.toContain(shopper.email);
    } finally {
      await context.close();
    }
  });

  it("deletes the account after its confirmation dialog; its tokens then get 401", async () => {
    const shopper = await registerShopper("delete");
    const { context, page } = await newSession(browser);
    try {
      await signInShopper(page, base, { email: shopper.email, password: shopper.password });
      await page.goto(`${base}/account`);
      const del = page.getByTestId("account-delete");
      await del.waitFor({ timeout: 20_000 });
      expect(await del.textContent()).toBe("Delete account");
      const token = await browserToken(context);

      // Cancel keeps the account
      await del.click();
      const dialog = page.getByTestId("account-delete-dialog");
      await dialog.waitFor();
      expect(await dialog.getAttribute("role")).toBe("alertdialog");
      expect(await dialog.getByRole("heading").textContent()).toBe("Delete your account?");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect((await meWithToken(shopper.token)).status).toBe(200);

      // Escape closes it too
      await del.click();
      await dialog.waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      await del.click();
      await dialog.waitFor();
      await screenshot(page, "account-delete-dialog");
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith("/api/users/me") && r.request().method() === "DELETE"),
        page.getByTestId("account-delete-dialog-confirm").click(),
      ]);
      expect(res.status()).toBe(200);
      await page.waitForURL((u) => HOME_PATHS.includes(u.pathname), { timeout: 20_000 });
      await expectSignedOut(page, shopper.email);

      // Every token of the deleted account gets 401, and its password no longer signs in
      expect(await meWithToken(shopper.token)).toEqual({ status: 401, code: "unauthenticated" });
      expect(await meWithToken(token)).toEqual({ status: 401, code: "unauthenticated" });
      const login = await fetch(`${base}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: shopper.email, password: shopper.password }),
      });
      expect(login.status).toBe(401);
    } finally {
      await context.close();
    }
  });
});
