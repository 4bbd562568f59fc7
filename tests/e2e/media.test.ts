/**
 * The Internal media admin screen in Chromium: upload through the drop zone (with progress), a
 * refused upload with the server's message, the colour filter (colour → Lab → nearest first),
 * and delete with confirmation.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

describe("admin: internal media (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ page, close } = await launchStaffBrowser(base, { next: "/app" }));
  });
  afterAll(() => close?.());

  it("uploads, filters by colour and deletes", async () => {
    await page.getByRole("link", { name: "Internal media", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/media");

    const red = await sharp({ create: { width: 120, height: 90, channels: 3, background: "#d0201a" } }).png().toBuffer();
    const blue = await sharp({ create: { width: 90, height: 120, channels: 3, background: "#1e40af" } }).jpeg().toBuffer();
    await page.locator('input[type="file"]').setInputFiles([
      { name: "e2e-red.png", mimeType: "image/png", buffer: red },
      { name: "e2e-blue.jpg", mimeType: "image/jpeg", buffer: blue },
    ]);
    await page.getByText("Uploaded").nth(1).waitFor({ timeout: 20_000 });
    await page.getByTestId("media-tile").getByRole("img", { name: "e2e-red" }).waitFor();
    await page.getByTestId("media-tile").getByRole("img", { name: "e2e-blue" }).waitFor();

    await page.locator('input[type="file"]').setInputFiles([{ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("this is not an image") }]);
    await page.getByTestId("upload-error").filter({ hasText: "Unsupported file type: upload a JPEG, PNG or WebP image" }).waitFor();

    await page.getByTestId("colour-input").fill("#cc2222");
    await page.getByRole("button", { name: "Filter by colour" }).click();
    await page.waitForURL((u) => u.searchParams.get("color") === "#cc2222");
    await page.getByTestId("colour-lab").waitFor();
    expect(await page.getByTestId("colour-lab").textContent()).toMatch(/^L 4\d\.\d+ · a 6\d\.\d+ · b 4\d\.\d+$/);
    await page.getByTestId("media-tile").getByRole("img", { name: "e2e-red" }).waitFor();
    expect(await page.getByTestId("media-tile").getByRole("img", { name: "e2e-blue" }).count()).toBe(0);
    await page.getByText(/ΔE \d/).first().waitFor();
    await screenshot(page, "admin-media-colour");

    await page.getByRole("button", { name: "Clear colour" }).click();
    await page.waitForURL((u) => !u.searchParams.has("color"));
    await page.getByTestId("media-tile").getByRole("img", { name: "e2e-blue" }).waitFor();
    await page.getByRole("button", { name: "Delete e2e-blue" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByTestId("media-tile").getByRole("img", { name: "e2e-blue" }).waitFor({ state: "detached" });
    expect(await page.getByTestId("media-tile").getByRole("img", { name: "e2e-red" }).count()).toBe(1);
  });
});
