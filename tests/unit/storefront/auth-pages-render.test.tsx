/**
 * Sign-up, forgot password and password reset in the storefront (server renders, query cache
 * seeded, an API client that fails if called), and three small fixes of issue 20 item 7: the order
 * page's return action and its cancel note agree, the try-ons count says what it counts in the
 * other pages' date format, Delete account is a destructive button. Pages are rendered on their
 * own route (the App's routes may load pages lazily).
 */
import type { ReactElement } from "react";
import { Route } from "react-router-dom";
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { OrderDetail as Order, User } from "~/contract";
import { shopper, renderRoutes } from "../../helpers/storefront-render";
import { passwordProblem, passwordResetKey, passwordRuleStates } from "../../../storefront/src/lib/password-rules";
import { orderKey } from "../../../storefront/src/lib/orders";
import { USER_TRYONS_LIST_KEY } from "../../../storefront/src/lib/saved-tryons";
import type { TryOn } from "../../../storefront/src/lib/tryons";
import { SignUp } from "../../../storefront/src/pages/SignUp";
import { ForgotPassword } from "../../../storefront/src/pages/ForgotPassword";
import { ResetPassword } from "../../../storefront/src/pages/ResetPassword";
import { Login } from "../../../storefront/src/pages/Login";
import { OrderDetail } from "../../../storefront/src/pages/OrderDetail";
import { MyTryOns } from "../../../storefront/src/pages/MyTryOns";
import { Account } from "../../../storefront/src/pages/Account";
import { apiError, seedError, text } from "./account-pages.fixtures";

const guest = shopper({ auth_provider: "guest", email: null, email_verified_at: null });

function render(path: string, route: string, element: ReactElement, seed: (qc: QueryClient) => void = () => undefined, user: User | null = guest): string {
  return text(renderRoutes(path, <Route path={route} element={element} />, seed, user));
}

const TOKEN = "r3S3t-abc_123";

describe("sign in, sign up, forgot password (server render)", () => {
  it("the sign-in form links to Forgot password? and Create an account, and takes ?email=", () => {
    const html = render("/login?email=ada%40example.test", "/login", <Login />);
    expect(html).toContain('<a data-testid="login-forgot" href="/forgot-password?email=ada%40example.test">Forgot password?</a>');
    expect(html).toMatch(/<a[^>]*href="\/register"[^>]*>Create an account<\/a>/);
    expect(html).toContain('value="ada@example.test"');
  });

  it("sign-up: email, optional names, a new password with its rules, and the way to sign in", () => {
    const html = render("/register", "/register", <SignUp />);
    expect(html).toContain('data-testid="signup-form"');
    expect(html).toContain("Create an account");
    expect(html).toMatch(/<input[^>]*type="email"[^>]*autoComplete="email"/);
    expect(html).toMatch(/<input[^>]*type="password"[^>]*autoComplete="new-password"[^>]*minLength="8"/);
    expect(html).toContain("First name (optional)");
    expect(html).toContain('data-testid="password-rules"');
    expect(html).toContain("At least 8 characters");
    expect(html).toContain("Not your email address or the part before the @");
    expect(html).toContain("Not a common or easily guessed password");
    expect(html).toContain("What you saved as a guest comes with you.");
    expect(html).toMatch(/<a[^>]*href="\/login"[^>]*>Sign in<\/a>/);
  });

  it("sign-up when already signed in: says so instead of a second account", () => {
    const html = render("/register", "/register", <SignUp />, undefined, shopper({ email: "ada@example.test" }));
    expect(html).toContain('data-testid="signup-signed-in"');
    expect(html).toContain("You are signed in as ada@example.test");
    expect(html).not.toContain('data-testid="signup-form"');
  });

  it("the rules as typed: length and the email checked while typing; the form stops before asking the server", () => {
    expect(passwordRuleStates("", "ada@example.test").map((r) => r.met)).toEqual([null, null, null]);
    expect(passwordRuleStates("short", "ada@example.test").find((r) => r.id === "length")!.met).toBe(false);
    expect(passwordRuleStates("ada-loves-linen", "ada@example.test").find((r) => r.id === "email")!.met).toBe(false);
    expect(passwordRuleStates("copper-meadow-violin", "ada@example.test").map((r) => r.met)).toEqual([true, true, null]);
    expect(passwordProblem("short", "ada@example.test")).toBe("Your password needs at least 8 characters.");
    expect(passwordProblem("ada@example.test1", "ada@example.test")).toMatch(/must not contain your email/);
    expect(passwordProblem("copper-meadow-violin", "ada@example.test", "copper-meadow-violon")).toBe("The two passwords are not the same.");
    expect(passwordProblem("copper-meadow-violin", "ada@example.test", "copper-meadow-violin")).toBeNull();
  });

  it("forgot password: one email field, a link back to sign in, the address from ?email=", () => {
    const html = render("/forgot-password?email=ada%40example.test", "/forgot-password", <ForgotPassword />);
    expect(html).toContain('data-testid="forgot-form"');
    expect(html).toContain("Reset your password");
    expect(html).toContain('value="ada@example.test"');
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*data-testid="forgot-submit"[^>]*>Email me a link<\/button>/);
    expect(html).toMatch(/<a[^>]*href="\/login"[^>]*>Sign in<\/a>/);
  });
});

