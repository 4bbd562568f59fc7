/**
 * Staff invitations: how someone becomes an admin or a vendor user.
 *
 * Creating an admin (POST /api/users/admin/admins, the Admin users page) records an invitation
 * and emails a link; it never touches an account. Whoever holds an email address may have
 * registered it (registration does not prove the address), so an existing account gains the role
 * only when its owner accepts: signed in as that account, or with its password, on the link's
 * page (the link proves the address, the session or password proves the account). A new address
 * gets an account only then, with the password its owner sets there. An account without a
 * password (a guest or lead that typed the address, a Shopify customer) is claimed by setting
 * one, and every session it had is ended first, so whoever typed the address gains nothing.
 *
 * The token is 32 random bytes (base64url); only its SHA-256 is stored. Links are valid for
 * INVITATION_TTL_DAYS and work once (acceptance is one conditional update); resending makes a new
 * token (the old link stops working), revoking ends it.
 */
import crypto from "node:crypto";
import { Prisma, type Role, type StaffInvitation, type User } from "@prisma/client";
import type { Db } from "~/db.server";
import { Messages } from "~/contract/messages";
import { usersEndpoints } from "~/contract/users";
import { DEFAULT_ADMIN_PERMISSIONS, type Permission } from "~/contract/permissions";
import { roleLabel } from "~/lib/staff-role-label";
import { conflictError, invalid, notAllowed, notAuthenticated, notFoundError, rateLimited, unprocessableError } from "~/lib/domain-errors";
import { escapeHtml, type OutgoingEmail } from "./email.server";
import { hashPassword, verifyPassword } from "./passwords.server";
import { assertAcceptablePassword } from "./password-policy.server";
import { TOO_MANY_SIGN_INS, type IdentityDeps } from "./users.server";
import { hashToken, issueToken } from "./tokens.server";

export const INVITATION_TTL_DAYS = 7;
const DAY_MS = 86_400_000;

export const INVALID_INVITATION = "This invitation link is not valid: check that you opened the whole link from the email";
export const USED_INVITATION = "This invitation has already been accepted";
export const REVOKED_INVITATION = "This invitation was withdrawn by an admin";
export const expiredInvitation = (at: Date) =>
  `This invitation expired on ${at.toISOString().slice(0, 10)}: ask the admin who invited you to send it again`;

export interface InvitationDeps {
  db: Db;
  /** The sign-in limit per account (IdentityDeps): guessing an account's password here counts against it too. */
  loginAccountLimiter?: IdentityDeps["loginAccountLimiter"];
  /** Queues an email (the email port delivers it from the job worker). */
  queueEmail?: (email: OutgoingEmail) => Promise<unknown>;
  appUrl?: string;
}

export type InvitationStatus = "pending" | "expired" | "accepted" | "revoked";

export function invitationStatus(i: Pick<StaffInvitation, "accepted_at" | "revoked_at" | "expires_at">, now = new Date()): InvitationStatus {
  if (i.accepted_at) return "accepted";
  if (i.revoked_at) return "revoked";
  return i.expires_at.getTime() <= now.getTime() ? "expired" : "pending";
}

export function toInvitationDto(i: StaffInvitation, now = new Date()) {
  return {
    id: i.id,
    email: i.email,
    first_name: i.first_name,
    last_name: i.last_name,
    role: i.role,
    vendor_id: i.vendor_id,
    permissions: i.permissions as Permission[],
    status: invitationStatus(i, now),
    invited_by: i.invited_by_name,
    expires_at: i.expires_at,
    sent_at: i.sent_at,
    accepted_at: i.accepted_at,
    revoked_at: i.revoked_at,
    created_at: i.created_at,
  };
}
export type InvitationDto = ReturnType<typeof toInvitationDto>;

const newToken = () => crypto.randomBytes(32).toString("base64url");
export const acceptUrl = (appUrl: string | undefined, token: string) => `${appUrl ?? ""}/app/invitations/accept?token=${encodeURIComponent(token)}`;
const displayName = (u: Pick<User, "first_name" | "last_name" | "email">) => [u.first_name, u.last_name].filter(Boolean).join(" ") || u.email || "An admin";

