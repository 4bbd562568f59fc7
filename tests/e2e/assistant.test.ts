/**
 * The shopping assistant in Chromium against the real server with demo data (local language
 * model): open the chat from the header, ask "black jeans under 80", see product cards of black
 * jeans under $80 in the answer; a follow-up suggestion; the conversation is still there after a
 * reload (recent-or-create); a failed send keeps the message and offers a retry.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

async function ask(page: Page, text: string) {
  const before = await page.locator('[data-testid="assistant-message"][data-role="assistant"]').count();
  await page.getByTestId("assistant-input").fill(text);
  await page.getByTestId("assistant-send").click();
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="assistant-message"][data-role="assistant"]').length > n,
    before,
    { timeout: 30_000 },
  );
  return page.locator('[data-testid="assistant-message"][data-role="assistant"]').last();
}

describe("shopping assistant (Chromium, demo data)", () => {
  let page: Page;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ page, close } = await launchBrowser());
  });
  afterAll(() => close?.());

  it("opens from the header and answers 'black jeans under 80' with product cards", async () => {
    await page.goto(`${base}/`);
    await page.getByTestId("assistant-link").click();
    await page.waitForURL((u) => u.pathname === "/assistant");
    await page.getByTestId("assistant-intro").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("assistant-send").isDisabled()).toBe(true);

    const reply = await ask(page, "black jeans under 80");
    expect(await reply.getAttribute("data-intent")).toBe("find_products");
    const cards = reply.getByTestId("product-card");
    await cards.first().waitFor();
    const count = await cards.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(6);
    const prices = (await reply.locator(".card__price").allTextContents()).map((t) => Number(t.replace(/[^0-9.–-]/g, "").split(/[–-]/)[0]));
    for (const p of prices) expect(p).toBeLessThanOrEqual(80);
    const titles = await reply.locator(".card__title").allTextContents();
    for (const t of titles) expect(t.toLowerCase()).toMatch(/jean/);
    expect(await reply.locator(".assistant__bubble").textContent()).toMatch(/black jeans under \$80/);
    // The user's message is shown, the input is cleared.
    expect(await page.locator('[data-testid="assistant-message"][data-role="user"]').last().textContent()).toContain("black jeans under 80");
    expect(await page.getByTestId("assistant-input").inputValue()).toBe("");
    await screenshot(page, "assistant-black-jeans");
  });

  it("a suggestion asks the follow-up: what goes with it", async () => {
    const last = page.locator('[data-testid="assistant-message"][data-role="assistant"]').last();
    const before = await page.locator('[data-testid="assistant-message"][data-role="assistant"]').count();
    await last.getByTestId("assistant-suggestions").getByRole("button", { name: "What goes with it?" }).click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="assistant-message"][data-role="assistant"]').length > n, before, { timeout: 30_000 });
    const reply = page.locator('[data-testid="assistant-message"][data-role="assistant"]').last();
    expect(await reply.getAttribute("data-intent")).toBe("complete_the_look");
    expect(await reply.getByTestId("product-card").count()).toBeGreaterThan(0);
    expect(await reply.locator(".assistant__bubble").textContent()).toMatch(/^To go with the /);
    await screenshot(page, "assistant-goes-with");
  });

  it("the conversation is kept: a reload shows it again", async () => {
    const id = await page.getByTestId("assistant").getAttribute("data-conversation-id");
    await page.reload();
    await page.getByTestId("assistant-messages").locator('[data-testid="assistant-message"]').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("assistant").getAttribute("data-conversation-id")).toBe(id);
    expect(await page.locator('[data-testid="assistant-message"]').count()).toBe(4);
  });

  it("a failed send keeps the message and retries", async () => {
    let failOnce = true;
    await page.route("**/api/agent/conversations/*/messages", async (route) => {
      if (failOnce && route.request().method() === "POST") {
        failOnce = false;
        await route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: { code: "internal", message: "Something went wrong on our side" } }) });
        return;
      }
      await route.continue();
    });
    await page.getByTestId("assistant-input").fill("linen shirts for men");
    await page.getByTestId("assistant-send").click();
    const error = page.getByTestId("assistant-send-error");
    await error.waitFor();
    expect(await error.textContent()).toContain("Something went wrong on our side");
    expect(await page.getByTestId("assistant-input").inputValue()).toBe("linen shirts for men");
    const before = await page.locator('[data-testid="assistant-message"][data-role="assistant"]').count();
    await error.getByRole("button", { name: "Try again" }).click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="assistant-message"][data-role="assistant"]').length > n, before, { timeout: 30_000 });
    expect(await page.getByTestId("assistant-send-error").count()).toBe(0);
    const reply = page.locator('[data-testid="assistant-message"][data-role="assistant"]').last();
    await reply.getByTestId("product-card").first().waitFor({ timeout: 30_000 });
    expect(await reply.getAttribute("data-intent")).toBe("find_products");
    await page.unroute("**/api/agent/conversations/*/messages");
  });

  it("a new conversation starts empty", async () => {
    const id = await page.getByTestId("assistant").getAttribute("data-conversation-id");
    await page.getByTestId("assistant-new").click();
    await page.getByTestId("assistant-intro").waitFor();
    expect(await page.getByTestId("assistant").getAttribute("data-conversation-id")).not.toBe(id);
    await screenshot(page, "assistant-new");
  });
});