describe("/reset-password (server render)", () => {
  it("a usable link: the account's address, the new password twice with the rules", () => {
    const html = render(`/reset-password?token=${TOKEN}`, "/reset-password", <ResetPassword />, (qc) =>
      qc.setQueryData(passwordResetKey(TOKEN), { email: "ada@example.test", expires_at: "2030-01-01T00:00:00.000Z" }),
    );
    expect(html).toContain('data-testid="reset-form"');
    expect(html).toContain("Choose a new password");
    expect(html).toContain('<strong data-testid="reset-email">ada@example.test</strong>');
    expect(html).toMatch(/<input[^>]*autoComplete="username"[^>]*value="ada@example.test"/);
    expect(html.match(/autoComplete="new-password"/g)).toHaveLength(2);
    expect(html).toContain('data-testid="password-rules"');
    expect(html).toContain("You will be signed out on every device");
  });

  it("an expired, used or unknown link: the server's reason and a way to a new link", () => {
    const message = "This password reset link has expired (links work for 60 minutes). Ask for a new one.";
    for (const status of [404, 409, 422]) {
      const html = render(`/reset-password?token=${TOKEN}`, "/reset-password", <ResetPassword />, (qc) => seedError(qc, passwordResetKey(TOKEN), apiError(message, status)));
      expect(html).toContain('data-testid="reset-invalid"');
      expect(html).toContain("This link does not work");
      expect(html).toContain(message);
      expect(html).toMatch(/<a[^>]*href="\/forgot-password"[^>]*>Ask for a new link<\/a>/);
      expect(html).not.toContain('data-testid="reset-form"');
    }
  });

  it("no token: the link is incomplete; the server failing: Try again; while checking: a spinner", () => {
    expect(render("/reset-password", "/reset-password", <ResetPassword />)).toContain("The link has no token. Open the link from your email again.");
    const failed = render(`/reset-password?token=${TOKEN}`, "/reset-password", <ResetPassword />, (qc) => seedError(qc, passwordResetKey(TOKEN), apiError("The server is down", 503)));
    expect(failed).toContain('data-testid="reset-error"');
    expect(failed).toContain("Try again");
    expect(render(`/reset-password?token=${TOKEN}`, "/reset-password", <ResetPassword />)).toContain("Checking your link…");
  });
});

