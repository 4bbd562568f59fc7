/**
 * The local checkout's test payment (embedded default): no money moves and no card network is
 * asked. A card is approved when its number passes the Luhn check and it has not expired, except
 * the declined test card (LOCAL_TEST_CARDS.declined), which behaves like a real decline so the
 * decline path can be tried. Isomorphic: the checkout page uses the same rules to hint as the
 * shopper types; the server decides.
 */
import { LOCAL_TEST_CARDS } from "~/contract/checkout";

export const CARD_DECLINED_MESSAGE = "Your card was declined. Use the test card 4242 4242 4242 4242.";
export const CARD_NUMBER_INVALID_MESSAGE = "This card number is not valid: check the digits (test card: 4242 4242 4242 4242)";
export const CARD_EXPIRED_MESSAGE = "This card has expired: check the expiry date";

export const digitsOf = (cardNumber: string) => cardNumber.replace(/\D/g, "");

/** The Luhn (mod 10) check every payment card number passes. */
export function luhnValid(cardNumber: string): boolean {
  const digits = digitsOf(cardNumber);
  if (digits.length < 12 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** "MM/YY" is expired once its month is over (cards work through the last day of their month). */
export function expired(expiry: string, now: Date = new Date()): boolean {
  const m = /^(\d{1,2})\s*\/\s*(\d{2})$/.exec(expiry.trim());
  if (!m) return true;
  const month = Number(m[1]);
  const year = 2000 + Number(m[2]);
  // The first moment after the card's last month, in UTC.
  return now.getTime() >= Date.UTC(year, month, 1);
}

export type PaymentOutcome =
  | { ok: true; last4: string }
  | { ok: false; reason: "card_invalid" | "card_expired" | "card_declined"; field: "payment.cardNumber" | "payment.expiry"; message: string };

/** What the test gateway answers for a card (the body's format is already checked by the contract). */
export function authorizeTestPayment(card: { cardNumber: string; expiry: string }, now: Date = new Date()): PaymentOutcome {
  const digits = digitsOf(card.cardNumber);
  if (!luhnValid(digits)) return { ok: false, reason: "card_invalid", field: "payment.cardNumber", message: CARD_NUMBER_INVALID_MESSAGE };
  if (expired(card.expiry, now)) return { ok: false, reason: "card_expired", field: "payment.expiry", message: CARD_EXPIRED_MESSAGE };
  if (digits === digitsOf(LOCAL_TEST_CARDS.declined)) return { ok: false, reason: "card_declined", field: "payment.cardNumber", message: CARD_DECLINED_MESSAGE };
  return { ok: true, last4: digits.slice(-4) };
}
