/**
 * The Admin users screen in Chromium (local mode, no App Bridge): inviting a staff user and
 * changing an admin's permissions close their modal and show the server's message on the page; a
 * refusal stays in the modal with the server's error; the invitee accepts the link in another
 * browser session (choosing a password) and becomes an admin. Loader and action rules are covered by
 * tests/integration/admins-screen.test.tsx.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { launchStaffBrowser, newSession, reportFailedTest, screenshot } from "../helpers/browser";

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

  it("invites a staff user: a refusal stays in the modal, a success closes it, shows the link and the pending invitation", async () => {
    await page.goto(`${base}/app/admins`);
    await page.getByRole("button", { name: "Add staff user" }).click();
    const modal = page.getByRole("dialog");
    await modal.getByLabel("Email", { exact: true }).fill("not-an-email");
    await modal.getByLabel("First name").fill("Robin");
    await modal.getByRole("button", { name: "Invite" }).click();
    await modal.getByText("last_name: Enter a last name").waitFor();
    await modal.getByLabel("Last name").fill("Ellis");
    await modal.getByRole("button", { name: "Invite" }).click();
    await modal.getByText(/^email: /).waitFor();
    await modal.getByLabel("Email", { exact: true }).fill("robin.e2e@staff.test");
    // Without email: the page gives the link to pass on.
    await modal.getByLabel("Send the invitation by email").uncheck();
    await modal.getByRole("button", { name: "Invite" }).click();
    await page.getByTestId("admins-saved").filter({ hasText: "Invitation created for robin.e2e@staff.test" }).waitFor();
    await modal.waitFor({ state: "detached" });
    await page.getByRole("row").filter({ hasText: "robin.e2e@staff.test" }).filter({ hasText: "Pending" }).waitFor();
    await screenshot(page, "admin-users-invited");
  });

  it("the invitee accepts the link in their own browser, choosing a password, and lands in the admin", async () => {
    const link = await page.getByLabel(/^Accept link/).inputValue();
    // On the server's real address, also when it was started with PORT=0.
    expect(link.startsWith(`${base}/app/invitations/accept?token=`)).toBe(true);
    const invitee = await newSession(page.context().browser()!);
    try {
      await invitee.page.goto(link);
      await invitee.page.getByText("invited robin.e2e@staff.test to join as admin").waitFor();
      await invitee.page.getByLabel("Password", { exact: true }).fill("Saffron-Glacier-Tulip-64");
      await invitee.page.getByLabel("Password again").fill("Saffron-Glacier-Tulip-64");
      await invitee.page.getByRole("button", { name: "Accept invitation" }).click();
      await invitee.page.waitForURL(`${base}/app`);
      await screenshot(invitee.page, "admin-users-invitation-accepted");
    } finally {
      await invitee.context.close();
    }
    await page.goto(`${base}/app/admins`);
    await page.getByRole("row").filter({ hasText: "robin.e2e@staff.test" }).getByRole("button", { name: "Edit permissions" }).waitFor();
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