const orderItem = (over: Partial<Order["items"][number]> = {}): Order["items"][number] => ({
  id: "i1",
  product_id: null,
  variant_id: null,
  product_handle: null,
  title: "Linen coat",
  variant_title: "M",
  sku: null,
  quantity: 1,
  fulfilled_quantity: 1,
  price: { amount: "120.00", currencyCode: "EUR" },
  status: "shipped",
  tracking: null,
  image_url: null,
  returnable: true,
  return_block_reason: null,
  return_request: null,
  ...over,
});

const orderDetail = (over: Partial<Order> = {}): Order => ({
  id: "gid://shopify/Order/5400004",
  name: "#1004",
  status: "open",
  stage: "shipped",
  financial_status: "paid",
  fulfillment_status: null,
  created_at: "2025-03-04T10:00:00.000Z",
  cancelled_at: null,
  total: { amount: "120.00", currencyCode: "EUR" },
  item_count: 1,
  items_preview: [],
  can_cancel: false,
  subtotal: null,
  shipping: null,
  tax: null,
  cancel_reason: null,
  cancel_block_reason: "Items of this order have already been sent, so it can no longer be cancelled.",
  closed_at: null,
  note: null,
  shipping_address: null,
  items: [orderItem()],
  can_return: true,
  ...over,
});

describe("issue 20 item 7 (server render)", () => {
  const signedIn = shopper({ email: "ada@example.test" });
  const renderOrder = (o: Order) => render("/account/orders/5400004", "/account/orders/:orderId", <OrderDetail />, (qc) => qc.setQueryData(orderKey("5400004"), o), signedIn);

  it("the order page offers Request a return only when a return can be requested, and never says returns open later next to it", () => {
    const sent = renderOrder(orderDetail());
    expect(sent).toMatch(/data-testid="order-return-open"[^>]*>Request a return<\/button>/);
    expect(sent).toContain("it can no longer be cancelled.");
    expect(sent).not.toMatch(/once they arrive|after delivery/i);

    const notSent = renderOrder(orderDetail({ stage: "unfulfilled", can_cancel: true, cancel_block_reason: null, can_return: false, items: [orderItem({ status: "unfulfilled", fulfilled_quantity: 0, returnable: false, return_block_reason: "This item has not been sent yet" })] }));
    expect(notSent).not.toContain('data-testid="order-return-open"');
    expect(notSent).toContain('data-testid="order-cancel-open"');
  });

  it("/try-ons labels its count and dates its cards like the other pages", () => {
    const tryon = (id: string): TryOn => ({
      id,
      user_id: "u1",
      clone_id: "k1",
      product_id: "p1",
      status: "completed",
      progress: 100,
      error: null,
      enable_add_details: true,
      prompt_strength: null,
      generated_images: [],
      created_at: "2025-01-02T10:00:00.000Z",
      updated_at: "2025-01-02T10:00:00.000Z",
      completed_at: "2025-01-02T10:00:00.000Z",
      product: null,
      clone: null,
      request_id: null,
    }) as unknown as TryOn;
    const one = render("/try-ons", "/try-ons", <MyTryOns />, (qc) => qc.setQueryData(USER_TRYONS_LIST_KEY, { pages: [{ tryons: [tryon("t1")], total: 1, skip: 0 }], pageParams: [0] }), signedIn);
    expect(one).toMatch(/<span class="page__count" data-testid="tryons-page-count">1 try-on<\/span>/);
    expect(one).toContain('<time dateTime="2025-01-02T10:00:00.000Z">2 Jan 2025</time>');
    const many = render("/try-ons", "/try-ons", <MyTryOns />, (qc) => qc.setQueryData(USER_TRYONS_LIST_KEY, { pages: [{ tryons: [tryon("t1"), tryon("t2")], total: 7, skip: 0 }], pageParams: [0] }), signedIn);
    expect(many).toContain(">7 try-ons</span>");
  });

  it("Delete account is a destructive button that opens a confirmation (not a plain primary button)", () => {
    const html = render("/account", "/account", <Account />, undefined, signedIn);
    expect(html).toMatch(/<button type="button" class="button button--danger" data-testid="account-delete">Delete account<\/button>/);
  });
});