export function staffInvitationEmail(input: { email: string; firstName: string; role: Role; vendorName?: string | null; invitedBy: string | null; url: string; expiresAt: Date }): OutgoingEmail {
  const what = roleLabel(input.role, input.vendorName);
  const who = input.invitedBy ?? "An admin";
  const until = input.expiresAt.toISOString().slice(0, 10);
  const text = `Hello ${input.firstName},\n\n${who} invited you to join Fashion Discovery as ${what}.\nAccept the invitation (sign in, or choose a password) with this link, valid until ${until} and only once:\n${input.url}\n\nIf you did not expect this email, ignore it: nothing changes until you accept.\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#303030"><p>Hello ${escapeHtml(input.firstName)},</p><p>${escapeHtml(who)} invited you to join <strong>Fashion Discovery</strong> as ${escapeHtml(what)}.</p><p><a href="${escapeHtml(input.url)}">Accept the invitation</a> (sign in, or choose a password). The link is valid until ${until} and works once.</p><p>If you did not expect this email, ignore it: nothing changes until you accept.</p></body></html>`;
  return { to: input.email, subject: "You are invited to Fashion Discovery", html, text, kind: "staff_invitation" };
}

async function vendorName(db: Db, vendorId: string | null) {
  if (!vendorId) return null;
  return (await db.vendor.findUnique({ where: { id: vendorId }, select: { name: true } }))?.name ?? null;
}

async function sendInvitation(deps: InvitationDeps, invitation: StaffInvitation, token: string) {
  if (!deps.queueEmail) return false;
  const url = acceptUrl(deps.appUrl, token);
  await deps.queueEmail(
    staffInvitationEmail({ email: invitation.email, firstName: invitation.first_name, role: invitation.role, vendorName: await vendorName(deps.db, invitation.vendor_id), invitedBy: invitation.invited_by_name, url, expiresAt: invitation.expires_at }),
  );
  await deps.db.staffInvitation.update({ where: { id: invitation.id }, data: { sent_at: new Date() } });
  return true;
}

export interface InviteInput {
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  vendor_id?: string;
  permissions?: Permission[];
  send_email: boolean;
}

/**
 * Invites someone to be staff. No account is created or changed: the answer says the invitation
 * is pending, with the accept link when no email is sent (for the inviting admin to pass on).
 */
export async function inviteStaff(deps: InvitationDeps, inviter: Pick<User, "id" | "first_name" | "last_name" | "email"> | null, input: InviteInput) {
  const { db } = deps;
  if (input.role === "SHOPPER") throw invalid("Invite an ADMIN or a VENDOR: shoppers register on the storefront");
  if (input.role === "VENDOR") {
    if (!input.vendor_id) throw invalid("vendor_id is required for a vendor user");
    if (!(await db.vendor.findUnique({ where: { id: input.vendor_id } }))) throw notFoundError("Vendor not found");
  }
  const existing = await db.user.findUnique({ where: { email: input.email }, select: { role: true } });
  if (existing && existing.role !== "SHOPPER") throw conflictError(Messages.EMAIL_TAKEN);
  const now = new Date();
  const pending = await db.staffInvitation.findFirst({ where: { email: input.email, accepted_at: null, revoked_at: null, expires_at: { gt: now } }, select: { id: true } });
  if (pending) throw conflictError("An invitation to this email is already pending: send it again or withdraw it", { invitation_id: pending.id });

  const token = newToken();
  let invitation = await db.staffInvitation.create({
    data: {
      token_hash: hashToken(token),
      email: input.email,
      first_name: input.first_name,
      last_name: input.last_name,
      role: input.role,
      vendor_id: input.role === "VENDOR" ? input.vendor_id! : null,
      permissions: input.role === "ADMIN" ? [...new Set(input.permissions ?? DEFAULT_ADMIN_PERMISSIONS)] : [],
      invited_by_id: inviter?.id ?? null,
      invited_by_name: inviter ? displayName(inviter) : null,
      expires_at: new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS),
    },
  });
  const invitationSent = input.send_email ? await sendInvitation(deps, invitation, token) : false;
  if (invitationSent) invitation = await db.staffInvitation.findUniqueOrThrow({ where: { id: invitation.id } });
  return { invitation: toInvitationDto(invitation), invitationSent, acceptUrl: invitationSent ? null : acceptUrl(deps.appUrl, token) };
}

