/**
 * "Forgot password": a shopper (or staff member with a password) asks for a link, the link is
 * emailed to the account's address, and following it sets a new password.
 *
 * - The request always answers the same, whatever the email: an unknown address, an account
 *   without a password (guest, lead, Shopify sign-in) and an address the limits skip all get the
 *   answer a known one gets, and only a known one gets mail. (Registration does tell a taken
 *   address apart, so this hides nothing registration shows; it keeps the form from being a list
 *   of who has an account and from mailing people who never signed up.)
 * - A link carries 32 random bytes; only their SHA-256 is stored (password_resets.token_hash). It
 *   works once, for PASSWORD_RESET_TTL_MINUTES, and only while the account still has the address
 *   it was sent to. A newer link does not cancel an older one that is still valid; using any link
 *   uses them all.
 * - Mail is limited per account (one a minute, RESETS_PER_DAY a day) under a lock on the user row,
 *   silently: a refusal would tell that the address has an account. The API also limits requests
 *   per client address (the "auth" rate limit).
 * - Setting the password follows the registration rules (length, not common, not the email) and
 *   ends every session of the account (whoever was signed in, maybe with the old password, is
 *   signed out) and every other reset link; the shopper signs in again with the new password.
 */
import crypto from "node:crypto";
import type { AppContext } from "~/context.server";
import { appBaseUrl } from "~/lib/app-url";
import { conflictError, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { escapeHtml, queueEmail, type OutgoingEmail } from "./email.server";
import { hashPassword } from "./passwords.server";
import { assertAcceptablePassword } from "./password-policy.server";
import { hashToken } from "./tokens.server";
import { DEMO_EMAIL_DOMAIN } from "./users.server";

export const PASSWORD_RESET_TTL_MINUTES = 60;
export const RESET_INTERVAL_SECONDS = 60;
export const RESETS_PER_DAY = 5;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const PasswordResetMessages = {
  INVALID: "This password reset link is not valid. Open the latest link we emailed you, or ask for a new one.",
  EXPIRED: `This password reset link has expired (links work for ${PASSWORD_RESET_TTL_MINUTES} minutes). Ask for a new one.`,
  USED: "This password reset link has already been used. Ask for a new one if you still need to reset your password.",
  EMAIL_CHANGED: "This password reset link was sent to an earlier email address of your account. Ask for a new one.",
} as const;

type Ctx = Pick<AppContext, "db" | "queue" | "config" | "log">;

export const passwordResetLink = (config: AppContext["config"], token: string) => `${appBaseUrl(config)}/reset-password?token=${encodeURIComponent(token)}`;

export function passwordResetEmail(input: { to: string; firstName: string | null; link: string }): OutgoingEmail {
  const hello = input.firstName ? `Hello ${input.firstName},` : "Hello,";
  const ignore = "If you did not ask for this, ignore this email: your password stays as it is.";
  const lifetime = `This link works once, for ${PASSWORD_RESET_TTL_MINUTES} minutes. Setting a new password signs you out on every device.`;
  const text = [hello, "", "Someone (we hope you) asked to reset the password of your Fashion Discovery account.", "", `Choose a new password: ${input.link}`, "", lifetime, ignore].join("\n");
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>${escapeHtml(hello)}</p>` +
    "<p>Someone (we hope you) asked to reset the password of your Fashion Discovery account.</p>" +
    `<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 18px;background:#111;color:#fff;border-radius:6px;text-decoration:none">Choose a new password</a></p>` +
    `<p style="font-size:12px;color:#6d7175">${escapeHtml(lifetime)} ${escapeHtml(ignore)}</p></body></html>`;
  return { to: input.to, subject: "Reset your password", html, text, kind: "password_reset" };
}

/**
 * Emails a reset link when `email` belongs to an account with a password, within the limits.
 * Resolves the same way in every case (nothing to tell the caller); says what it did for the log.
 */
export async function requestPasswordReset(ctx: Ctx, rawEmail: string): Promise<{ outcome: "sent" | "no_account" | "no_password" | "limited" | "demo" }> {
  const email = rawEmail.trim().toLowerCase();
  if (ctx.config.APP_MODE !== "local" && email.endsWith(DEMO_EMAIL_DOMAIN)) return { outcome: "demo" };
  const user = await ctx.db.user.findUnique({ where: { email }, select: { id: true, email: true, first_name: true, password_hash: true } });
  if (!user?.email) return { outcome: "no_account" };
  if (!user.password_hash) return { outcome: "no_password" };
  const to = user.email;
  const token = crypto.randomBytes(32).toString("base64url");
  const now = Date.now();

  return ctx.db.$transaction(async (tx) => {
    // Serialises requests per account: two at once must not both pass the limits.
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${user.id} FOR UPDATE`;
    const recent = await tx.passwordReset.findMany({
      where: { user_id: user.id, created_at: { gt: new Date(now - DAY_MS) } },
      select: { created_at: true },
      orderBy: { created_at: "desc" },
    });
    if (recent.length && now - recent[0].created_at.getTime() < RESET_INTERVAL_SECONDS * 1000) return { outcome: "limited" as const };
    if (recent.length >= RESETS_PER_DAY) return { outcome: "limited" as const };
    await tx.passwordReset.create({ data: { user_id: user.id, email: to, token_hash: hashToken(token), created_at: new Date(now), expires_at: new Date(now + PASSWORD_RESET_TTL_MINUTES * MINUTE_MS) } });
    // The link and its email commit together: never a link nobody will send, nor mail without its link.
    await queueEmail(ctx, passwordResetEmail({ to, firstName: user.first_name, link: passwordResetLink(ctx.config, token) }), tx);
    return { outcome: "sent" as const };
  });
}

async function findUsable(ctx: Pick<AppContext, "db">, rawToken: string) {
  const token = rawToken.trim();
  const row = token ? await ctx.db.passwordReset.findUnique({ where: { token_hash: hashToken(token) }, include: { user: { select: { email: true } } } }) : null;
  if (!row) throw notFoundError(PasswordResetMessages.INVALID);
  if (row.used_at) throw conflictError(PasswordResetMessages.USED);
  if (row.expires_at.getTime() <= Date.now()) throw unprocessableError(PasswordResetMessages.EXPIRED);
  if (row.user.email !== row.email) throw unprocessableError(PasswordResetMessages.EMAIL_CHANGED);
  return row;
}

/** Whether a link can still be used (the reset page asks before showing its form): the address it is for and until when. */
export async function checkPasswordReset(ctx: Pick<AppContext, "db">, rawToken: string): Promise<{ email: string; expires_at: Date }> {
  const row = await findUsable(ctx, rawToken);
  return { email: row.email, expires_at: row.expires_at };
}

/**
 * Sets the new password with a link, once. Refusals say why: an unknown link (404), one used
 * before (409), an expired one or one sent to an address the account no longer has (422), a
 * password the rules refuse (400, the link stays usable). Ends every session of the account.
 */
export async function resetPassword(ctx: Pick<AppContext, "db">, rawToken: string, password: string): Promise<{ email: string; signed_out_sessions: number }> {
  const row = await findUsable(ctx, rawToken);
  assertAcceptablePassword(password, { email: row.email });
  const password_hash = await hashPassword(password);
  const now = new Date();
  return ctx.db.$transaction(async (tx) => {
    // The claim: of two concurrent uses of one link, exactly one gets here.
    const claimed = await tx.passwordReset.updateMany({ where: { id: row.id, used_at: null }, data: { used_at: now } });
    if (claimed.count === 0) throw conflictError(PasswordResetMessages.USED);
    // Only while the account still has the address the link went to.
    const updated = await tx.user.updateMany({ where: { id: row.user_id, email: row.email }, data: { password_hash } });
    if (updated.count === 0) throw unprocessableError(PasswordResetMessages.EMAIL_CHANGED);
    // Every other link of the account has nothing left to do; every session ends.
    await tx.passwordReset.updateMany({ where: { user_id: row.user_id, used_at: null }, data: { used_at: now } });
    const { count } = await tx.authToken.deleteMany({ where: { user_id: row.user_id } });
    return { email: row.email, signed_out_sessions: count };
  });
}
