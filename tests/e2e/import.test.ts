/**
 * The Taobao import admin screen in Chromium (local mode, the demo Taobao catalogue, the job
 * worker in the server): import two items and a broken one into a store, watch the live progress
 * bars until the jobs finish, read the grouped error and retry it, filter the table, open a job's
 * detail with its source payload and created product, and retry every failed job.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, reportFailedTest, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

const GOOD = ["720394001000", "720394008919"]; // a silk shirt (Northwind shop), a satin dress
const ZERO_PRICE = "799000000103";

describe("admin: Taobao import (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let problems: string[] = [];
  beforeAll(async () => {
    ({ page, close, problems } = await launchStaffBrowser(base, { next: "/app" }));
  });
  afterAll(() => close?.());
  afterEach((t) => reportFailedTest(t, page, { name: "admin-import", problems, textChars: 2000 }));

  it("opens from the navigation with an empty jobs table", async () => {
    await page.goto(`${base}/app`);
    await page.getByRole("link", { name: "Taobao import" }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/import");
    await page.getByRole("heading", { name: "Taobao import" }).first().waitFor();
    await page.getByText("No imports yet: give a Taobao item id above.").waitFor();
  });

  it("imports items into a store with live progress, and shows the broken one's error", async () => {
    await page.evaluate(() => {
      const w = window as unknown as { sawProgress: boolean };
      w.sawProgress = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="import-progress"] progress, [data-testid="import-progress"] [role="progressbar"]')) w.sawProgress = true;
      }).observe(document.body, { childList: true, subtree: true, attributes: true });
    });
    await page.getByLabel("Taobao item ids, item URLs or a shop").fill(`${GOOD[0]}, ${GOOD[1]}\n${ZERO_PRICE}`);
    await page.getByLabel("Target store").selectOption({ label: "Northwind" });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByTestId("import-notice").filter({ hasText: "3 items queued for import." }).waitFor();

    await page.waitForFunction(() => (window as unknown as { sawProgress: boolean }).sawProgress, undefined, { timeout: 20_000 });
    // The server's one in-process worker may first finish the start-up catch-up of the demo
    // catalogue's vectors (one products.index job, a minute or two on 2 cores): the jobs wait queued.
    for (const id of GOOD) await page.getByTestId(`import-status-${id}`).getByText("Completed").waitFor({ timeout: 240_000 });
    await page.getByTestId(`import-status-${ZERO_PRICE}`).getByText("Failed").waitFor({ timeout: 30_000 });
    await page.getByTestId(`import-error-${ZERO_PRICE}`).filter({ hasText: "The Taobao item has a price of zero" }).waitFor();
    // Polling stops once nothing runs: no progress bar is left.
    await page.getByText("updating every second").waitFor({ state: "detached", timeout: 10_000 });
    expect(await page.getByTestId("import-progress").count()).toBe(0);
    await page.getByRole("link", { name: "Boxy Silk Shirt" }).waitFor();
    await screenshot(page, "admin-import");
  }, 330_000);

  it("groups errors with counts and retries a group", async () => {
    const group = page.getByTestId("import-error-group").filter({ hasText: "The Taobao item has a price of zero" });
    await group.getByText("1", { exact: true }).waitFor();
    await group.getByRole("button", { name: /^Retry 1 with/ }).click();
    await page.getByTestId("import-notice").filter({ hasText: "1 job with this error queued again." }).waitFor();
    // Bad input fails again with the same message.
    await page.getByTestId(`import-status-${ZERO_PRICE}`).getByText("Failed").waitFor({ timeout: 30_000 });
  }, 60_000);

  it("filters the table by status and text", async () => {
    // The retried job of the previous test may still be queued or running (then the Failed tab is
    // empty): wait until every import has settled, then read a fresh page.
    await expect
      .poll(async () => ((await (await page.request.get(`${base}/api/shopify/admin/products/import-status`)).json()) as { done: boolean }).done, { timeout: 60_000, interval: 500 })
      .toBe(true);
    await page.reload();
    await page.getByRole("tab", { name: "Failed" }).click();
    await page.waitForURL((u) => u.searchParams.get("status") === "failed");
    await page.getByTestId(`import-status-${ZERO_PRICE}`).waitFor();
    // The URL changes before React commits the filtered table (router updates run as a transition).
    await expect.poll(() => page.getByTestId("import-job-link").count()).toBe(1);
    await page.getByRole("tab", { name: "All" }).click();
    await page.waitForURL((u) => !u.searchParams.has("status"));
    await page.getByPlaceholder("Search by Taobao id, store, product title or error").fill(GOOD[1]);
    await page.waitForURL((u) => u.searchParams.get("q") === GOOD[1]);
    await page.getByTestId(`import-status-${GOOD[1]}`).waitFor();
    await expect.poll(() => page.getByTestId("import-job-link").count()).toBe(1);
  });

  it("shows a job's detail with the source payload and the created product", async () => {
    await page.getByTestId("import-job-link").first().click();
    await page.waitForURL((u) => /^\/app\/import\/[0-9a-f-]{36}$/.test(u.pathname));
    await page.getByRole("heading", { name: `Taobao item ${GOOD[1]}` }).waitFor();
    await page.getByText("Created product").waitFor();
    await page.getByText("What the import did").waitFor();
    const payload = await page.getByTestId("import-source-payload").textContent();
    expect(payload).toContain(`"id": "${GOOD[1]}"`);
    expect(payload).toContain("连衣裙");
    await screenshot(page, "admin-import-job");
    const link = page.getByTestId("import-product-link");
    const title = (await link.textContent())!.trim();
    await link.click();
    await page.waitForURL((u) => u.pathname.startsWith("/app/products/"));
    await page.getByRole("heading", { name: title }).first().waitFor();
  });

  it("retries every failed job after confirming", async () => {
    await page.goto(`${base}/app/import`);
    await page.getByRole("button", { name: "Retry all failed" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("1 failed job will run again from the start.", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Retry all failed" }).click();
    await page.getByTestId("import-notice").filter({ hasText: "1 failed job queued again." }).waitFor();
    await page.getByTestId(`import-status-${ZERO_PRICE}`).getByText("Failed").waitFor({ timeout: 30_000 });
    expect(problems.filter((p) => p.startsWith("pageerror"))).toEqual([]);
  }, 60_000);
});