/** Invitations newest first: by default the ones still waiting (pending or expired, neither accepted nor withdrawn). */
export async function listInvitations({ db }: Pick<InvitationDeps, "db">, opts: { status?: InvitationStatus | "open" | "all"; roles?: Role[] } = {}) {
  const now = new Date();
  const status = opts.status ?? "open";
  const where =
    status === "all"
      ? {}
      : status === "accepted"
        ? { accepted_at: { not: null } }
        : status === "revoked"
          ? { revoked_at: { not: null }, accepted_at: null }
          : {
              accepted_at: null,
              revoked_at: null,
              ...(status === "pending" ? { expires_at: { gt: now } } : status === "expired" ? { expires_at: { lte: now } } : {}),
            };
  const roles = opts.roles?.length ? { role: { in: opts.roles } } : {};
  const rows = await db.staffInvitation.findMany({ where: { ...where, ...roles }, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: 500 });
  return rows.map((r) => toInvitationDto(r, now));
}

async function openInvitation(db: Db, id: string) {
  const invitation = await db.staffInvitation.findUnique({ where: { id } });
  if (!invitation) throw notFoundError("Invitation not found");
  if (invitation.accepted_at) throw conflictError(USED_INVITATION);
  if (invitation.revoked_at) throw conflictError(REVOKED_INVITATION);
  return invitation;
}

/**
 * Sends an invitation again with a new link (the old one stops working) valid for another
 * INVITATION_TTL_DAYS; without email, the answer carries the new link.
 */
export async function resendInvitation(deps: InvitationDeps, id: string, opts: { send_email: boolean }) {
  const invitation = await openInvitation(deps.db, id);
  const token = newToken();
  const renewed = await deps.db.staffInvitation.update({
    where: { id: invitation.id },
    data: { token_hash: hashToken(token), expires_at: new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS), sent_at: null },
  });
  const invitationSent = opts.send_email ? await sendInvitation(deps, renewed, token) : false;
  const latest = await deps.db.staffInvitation.findUniqueOrThrow({ where: { id } });
  return { invitation: toInvitationDto(latest), invitationSent, acceptUrl: invitationSent ? null : acceptUrl(deps.appUrl, token) };
}

/** Withdraws an invitation: its link stops working. Withdrawing twice keeps the first date. */
export async function revokeInvitation({ db }: Pick<InvitationDeps, "db">, id: string) {
  const invitation = await db.staffInvitation.findUnique({ where: { id } });
  if (!invitation) throw notFoundError("Invitation not found");
  if (invitation.accepted_at) throw conflictError(`${USED_INVITATION}: change the user's permissions instead`);
  if (invitation.revoked_at) return toInvitationDto(invitation);
  return toInvitationDto(await db.staffInvitation.update({ where: { id }, data: { revoked_at: new Date() } }));
}

/** The invitation of a link, or the reason it cannot be used. */
async function invitationOfToken(db: Db, token: string, now = new Date()) {
  const trimmed = token.trim();
  const invitation = trimmed ? await db.staffInvitation.findUnique({ where: { token_hash: hashToken(trimmed) } }) : null;
  if (!invitation) throw notFoundError(INVALID_INVITATION);
  if (invitation.accepted_at) throw conflictError(USED_INVITATION);
  if (invitation.revoked_at) throw conflictError(REVOKED_INVITATION);
  if (invitation.expires_at.getTime() <= now.getTime()) throw unprocessableError(expiredInvitation(invitation.expires_at));
  return invitation;
}

/** What the accept page shows: who invited whom, for what, and whether the address has an account. */
export async function describeInvitation({ db }: Pick<InvitationDeps, "db">, token: string, caller: Pick<User, "id" | "email"> | null) {
  const invitation = await invitationOfToken(db, token);
  const account = await db.user.findUnique({ where: { email: invitation.email }, select: { id: true, password_hash: true } });
  return {
    email: invitation.email,
    first_name: invitation.first_name,
    last_name: invitation.last_name,
    role: invitation.role,
    vendor_name: await vendorName(db, invitation.vendor_id),
    permissions: invitation.permissions as Permission[],
    invited_by: invitation.invited_by_name,
    expires_at: invitation.expires_at,
    /** existing: sign in with the account's password; new (or an account without a password): choose one. */
    account: account?.password_hash ? ("existing" as const) : ("new" as const),
    signed_in_as: caller?.email ?? null,
    signed_in_as_invitee: !!(caller && account && caller.id === account.id && account.password_hash),
  };
}

