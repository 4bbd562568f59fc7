/**
 * The order confirmation the local checkout emails (outbox in local mode), as Shopify's own
 * "Order confirmation" notification does for checkouts on Shopify.
 */
import type { Prisma } from "@prisma/client";
import type { OutgoingEmail } from "../email.server";
import { escapeHtml } from "../email.server";

function formatMoney(amount: Prisma.Decimal | string, currencyCode: string): string {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency: currencyCode }).format(Number(amount.toString()));
  } catch {
    return `${amount.toString()} ${currencyCode}`;
  }
}

export function orderConfirmationEmail(input: {
  to: string;
  firstName: string;
  orderName: string;
  currency: string;
  subtotal: Prisma.Decimal;
  discount: Prisma.Decimal;
  shipping: Prisma.Decimal;
  total: Prisma.Decimal;
  shippingMethod: string;
  last4: string;
  address: string[];
  lines: { title: string; variantTitle: string | null; quantity: number; price: string }[];
}): OutgoingEmail {
  const m = (v: Prisma.Decimal | string) => formatMoney(v, input.currency);
  const lineText = (l: (typeof input.lines)[number]) => `${l.quantity} × ${l.title}${l.variantTitle ? ` (${l.variantTitle})` : ""} — ${m(l.price)}`;
  const totals: [string, string][] = [
    ["Subtotal", m(input.subtotal)],
    ...(input.discount.gt(0) ? ([["Discount", `−${m(input.discount)}`]] as [string, string][]) : []),
    [`Shipping (${input.shippingMethod})`, m(input.shipping)],
    ["Taxes", m("0")],
    ["Total", m(input.total)],
  ];
  const text = [
    `Hello ${input.firstName},`,
    "",
    `Thank you for your order ${input.orderName}. We will let you know when it is on its way.`,
    "",
    ...input.lines.map(lineText),
    "",
    ...totals.map(([k, v]) => `${k}: ${v}`),
    "",
    `Paid with the card ending ${input.last4} (test payment: no money was taken).`,
    "",
    "Shipping to:",
    ...input.address,
  ].join("\n");
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>Hello ${escapeHtml(input.firstName)},</p>` +
    `<p>Thank you for your order <strong>${escapeHtml(input.orderName)}</strong>. We will let you know when it is on its way.</p>` +
    `<ul>${input.lines.map((l) => `<li>${escapeHtml(lineText(l))}</li>`).join("")}</ul>` +
    `<table>${totals.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td style="text-align:right">${escapeHtml(v)}</td></tr>`).join("")}</table>` +
    `<p style="font-size:12px;color:#6d7175">Paid with the card ending ${escapeHtml(input.last4)} (test payment: no money was taken).</p>` +
    `<p>Shipping to:<br>${input.address.map(escapeHtml).join("<br>")}</p></body></html>`;
  return { to: input.to, subject: `Order ${input.orderName} confirmed`, html, text, kind: "order_confirmation" };
}
