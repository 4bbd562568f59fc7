/**
 * Email verification as a shopper does it: the link emailed to the address (read from the outbox,
 * where local mode writes every email) is followed through `POST /auth/verify-email`.
 */
import { expect } from "vitest";
import type { TestApp } from "./app";

/** The token of the newest verification email sent to `to`. */
export async function linkSentTo(app: Pick<TestApp, "database">, to: string): Promise<string> {
  const mail = await app.database.db.emailOutbox.findFirst({ where: { to, kind: "email_verification" }, orderBy: { created_at: "desc" } });
  expect(mail, `a verification email to ${to}`).not.toBeNull();
  const m = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail!.text);
  expect(m, "the email carries a /verify-email link").not.toBeNull();
  expect(mail!.html).toContain(`/verify-email?token=${m![1]}`);
  return m![1];
}

/** Asks for a link with the user's session, then follows it: the user's email is verified. */
export async function verifyEmailOf(app: Pick<TestApp, "api" | "database">, user: { token: string; email: string | null }): Promise<{ linked_orders: number }> {
  const sent = await app.api("POST", "/auth/resend-verification", { token: user.token });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const res = await app.api("POST", "/auth/verify-email", { body: { token: await linkSentTo(app, user.email!) } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
