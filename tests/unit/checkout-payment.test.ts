/**
 * The local checkout's test payment rules (Luhn, expiry, the declined test card) and the checkout
 * page's input helpers (card number and expiry formatting, server issue paths → form fields).
 */
import { describe, expect, it } from "vitest";
import { LOCAL_TEST_CARDS } from "~/contract/checkout";
import { authorizeTestPayment, expired, luhnValid } from "../../app/services/checkout/test-payment";
import { checkoutFailure, fieldOfPath, formatCardNumber, formatExpiry } from "../../storefront/src/lib/checkout";
import { ApiClientError } from "~/client";

const NOW = new Date("2026-11-27T12:00:00Z");

describe("the test payment", () => {
  it("checks card numbers with Luhn", () => {
    expect(luhnValid(LOCAL_TEST_CARDS.approved)).toBe(true);
    expect(luhnValid(LOCAL_TEST_CARDS.declined)).toBe(true);
    expect(luhnValid("5555 5555 5555 4444")).toBe(true);
    expect(luhnValid("378282246310005")).toBe(true); // 15-digit Amex
    expect(luhnValid("4242 4242 4242 4241")).toBe(false);
    expect(luhnValid("0000 0000 000")).toBe(false); // too short
  });

  it("a card works through the last day of its month", () => {
    expect(expired("11/26", NOW)).toBe(false);
    expect(expired("11/26", new Date("2026-12-01T00:00:00Z"))).toBe(true);
    expect(expired("10/26", NOW)).toBe(true);
    expect(expired("01/27", NOW)).toBe(false);
    expect(expired("12 / 30", NOW)).toBe(false);
  });

  it("approves valid cards, declines the declined test card, refuses invalid and expired ones", () => {
    expect(authorizeTestPayment({ cardNumber: LOCAL_TEST_CARDS.approved, expiry: "12/30" }, NOW)).toEqual({ ok: true, last4: "4242" });
    expect(authorizeTestPayment({ cardNumber: "5555555555554444", expiry: "12/30" }, NOW)).toEqual({ ok: true, last4: "4444" });
    expect(authorizeTestPayment({ cardNumber: LOCAL_TEST_CARDS.declined, expiry: "12/30" }, NOW)).toMatchObject({ ok: false, reason: "card_declined", field: "payment.cardNumber" });
    expect(authorizeTestPayment({ cardNumber: "4242424242424241", expiry: "12/30" }, NOW)).toMatchObject({ ok: false, reason: "card_invalid" });
    expect(authorizeTestPayment({ cardNumber: LOCAL_TEST_CARDS.approved, expiry: "01/20" }, NOW)).toMatchObject({ ok: false, reason: "card_expired", field: "payment.expiry" });
  });
});

describe("the checkout form's helpers", () => {
  it("formats card numbers and expiry dates as the shopper types", () => {
    expect(formatCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("4242-4242 42")).toBe("4242 4242 42");
    expect(formatExpiry("1230")).toBe("12/30");
    expect(formatExpiry("1")).toBe("1");
    expect(formatExpiry("12/3")).toBe("12/3");
  });

  it("maps the server's issue paths to fields, and failures to what the page shows", () => {
    expect(fieldOfPath("shippingAddress.zip")).toBe("zip");
    expect(fieldOfPath("payment.cardNumber")).toBe("cardNumber");
    expect(fieldOfPath("cartId")).toBeNull();
    const declined = checkoutFailure(new ApiClientError(422, "unprocessable", "Your card was declined.", { code: "card_declined", issues: [{ path: "payment.cardNumber", message: "Your card was declined." }] }));
    expect(declined).toEqual({ message: "Your card was declined.", fields: { cardNumber: "Your card was declined." }, reloadCart: false, cartGone: false });
    expect(checkoutFailure(new ApiClientError(409, "conflict", "X is sold out.", { code: "sold_out", lines: [] }))).toMatchObject({ reloadCart: true, cartGone: false });
    expect(checkoutFailure(new ApiClientError(404, "not_found", "gone"))).toMatchObject({ cartGone: true });
    expect(checkoutFailure(new TypeError("fetch failed")).message).toMatch(/Could not reach the server/);
  });
});
