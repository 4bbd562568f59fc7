/**
 * The API keys admin screen in Chromium: create a key (shown once, with a copy button and a
 * warning), see it listed by its prefix only, use it on the data service (POST /api/graphql),
 * revoke it after a confirmation, and see the data service refuse it.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { apiSignIn, DEMO_SHOPPER, launchStaffBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

const shopperId = async (): Promise<string> => (await apiSignIn(base, DEMO_SHOPPER)).userId;

async function dataService(key: string, userId: string) {
  const res = await fetch(`${base}/api/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ query: "query ($u: ID) { savedProductsByUser(userId: $u, limit: 5) { items { product_id } nextToken } }", variables: { u: userId } }),
  });
  return { status: res.status, body: (await res.json()) as { data?: { savedProductsByUser: { items: unknown[] } }; errors?: { message: string }[] } };
}

describe("admin: API keys (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await launchStaffBrowser(base, { next: "/app" }));
  });
  afterAll(() => close?.());

  it("creates a key shown once, uses it, revokes it, and the data service refuses it", async () => {
    await page.getByRole("link", { name: "API keys", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/api-keys");
    await page.getByText("No API keys yet").waitFor();

    await page.getByRole("button", { name: "Create API key" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("E2E backend");
    await dialog.getByRole("button", { name: "Create key" }).click();
    await dialog.getByText("Copy this key now").waitFor();
    await dialog.getByText("This is the only time the key is shown", { exact: false }).waitFor();
    const key = await dialog.getByLabel("API key").inputValue();
    expect(key).toMatch(/^fdk_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole("button", { name: "Copy key" }).click();
    // The clipboard may be refused to a headless browser: then the key is selected for Ctrl+C.
    await dialog.getByText(/Copied to the clipboard|The key is selected/).waitFor();
    await screenshot(page, "admin-api-key-created");
    await dialog.getByRole("button", { name: "Done" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });

    // Listed by its prefix; the key itself is nowhere on the page any more.
    const row = page.getByRole("row").filter({ hasText: "E2E backend" });
    await row.getByText(`${key.slice(0, 12)}…`).waitFor();
    await row.getByText("Active", { exact: true }).waitFor();
    await row.getByText("Never").waitFor();
    expect(await page.content()).not.toContain(key);

    // The key opens the data service; its last use shows after a reload.
    const userId = await shopperId();
    const used = await dataService(key, userId);
    expect(used.status).toBe(200);
    expect(Array.isArray(used.body.data?.savedProductsByUser.items)).toBe(true);
    await page.reload();
    await row.getByText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/).nth(1).waitFor();
    expect(await row.getByText("Never").count()).toBe(0);
    await screenshot(page, "admin-api-keys-list");

    // Revoke, after a confirmation.
    await row.getByRole("button", { name: "Revoke E2E backend" }).click();
    const confirm = page.getByRole("dialog");
    await confirm.getByText("will be refused at once", { exact: false }).waitFor();
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await page.getByTestId("api-keys-result").filter({ hasText: 'Key "E2E backend" revoked' }).waitFor();
    await row.getByText(/^Revoked/).waitFor();
    expect(await row.getByRole("button", { name: "Revoke E2E backend" }).count()).toBe(0);
    await screenshot(page, "admin-api-key-revoked");

    const refused = await dataService(key, userId);
    expect(refused.status).toBe(401);
    expect(refused.body.errors?.[0].message).toContain("revoked");
    expect(refused.body).not.toHaveProperty("data");
  });
});
