/**
 * Shopper emails of admin order actions (outbox locally; with Shopify the store also sends its own
 * notifications when asked to notify).
 */
import type { OutgoingEmail } from "../email.server";
import { escapeHtml } from "../email.server";

type Line = { title: string; variantTitle: string | null; quantity: number };
const lineText = (l: Line) => `${l.quantity} × ${l.title}${l.variantTitle ? ` (${l.variantTitle})` : ""}`;

function render(kind: string, to: string, subject: string, paragraphs: string[], lines: Line[]): OutgoingEmail {
  const text = [...paragraphs, "", ...lines.map(lineText)].join("\n");
  const html = `${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("")}<ul>${lines.map((l) => `<li>${escapeHtml(lineText(l))}</li>`).join("")}</ul>`;
  return { kind, to, subject, text, html };
}

export function shippingConfirmationEmail(input: { to: string; orderName: string; lines: Line[]; trackingCompany: string | null; trackingNumber: string | null; trackingUrl: string | null }): OutgoingEmail {
  const tracking = input.trackingNumber
    ? [`Tracking: ${input.trackingCompany ? `${input.trackingCompany} ` : ""}${input.trackingNumber}`, ...(input.trackingUrl ? [`Follow your parcel: ${input.trackingUrl}`] : [])]
    : [];
  return render("order.shipped", input.to, `Your order ${input.orderName} is on its way`, [`Good news: items of your order ${input.orderName} are on their way.`, ...tracking], input.lines);
}

export function orderCancelledEmail(input: { to: string; orderName: string; lines: Line[]; refunded: boolean }): OutgoingEmail {
  return render(
    "order.cancelled",
    input.to,
    `Your order ${input.orderName} has been cancelled`,
    [`Your order ${input.orderName} has been cancelled.`, ...(input.refunded ? ["The amount paid is refunded to your original payment method."] : [])],
    input.lines,
  );
}
