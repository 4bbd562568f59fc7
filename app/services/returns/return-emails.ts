/**
 * The shopper's emails about a return, one per step that concerns them: approved (with what to do
 * next), declined (with the store's reason), label sent (label and tracking), received (what came
 * back, what did not), cancelled, refunded (the amount). Plain builders: the admin returns service
 * queues them in the outbox in the same transaction as the step itself.
 */
import { escapeHtml, type OutgoingEmail } from "../email.server";

export interface ReturnEmailItem {
  title: string;
  variantTitle: string | null;
  quantity: number;
}

export interface ReturnEmailBase {
  to: string;
  orderName: string;
  items: ReturnEmailItem[];
  /** The shopper's returns page. */
  link: string;
}

function formatMoney(amount: string, currencyCode: string): string {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency: currencyCode }).format(Number(amount));
  } catch {
    return `${amount} ${currencyCode}`;
  }
}

const itemLine = (i: ReturnEmailItem) => `${i.quantity} × ${i.title}${i.variantTitle ? ` (${i.variantTitle})` : ""}`;

function build(kind: string, base: ReturnEmailBase, subject: string, paragraphs: string[], itemsHeading: string | null = "Items in this return:"): OutgoingEmail {
  const items = base.items.map(itemLine);
  const text = ["Hello,", "", ...paragraphs.flatMap((p) => [p, ""]), ...(itemsHeading && items.length ? [itemsHeading, ...items.map((l) => `- ${l}`), ""] : []), `Your returns: ${base.link}`, ""].join("\n");
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>Hello,</p>` +
    paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("") +
    (itemsHeading && items.length ? `<p>${escapeHtml(itemsHeading)}</p><ul>${items.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>` : "") +
    `<p><a href="${escapeHtml(base.link)}">See your returns</a></p></body></html>`;
  return { to: base.to, subject, html, text, kind };
}

export function returnApprovedEmail(base: ReturnEmailBase): OutgoingEmail {
  return build("return_approved", base, `Your return for order ${base.orderName} is approved`, [
    `Good news: your return for order ${base.orderName} has been approved.`,
    "What happens next: we will email you a return label. Pack the items in their original packaging with their tags, attach the label and drop the parcel off with the carrier. We refund you once the items are back with us.",
  ]);
}

export function returnDeclinedEmail(base: ReturnEmailBase & { reason: string }): OutgoingEmail {
  return build("return_declined", base, `Your return request for order ${base.orderName}`, [
    `We are sorry: your return request for order ${base.orderName} could not be accepted.`,
    `The reason: ${base.reason}`,
    "If you have a question, reply to this email.",
  ]);
}

export function returnLabelSentEmail(base: ReturnEmailBase & { labelUrl: string | null; trackingNumber: string | null; trackingCompany: string | null }): OutgoingEmail {
  const lines = [`Your return label for order ${base.orderName} is ready.`];
  if (base.labelUrl) lines.push(`Print your label: ${base.labelUrl}`);
  if (base.trackingNumber) lines.push(`Tracking number${base.trackingCompany ? ` (${base.trackingCompany})` : ""}: ${base.trackingNumber}`);
  lines.push("Attach the label to the parcel and drop it off with the carrier.");
  return build("return_label_sent", base, `Your return label for order ${base.orderName}`, lines);
}

export function returnReceivedEmail(base: ReturnEmailBase & { missing: ReturnEmailItem[] }): OutgoingEmail {
  const lines = [`We received your return for order ${base.orderName}.`];
  if (base.missing.length) lines.push(`These items were not in the parcel: ${base.missing.map(itemLine).join(", ")}. They are not refunded; reply to this email if you think this is a mistake.`);
  lines.push("Your refund is on its way once we have processed the items.");
  return build("return_received", base, `We received your return for order ${base.orderName}`, lines, "Received:");
}

export function returnCancelledEmail(base: ReturnEmailBase): OutgoingEmail {
  return build("return_cancelled", base, `Your return for order ${base.orderName} was cancelled`, [`Your return for order ${base.orderName} was cancelled. If you did not expect this, reply to this email.`]);
}

export function returnRefundedEmail(base: ReturnEmailBase & { amount: string; currencyCode: string }): OutgoingEmail {
  return build(
    "return_refunded",
    base,
    `Your refund for order ${base.orderName}`,
    [`We refunded ${formatMoney(base.amount, base.currencyCode)} for your return of order ${base.orderName} to your original payment method. It can take a few days to show on your statement.`],
    "Refunded items:",
  );
}
