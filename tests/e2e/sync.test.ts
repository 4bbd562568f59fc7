/**
 * The Catalogue sync admin screen in Chromium (local mode, no App Bridge): sync one store and
 * watch its progress until the result counts show, then sync every store. A failed job's banner
 * and Retry are covered by tests/integration/catalog-sync-screen.test.tsx (a sync of the local
 * catalogue does not fail on its own).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, reportFailedTest, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

describe("admin: catalogue sync (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let problems: string[] = [];
  beforeAll(async () => {
    ({ page, close, problems } = await launchStaffBrowser(base, { next: "/app" }));
  });
  afterAll(() => close?.());
  afterEach((t) => reportFailedTest(t, page, { name: "admin-sync", problems, textChars: 1500 }));

  it("opens from the navigation with every store, never synced", async () => {
    await page.goto(`${base}/app`);
    await page.getByRole("link", { name: "Catalogue sync" }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/sync");
    await page.getByRole("heading", { name: "Catalogue sync" }).first().waitFor();
    expect(await page.getByRole("button", { name: /^Sync (?!all)/ }).count()).toBeGreaterThanOrEqual(10);
    expect(await page.getByText("Not synced yet").count()).toBeGreaterThanOrEqual(10);
    await page.getByText("Products per store").waitFor();
  });

  it("syncs one store with a live progress bar, then shows its result counts", async () => {
    // Record whether a progress bar was ever shown (the demo store syncs in a second or two).
    await page.evaluate(() => {
      const w = window as unknown as { sawProgress: boolean };
      w.sawProgress = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="sync-progress"] progress, [data-testid="sync-progress"] [role="progressbar"]')) w.sawProgress = true;
      }).observe(document.body, { childList: true, subtree: true, attributes: true });
    });
    // e2e files share one server and the stores test renames this store, so its current name is
    // read from the row rather than assumed.
    const row = page.getByRole("row").filter({ hasText: "Kestrel Outdoor" });
    const name = (await row.getByRole("cell").first().innerText()).trim();
    expect(name).toMatch(/^Kestrel Outdoor/);
    const products = Number((await row.getByTestId("product-count").textContent())?.replace(/\D/g, ""));
    expect(products).toBeGreaterThan(0);
    await row.getByRole("button", { name: `Sync ${name}` }).click();

    await page.waitForFunction(() => (window as unknown as { sawProgress: boolean }).sawProgress, undefined, { timeout: 15_000 });
    // Polling stops by itself once the job is done: the result badges and the success banner show.
    await row.getByText(`${products} unchanged`).waitFor({ timeout: 60_000 });
    for (const t of ["0 created", "0 updated", "0 removed"]) await row.getByText(t).waitFor();
    await page.getByTestId("sync-success").getByText(`${name}: 0 created, 0 updated, ${products} unchanged, 0 removed.`).waitFor();
    await row.getByText("just now").waitFor();
    expect(await row.getByTestId(/^sync-status-/).locator('[data-testid="sync-progress"]').count()).toBe(0);
    await screenshot(page, "admin-sync");
  });

  it("syncs every store from the primary action", async () => {
    const rows = await page.getByRole("button", { name: /^Sync (?!all)/ }).count();
    await page.getByRole("button", { name: "Sync all stores" }).click();
    // While jobs run, progress bars show (on a busy machine the whole run may finish before the
    // page's answer to the click, so the screenshot is taken only when they are seen).
    const sawProgress = await page
      .getByTestId("sync-progress")
      .first()
      .waitFor({ timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (sawProgress) await screenshot(page, "admin-sync-progress");
    // Every store's latest job finished after the page opened: one success banner for all of them.
    await page.getByText(`${rows} stores are in sync`).waitFor({ timeout: 120_000 });
    expect(await page.getByTestId("sync-progress").count()).toBe(0);
    expect(await page.getByText(/^\d+ unchanged$/).count()).toBe(rows);
    expect(await page.getByText("Not synced yet").count()).toBe(0);
    expect(await page.getByText("Never", { exact: true }).count()).toBe(0);
    await screenshot(page, "admin-sync-all");
  }, 150_000);
});
