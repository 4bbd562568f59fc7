/**
 * The assistant's citations in Chromium against the real server with demo data (local language
 * model): "How do I wash linen?" answers with a quote from the linen care guide and cites it under
 * "Sources"; opening the citation loads the whole guide (GET /api/knowledge/{id}) in place.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

describe("assistant citations (Chromium, demo data)", () => {
  let page: Page;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ page, close } = await launchBrowser());
  });
  afterAll(() => close?.());

  it("cites the linen care guide and opens it in full", async () => {
    await page.goto(`${base}/assistant`);
    await page.getByTestId("assistant-intro").or(page.getByTestId("assistant-message").first()).first().waitFor({ timeout: 30_000 });
    const before = await page.locator('[data-testid="assistant-message"][data-role="assistant"]').count();
    await page.getByTestId("assistant-input").fill("How do I wash linen?");
    await page.getByTestId("assistant-send").click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="assistant-message"][data-role="assistant"]').length > n, before, { timeout: 30_000 });
    const reply = page.locator('[data-testid="assistant-message"][data-role="assistant"]').last();
    expect(await reply.getAttribute("data-intent")).toBe("advice");
    expect(await reply.locator(".assistant__bubble").textContent()).toMatch(/^From our guide "Caring for linen": Wash linen at 30–40 °C/);

    const citation = reply.getByTestId("assistant-citation").first();
    expect(await citation.locator("summary").textContent()).toBe("Caring for linen");
    expect(await citation.getByTestId("assistant-citation-full").count()).toBe(0);
    const loaded = page.waitForResponse((r) => /\/api\/knowledge\/[^/]+$/.test(new URL(r.url()).pathname) && r.status() === 200);
    await citation.locator("summary").click();
    await loaded;
    const full = citation.getByTestId("assistant-citation-full");
    await full.waitFor();
    expect(await full.textContent()).toContain("Linen can shrink by up to 3% in the first hot wash.");
    await screenshot(page, "assistant-citation");
  });
});
