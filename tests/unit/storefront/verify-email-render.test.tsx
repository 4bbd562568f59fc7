/**
 * Email verification in the storefront (server renders, query cache seeded): the page the emailed
 * link opens (`/verify-email?token=…`) in each of its states, and the "Check your inbox" notice with
 * its Resend button on the account and orders pages of a shopper whose address is unconfirmed.
 */
import { describe, expect, it } from "vitest";
import { renderStorefront as render, shopper } from "../../helpers/storefront-render";
import { verifyEmailKey } from "../../../storefront/src/lib/email-verification";
import { ORDERS_KEY } from "../../../storefront/src/lib/orders";
import { apiError, pages, seedError, text } from "./account-pages.fixtures";

const TOKEN = "k2V9-abc_123";
const unverified = shopper({ email: "ada@example.test", email_verified_at: null });

describe("/verify-email (server render)", () => {
  it("confirmed: says so, with the earlier orders now in the account and a way to them", () => {
    const html = text(render(`/verify-email?token=${TOKEN}`, (qc) => qc.setQueryData(verifyEmailKey(TOKEN), { email: "ada@example.test", linked_orders: 2 })));
    expect(html).toContain('data-testid="verify-email-done"');
    expect(html).toContain("Your email is confirmed");
    expect(html).toContain("ada@example.test is confirmed. 2 earlier orders placed with it are now in your account.");
    expect(html).toMatch(/<a[^>]*href="\/account\/orders"[^>]*>See your orders<\/a>/);

    const none = text(render(`/verify-email?token=${TOKEN}`, (qc) => qc.setQueryData(verifyEmailKey(TOKEN), { email: "ada@example.test", linked_orders: 0 })));
    expect(none).toContain("Orders you place with it appear in your account.");
  });

  it("a used or expired link: the server's reason and the way to a new link", () => {
    const message = "This verification link has expired (links work for 48 hours). Ask for a new one from your account page.";
    const html = text(render(`/verify-email?token=${TOKEN}`, (qc) => seedError(qc, verifyEmailKey(TOKEN), apiError(message, 422))));
    expect(html).toContain('data-testid="verify-email-invalid"');
    expect(html).toContain("This link does not work");
    expect(html).toContain(message);
    expect(html).toMatch(/<a[^>]*href="\/account"[^>]*>Go to your account<\/a>/);
  });

  it("no token: says the link is incomplete, without calling the server", () => {
    const html = text(render("/verify-email"));
    expect(html).toContain('data-testid="verify-email-invalid"');
    expect(html).toContain("The link has no token. Open the link from your email again.");
  });

  it("the server failing: an error with Try again; while sending: a spinner", () => {
    const failed = text(render(`/verify-email?token=${TOKEN}`, (qc) => seedError(qc, verifyEmailKey(TOKEN), apiError("The server is down", 503))));
    expect(failed).toContain('data-testid="verify-email-error"');
    expect(failed).toContain("The server is down");
    expect(failed).toContain("Try again");
    expect(text(render(`/verify-email?token=${TOKEN}`))).toContain("Confirming your email…");
  });
});

describe("the Check your inbox notice", () => {
  it("shows on the orders and account pages of an unconfirmed address, with Resend", () => {
    const orders = text(render("/account/orders", (qc) => qc.setQueryData(ORDERS_KEY, pages({ items: [], nextCursor: null })), unverified));
    expect(orders).toContain('data-testid="verify-email-notice"');
    expect(orders).toContain("Check your inbox: we sent a link to <strong>ada@example.test</strong> to confirm your email address. Your orders appear here once it is confirmed.");
    expect(orders).toMatch(/<button[^>]*data-testid="verify-email-resend"[^>]*>Resend the link<\/button>/);
    expect(orders).toContain('data-testid="orders-empty"');

    const account = text(render("/account", () => undefined, unverified));
    expect(account).toContain('data-testid="verify-email-notice"');
    expect(account).toContain("Orders you place with it appear in your account once it is confirmed.");
  });

  it("is absent once confirmed, without an email, and for a visitor who has not signed in", () => {
    expect(render("/account/orders", (qc) => qc.setQueryData(ORDERS_KEY, pages({ items: [], nextCursor: null }))).includes("verify-email-notice")).toBe(false);
    expect(render("/account", () => undefined, shopper({ email: null, email_verified_at: null })).includes("verify-email-notice")).toBe(false);
    expect(render("/account/orders", () => undefined, shopper({ auth_provider: "guest", email: null, email_verified_at: null })).includes("verify-email-notice")).toBe(false);
  });
});
