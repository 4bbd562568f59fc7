/**
 * Email verification: a shopper proves an email address before orders placed with it become
 * theirs. Whoever types an address (a lead, a registration) only claims it; the link we email to
 * that address proves it.
 *
 * A link carries 32 random bytes; only their SHA-256 is stored (email_verifications.token_hash),
 * so a database leak leaks no working link. A link works once, for EMAIL_VERIFICATION_TTL_HOURS,
 * and only while the account still has the address it was sent to. Sending is limited (one a
 * minute per address, RESENDS_PER_DAY a day per account) under a lock on the user row, so neither
 * a resend button nor a script repeating `POST /users/lead` can flood someone's inbox.
 *
 * On verification the orders placed with that address that belong to no one become the user's;
 * an order already linked to another account (by Shopify's customer id, by that account's own
 * proof) stays where it is.
 */
import crypto from "node:crypto";
import type { User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import { conflictError, DomainError, notFoundError, rateLimited, unprocessableError } from "~/lib/domain-errors";
import { escapeHtml, queueEmail, type OutgoingEmail } from "./email.server";
import { appBaseUrl } from "./search/notifications.server";
import { hashToken } from "./tokens.server";

export const EMAIL_VERIFICATION_TTL_HOURS = 48;
export const RESEND_INTERVAL_SECONDS = 60;
export const RESENDS_PER_DAY = 5;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const VerificationMessages = {
  INVALID: "This verification link is not valid. Open the latest link we emailed you, or ask for a new one from your account page.",
  EXPIRED: `This verification link has expired (links work for ${EMAIL_VERIFICATION_TTL_HOURS} hours). Ask for a new one from your account page.`,
  USED: "This verification link has already been used.",
  USED_VERIFIED: "This verification link has already been used: your email address is verified.",
  EMAIL_CHANGED: "This verification link was sent to an earlier email address of your account. Ask for a new one from your account page.",
  NO_EMAIL: "Your account has no email address to verify",
  ALREADY_VERIFIED: "Your email address is already verified",
  WAIT: (seconds: number) => `We sent you a verification email moments ago. Please wait ${seconds} second${seconds === 1 ? "" : "s"} before asking for another.`,
  DAILY: `You have asked for ${RESENDS_PER_DAY} verification emails today. Please check your inbox (and spam folder) or try again tomorrow.`,
} as const;

type Ctx = Pick<AppContext, "db" | "queue" | "config">;
type Claimant = Pick<User, "id" | "email" | "email_verified_at" | "first_name">;

export const verificationLink = (config: AppContext["config"], token: string) => `${appBaseUrl(config)}/verify-email?token=${encodeURIComponent(token)}`;

export function verificationEmail(input: { to: string; firstName: string | null; link: string }): OutgoingEmail {
  const hello = input.firstName ? `Hello ${input.firstName},` : "Hello,";
  const text = [
    hello,
    "",
    "Please confirm that this is your email address. Once it is confirmed, the orders you place with it appear in your account.",
    "",
    `Confirm your email: ${input.link}`,
    "",
    `This link works once, for ${EMAIL_VERIFICATION_TTL_HOURS} hours. If you did not ask for this, ignore this email: nothing happens without the confirmation.`,
  ].join("\n");
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>${escapeHtml(hello)}</p>` +
    "<p>Please confirm that this is your email address. Once it is confirmed, the orders you place with it appear in your account.</p>" +
    `<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 18px;background:#111;color:#fff;border-radius:6px;text-decoration:none">Confirm your email</a></p>` +
    `<p style="font-size:12px;color:#6d7175">This link works once, for ${EMAIL_VERIFICATION_TTL_HOURS} hours. If you did not ask for this, ignore this email: nothing happens without the confirmation.</p></body></html>`;
  return { to: input.to, subject: "Confirm your email address", html, text, kind: "email_verification" };
}

/**
 * Emails a verification link to the user's address (the resend button). A refusal says why: no
 * address, already verified, or the limits (429 with the seconds to wait).
 */
export async function sendVerificationEmail(ctx: Ctx, user: Claimant): Promise<{ email: string; expires_at: Date }> {
  if (!user.email) throw conflictError(VerificationMessages.NO_EMAIL);
  if (user.email_verified_at) throw conflictError(VerificationMessages.ALREADY_VERIFIED);
  const email = user.email;
  const token = crypto.randomBytes(32).toString("base64url");
  const now = Date.now();
  const expires = new Date(now + EMAIL_VERIFICATION_TTL_HOURS * HOUR_MS);

  await ctx.db.$transaction(async (tx) => {
    // Serialises sends per user: two clicks at once must not both pass the limits.
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${user.id} FOR UPDATE`;
    const recent = await tx.emailVerification.findMany({
      where: { user_id: user.id, created_at: { gt: new Date(now - DAY_MS) } },
      select: { created_at: true, email: true },
      orderBy: { created_at: "desc" },
    });
    // The minute is per address (a corrected typo gets its link at once), the day per account.
    const last = recent.find((r) => r.email === email)?.created_at.getTime();
    if (last !== undefined && now - last < RESEND_INTERVAL_SECONDS * 1000) {
      const wait = Math.max(1, Math.ceil((last + RESEND_INTERVAL_SECONDS * 1000 - now) / 1000));
      throw rateLimited(VerificationMessages.WAIT(wait), wait);
    }
    if (recent.length >= RESENDS_PER_DAY) {
      const oldest = recent[recent.length - 1].created_at.getTime();
      throw rateLimited(VerificationMessages.DAILY, Math.max(1, Math.ceil((oldest + DAY_MS - now) / 1000)));
    }
    await tx.emailVerification.create({ data: { user_id: user.id, email, token_hash: hashToken(token), expires_at: expires } });
  });
  await queueEmail(ctx, verificationEmail({ to: email, firstName: user.first_name, link: verificationLink(ctx.config, token) }));
  return { email, expires_at: expires };
}

/**
 * After a registration or a lead's email: sends the link when the address is unproven. A send the
 * limits refuse is skipped (the earlier link still works), and nothing here fails the sign-up.
 */
export async function offerVerificationEmail(ctx: Ctx & Pick<AppContext, "log">, user: Claimant): Promise<void> {
  if (!user.email || user.email_verified_at) return;
  await sendVerificationEmail(ctx, user).catch((err: unknown) => {
    if (err instanceof DomainError && err.kind === "rate_limited") return;
    ctx.log.error({ err, userId: user.id }, "verification email could not be queued");
  });
}

/**
 * Verifies the address a link was sent to, once. Refusals say why: an unknown link (404), one used
 * before (409), an expired one or one sent to an address the account no longer has (422).
 */
export async function verifyEmail(ctx: Pick<AppContext, "db">, rawToken: string): Promise<{ email: string; linked_orders: number }> {
  const token = rawToken.trim();
  const row = token ? await ctx.db.emailVerification.findUnique({ where: { token_hash: hashToken(token) }, include: { user: { select: { email: true, email_verified_at: true } } } }) : null;
  if (!row) throw notFoundError(VerificationMessages.INVALID);
  const verifiedNow = row.user.email === row.email && !!row.user.email_verified_at;
  if (row.used_at) throw conflictError(verifiedNow ? VerificationMessages.USED_VERIFIED : VerificationMessages.USED);
  if (row.expires_at.getTime() <= Date.now()) throw unprocessableError(VerificationMessages.EXPIRED);
  if (row.user.email !== row.email) throw unprocessableError(VerificationMessages.EMAIL_CHANGED);

  const now = new Date();
  return ctx.db.$transaction(async (tx) => {
    // The claim: of two concurrent uses of one link, exactly one gets here.
    const claimed = await tx.emailVerification.updateMany({ where: { id: row.id, used_at: null }, data: { used_at: now } });
    if (claimed.count === 0) throw conflictError(VerificationMessages.USED);
    // Only while the account still has that address (it may have changed since the check above).
    const verified = await tx.user.updateMany({ where: { id: row.user_id, email: row.email }, data: { email_verified_at: now } });
    if (verified.count === 0) throw unprocessableError(VerificationMessages.EMAIL_CHANGED);
    // The other links of the account have nothing left to do.
    await tx.emailVerification.updateMany({ where: { user_id: row.user_id, used_at: null }, data: { used_at: now } });
    const linked_orders = await linkOrdersOfVerifiedEmail(tx, row.user_id, row.email);
    return { email: row.email, linked_orders };
  });
}

/** Orders placed with the address that belong to no one become the user's, with their purchase events. */
async function linkOrdersOfVerifiedEmail(tx: Pick<AppContext["db"], "order" | "productPurchaseEvent">, userId: string, email: string): Promise<number> {
  const ids = (await tx.order.findMany({ where: { user_id: null, email: email.toLowerCase() }, select: { id: true } })).map((o) => o.id);
  if (!ids.length) return 0;
  const { count } = await tx.order.updateMany({ where: { id: { in: ids }, user_id: null }, data: { user_id: userId } });
  await tx.productPurchaseEvent.updateMany({ where: { order_id: { in: ids }, user_id: null }, data: { user_id: userId } });
  return count;
}
