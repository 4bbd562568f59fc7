/**
 * formatMoney writes the common currencies without Intl (its first currency formatter is slow to
 * make on a phone) exactly as Intl's English does, and every other currency or locale with Intl.
 */
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../storefront/src/lib/products";

const AMOUNTS = ["0", "0.5", "1", "9.99", "49.9", "49.90", "99.995", "1000", "1234.5", "999999.99", "999999.995", "1234567.891", "-12.5", "-0.001", "0.005", "12.345", "0.015", "1.005", "2.675", "1e21", "1e-7", "4990", "499.5", "0.49"];

describe("formatMoney", () => {
  for (const currency of ["USD", "EUR", "GBP", "CAD", "AUD", "CNY", "JPY"]) {
    it(`writes ${currency} as Intl's English does`, () => {
      for (const amount of AMOUNTS) {
        const intl = new Intl.NumberFormat("en-US", { style: "currency", currency }).format(Number(amount));
        expect(formatMoney(amount, currency), `${amount} ${currency}`).toBe(intl);
        expect(formatMoney(amount, currency, "en")).toBe(intl);
      }
    });
  }

  it("other currencies and locales go through Intl", () => {
    expect(formatMoney("49.9", "CHF")).toBe(new Intl.NumberFormat(undefined, { style: "currency", currency: "CHF" }).format(49.9));
    expect(formatMoney("49.9", "EUR", "de-DE")).toBe(new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).format(49.9));
  });

  it("an amount that is not a number or a currency Intl does not know is written as it is", () => {
    expect(formatMoney("abc", "EUR")).toBe("abc EUR");
    expect(formatMoney("12", "XXXX")).toBe("12.00 XXXX");
  });
});
