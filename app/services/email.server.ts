/**
 * Outgoing email: recorded in `email_outbox`, then delivered by the job worker through the
 * email port, with the queue's retries.
 */
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";

export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  kind: string;
}

export const EMAIL_QUEUE = "email.send";

/**
 * Records the email and its delivery job together (one transaction, or the caller's `tx`, so the
 * caller's own "sent" marker commits with them): a job that dies part-way leaves either all of it
 * or none, never an email marked sent that nobody will deliver.
 */
export async function queueEmail(ctx: Pick<AppContext, "db" | "queue">, email: OutgoingEmail, tx?: Prisma.TransactionClient): Promise<{ id: string }> {
  const write = async (db: Prisma.TransactionClient) => {
    const row = await db.emailOutbox.create({ data: email });
    await db.job.create({ data: { queue: EMAIL_QUEUE, payload: { emailId: row.id }, max_attempts: 5 } });
    return { id: row.id };
  };
  return tx ? write(tx) : ctx.db.$transaction(write);
}

/** The email.send job gave up (its runs died, or the last delivery failed): the outbox row says so. */
export async function markEmailUndelivered(ctx: Pick<AppContext, "db">, emailId: string, error: string) {
  await ctx.db.emailOutbox.updateMany({ where: { id: emailId, status: "queued" }, data: { status: "failed", error } });
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