/** The password rules of registration (its contract schema, then the common-password and email checks), for a password chosen here. */
export function registrationPasswordRules(password: string, email: string): void {
  const r = usersEndpoints.register.body.shape.password.safeParse(password);
  if (!r.success) throw invalid(r.error.issues[0]?.message ?? "Choose another password");
  assertAcceptablePassword(password, { email });
}

export interface AcceptInput {
  token: string;
  password?: string;
  /** Checks a new password against the registration rules (called before an account gets it). */
  checkNewPassword?: (password: string, email: string) => void | Promise<void>;
}

/**
 * Accepts an invitation and answers the account, signed in. Proof of the account: being signed in
 * as it (an account with a password), or its password; an address without such an account sets a
 * password here. The role is granted in the same transaction as the single-use claim.
 */
export async function acceptInvitation(deps: Pick<InvitationDeps, "db" | "loginAccountLimiter">, caller: User | null, input: AcceptInput): Promise<{ user: User; token: string }> {
  const { db } = deps;
  const invitation = await invitationOfToken(db, input.token);
  const existing = await db.user.findUnique({ where: { email: invitation.email } });
  if (existing && existing.role !== "SHOPPER") throw conflictError(`${invitation.email} is already a staff account: sign in to the admin`);
  if (invitation.role === "VENDOR" && !(invitation.vendor_id && (await db.vendor.findUnique({ where: { id: invitation.vendor_id } })))) {
    throw unprocessableError("The vendor of this invitation no longer exists: ask the admin who invited you for a new invitation");
  }

  let newPasswordHash: string | null = null;
  if (existing?.password_hash) {
    const signedInAsOwner = caller?.id === existing.id && !input.password;
    if (!signedInAsOwner) {
      if (!input.password) {
        if (caller) throw notAllowed(`This invitation is for ${invitation.email}, and you are signed in as ${caller.email ?? "another account"}: sign in as ${invitation.email} or enter its password`);
        throw invalid(`Enter the password of ${invitation.email} to accept`);
      }
      // Same budget as signing in: the link must not become a way around the per-account limit.
      const accountKey = `login:${invitation.email}`;
      const limit = await deps.loginAccountLimiter?.consume(accountKey);
      if (limit && !limit.allowed) throw rateLimited(TOO_MANY_SIGN_INS, limit.retryAfterSeconds);
      if (!(await verifyPassword(existing.password_hash, input.password))) throw notAuthenticated(`Wrong password for ${invitation.email}`);
      await deps.loginAccountLimiter?.refund(accountKey);
    }
  } else {
    if (!input.password) throw invalid("Choose a password for your account");
    await (input.checkNewPassword ?? registrationPasswordRules)(input.password, invitation.email);
    newPasswordHash = await hashPassword(input.password);
  }

  const now = new Date();
  const staffData = {
    role: invitation.role,
    permissions: invitation.role === "ADMIN" ? invitation.permissions : [],
    vendor_id: invitation.role === "VENDOR" ? invitation.vendor_id : null,
    // The link reached this address: it is proven.
    email_verified_at: now,
  };
  const user = await db
    .$transaction(async (tx) => {
    let user: User;
    if (existing) {
      if (newPasswordHash) {
        // Whoever held this account's sessions did not prove the address: they are signed out
        // before the account gains anything.
        await tx.authToken.deleteMany({ where: { user_id: existing.id } });
      }
      user = await tx.user.update({
        where: { id: existing.id },
        data: {
          ...staffData,
          ...(newPasswordHash ? { password_hash: newPasswordHash, auth_provider: "password" as const } : {}),
          first_name: existing.first_name ?? invitation.first_name,
          last_name: existing.last_name ?? invitation.last_name,
        },
      });
    } else {
      user = await tx.user.create({ data: { ...staffData, email: invitation.email, password_hash: newPasswordHash, auth_provider: "password", first_name: invitation.first_name, last_name: invitation.last_name } });
    }
    const claimed = await tx.staffInvitation.updateMany({
      where: { id: invitation.id, token_hash: invitation.token_hash, accepted_at: null, revoked_at: null, expires_at: { gt: now } },
      data: { accepted_at: now, accepted_user_id: user.id },
    });
    if (claimed.count !== 1) throw conflictError(USED_INVITATION);
    return user;
  })
    .catch((e: unknown) => {
      // A concurrent acceptance created the account first.
      if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") throw conflictError(USED_INVITATION);
      throw e;
    });
  return { user, token: await issueToken(db, user.id) };
}
