/**
 * Outgoing email: recorded in `email_outbox`, then delivered by the job worker through the
 * email port, with the queue's retries.
 */
import type { AppContext } from "~/context.server";

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  kind: string;
}

export async function queueEmail(ctx: Pick<AppContext, "db" | "queue">, email: OutgoingEmail): Promise<{ id: string }> {
  const row = await ctx.db.emailOutbox.create({ data: email });
  await ctx.queue.enqueue("email.send", { emailId: row.id }, { maxAttempts: 5 });
  return { id: row.id };
}

export async function deliverQueuedEmail(ctx: Pick<AppContext, "db" | "email" | "config">, emailId: string): Promise<{ status: "sent" | "already-sent" }> {
  const row = await ctx.db.emailOutbox.findUnique({ where: { id: emailId } });
  if (!row) throw new Error(`Email ${emailId} not found`);
  if (row.status === "sent") return { status: "already-sent" };
  try {
    await ctx.email.deliver({ id: row.id, to: row.to, subject: row.subject, html: row.html, text: row.text }, ctx.config.EMAIL_FROM);
    await ctx.db.emailOutbox.update({ where: { id: row.id }, data: { status: "sent", sent_at: new Date(), attempts: { increment: 1 }, error: null } });
    return { status: "sent" };
  } catch (e) {
    await ctx.db.emailOutbox.update({ where: { id: row.id }, data: { status: "failed", attempts: { increment: 1 }, error: e instanceof Error ? e.message : String(e) } });
    throw e;
  }
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function staffInvitationEmail(input: { email: string; firstName: string; role: "ADMIN" | "VENDOR"; appUrl: string }): OutgoingEmail {
  const what = input.role === "VENDOR" ? "your vendor pages" : "the admin";
  const text = `Hello ${input.firstName},\n\nYou now have access to ${what} of Fashion Discovery.\nOpen the app from your Shopify admin (Apps → Fashion Discovery) with this email address: ${input.email}.\nApp address: ${input.appUrl}/app\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>Hello ${escapeHtml(input.firstName)},</p><p>You now have access to ${what} of <strong>Fashion Discovery</strong>.</p><p>Open the app from your Shopify admin (Apps → Fashion Discovery) with this email address: <strong>${escapeHtml(input.email)}</strong>.</p><p><a href="${escapeHtml(input.appUrl)}/app">${escapeHtml(input.appUrl)}/app</a></p></body></html>`;
  return { to: input.email, subject: "You have access to Fashion Discovery", html, text, kind: "staff_invitation" };
}
