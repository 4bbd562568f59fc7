/**
 * The Admin users screen in Chromium (local mode, no App Bridge): adding a staff user and changing
 * an admin's permissions close their modal and show the server's message on the page; a refusal
 * stays in the modal with the server's error. Loader and action rules are covered by
 * tests/integration/admins-screen.test.tsx.
 */
import { afterAll, afterEach, beforeAll, describe, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, reportFailedTest, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

describe("admin: admin users (Chromium)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let problems: string[] = [];
  beforeAll(async () => {
    ({ page, close, problems } = await launchStaffBrowser(base, { next: "/app/admins" }));
  });
  afterAll(() => close?.());
  afterEach((t) => reportFailedTest(t, page, { name: "admin-users", problems, textChars: 1500 }));

  it("adds a staff user: a refusal stays in the modal, a success closes it and shows the message", async () => {
    await page.goto(`${base}/app/admins`);
    await page.getByRole("button", { name: "Add staff user" }).click();
    const modal = page.getByRole("dialog");
    await modal.getByLabel("Email", { exact: true }).fill("not-an-email");
    await modal.getByLabel("First name").fill("Robin");
    await modal.getByRole("button", { name: "Add" }).click();
    await modal.getByText("last_name: Enter a last name").waitFor();
    await modal.getByLabel("Last name").fill("Ellis");
    await modal.getByRole("button", { name: "Add" }).click();
    await modal.getByText(/^email: /).waitFor();
    await modal.getByLabel("Email", { exact: true }).fill("robin.e2e@staff.test");
    await modal.getByRole("button", { name: "Add" }).click();
    await page.getByTestId("admins-saved").filter({ hasText: "robin.e2e@staff.test can now sign in; an invitation was sent." }).waitFor();
    await modal.waitFor({ state: "detached" });
    await page.getByRole("row").filter({ hasText: "robin.e2e@staff.test" }).waitFor();
    await screenshot(page, "admin-users-added");
  });

  it("saves an admin's permissions and says so on the page", async () => {
    const row = page.getByRole("row").filter({ hasText: "robin.e2e@staff.test" });
    await row.getByRole("button", { name: "Edit permissions" }).click();
    const modal = page.getByRole("dialog");
    await modal.getByRole("button", { name: "Clear" }).click();
    await modal.getByRole("button", { name: "Save" }).click();
    await page.getByTestId("admins-saved").filter({ hasText: "Permissions saved." }).waitFor();
    await row.getByText("0 of").waitFor();
  });
});
