/**
 * Staff invitations through the API (app/services/staff-invitations.server.ts): creating an admin
 * for an email someone already registered changes nothing about that account (role, permissions,
 * password, live sessions) until the email's owner accepts, signed in as it or with its password;
 * a new email gets an account only on acceptance, with the registration's password rules; links
 * are single use, expire, and stop working when resent or withdrawn; `send_email: false` gives
 * the link to the inviting admin but still needs acceptance; only admins.manage admins invite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../app/services/passwords.server";
import { PASSWORD_CONTAINS_EMAIL, PASSWORD_TOO_COMMON } from "../../app/services/password-policy.server";
import { hashToken } from "../../app/services/tokens.server";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;
let manager: { id: string; token: string; email: string | null };
let editor: { id: string; token: string; email: string | null };

const STRONG = "Velvet-Harbour-Lantern-93";

beforeAll(async () => {
  app = await createTestApp();
  manager = await app.createUser({ role: "ADMIN", permissions: ["admins.manage"], email: "manager@staff.test", firstName: "Mona" });
  editor = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"], email: "editor@staff.test" });
});
afterAll(() => app?.close());

const invite = (body: Record<string, unknown>, token: string | null = manager.token) =>
  app.api("POST", "/users/admin/admins", { token, body: { first_name: "Ivy", last_name: "Invitee", ...body } });
const userByEmail = (email: string) => app.database.db.user.findUnique({ where: { email } });
const accept = (body: { token: string; password?: string }, token: string | null = null) => app.api("POST", "/auth/invitations/accept", { token, body });

/** The token of the newest invitation email to `to` (the link's `token` parameter). */
async function tokenFromEmail(to: string): Promise<string> {
  const mail = await app.database.db.emailOutbox.findFirstOrThrow({ where: { to, kind: "staff_invitation" }, orderBy: { created_at: "desc" } });
  const m = mail.text.match(/\/app\/invitations\/accept\?token=([^\s]+)/);
  if (!m) throw new Error(`no accept link in: ${mail.text}`);
  return decodeURIComponent(m[1]);
}

describe("inviting an email someone already registered", () => {
  it("changes nothing about the account until its owner accepts, then makes it an admin with the invited permissions", async () => {
    const owner = await app.createUser({ email: "taken@example.test", password: "owner-secret-password", firstName: "Olga" });
    const before = await app.database.db.user.findUniqueOrThrow({ where: { id: owner.id } });

    const res = await invite({ email: "Taken@Example.test", permissions: ["orders.manage", "returns.manage"] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user: null, invitationSent: true, accept_url: null });
    expect(res.body.invitation).toMatchObject({ email: "taken@example.test", role: "ADMIN", status: "pending", permissions: ["orders.manage", "returns.manage"], invited_by: "Mona" });
    const days = (Date.parse(res.body.invitation.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    // Role, permissions, password and live sessions: all as they were.
    const after = await app.database.db.user.findUniqueOrThrow({ where: { id: owner.id } });
    expect(after).toMatchObject({ role: "SHOPPER", permissions: [], password_hash: before.password_hash, first_name: "Olga" });
    const me = await app.api("GET", "/users/me", { token: owner.token });
    expect(me.status).toBe(200);
    expect(me.body.role).toBe("SHOPPER");
    expect((await app.api("GET", "/users/admin/admins", { token: owner.token })).status).toBe(403);

    // The email is in the outbox with the link.
    const mail = await app.database.db.emailOutbox.findFirstOrThrow({ where: { to: "taken@example.test", kind: "staff_invitation" } });
    expect(mail.subject).toBe("You are invited to Fashion Discovery");
    expect(mail.text).toContain("Mona invited you to join Fashion Discovery as admin");
    expect(mail.html).toContain("/app/invitations/accept?token=");
    const token = await tokenFromEmail("taken@example.test");
    // Only the token's hash is stored.
    expect(await app.database.db.staffInvitation.count({ where: { token_hash: hashToken(token) } })).toBe(1);
    expect(await app.database.db.staffInvitation.count({ where: { token_hash: token } })).toBe(0);

    // What the link shows.
    const look = await app.api("POST", "/auth/invitations/lookup", { body: { token } });
    expect(look.status).toBe(200);
    expect(look.body).toMatchObject({ email: "taken@example.test", role: "ADMIN", invited_by: "Mona", account: "existing", signed_in_as: null, signed_in_as_invitee: false });

    // Accepted by the owner, signed in as the account: an admin now, the same account and password.
    const ok = await accept({ token }, owner.token);
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ id: owner.id, role: "ADMIN", permissions: ["orders.manage", "returns.manage"] });
    expect(ok.headers.get("set-cookie")).toContain("fd_session=");
    const accepted = await app.database.db.user.findUniqueOrThrow({ where: { id: owner.id } });
    expect(accepted.password_hash).toBe(before.password_hash);
    expect(accepted.email_verified_at).not.toBeNull();
    expect((await app.api("GET", "/users/me", { token: ok.body.token })).body.role).toBe("ADMIN");
    const row = await app.database.db.staffInvitation.findFirstOrThrow({ where: { email: "taken@example.test" } });
    expect(row.accepted_user_id).toBe(owner.id);

    // Used once: the link is spent.
    const again = await accept({ token }, owner.token);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("This invitation has already been accepted");
  });

  it("refuses another account: signed in as someone else, or with a wrong password; accepts with the right password", async () => {
    const owner = await app.createUser({ email: "victim@example.test", password: "the-owners-password" });
    const stranger = await app.createUser({ email: "stranger@example.test", password: "strangers-password" });
    expect((await invite({ email: "victim@example.test", permissions: ["catalog.edit"] })).status).toBe(201);
    const token = await tokenFromEmail("victim@example.test");

    const asStranger = await accept({ token }, stranger.token);
    expect(asStranger.status).toBe(403);
    expect(asStranger.body.error.message).toBe(
      "This invitation is for victim@example.test, and you are signed in as stranger@example.test: sign in as victim@example.test or enter its password",
    );
    const wrongPassword = await accept({ token, password: "strangers-password" }, stranger.token);
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.error.message).toBe("Wrong password for victim@example.test");
    const anonymous = await accept({ token });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.error.message).toBe("Enter the password of victim@example.test to accept");
    // Still nobody's admin, the stranger neither.
    expect((await userByEmail("victim@example.test"))!.role).toBe("SHOPPER");
    expect((await userByEmail("stranger@example.test"))!.role).toBe("SHOPPER");

    const right = await accept({ token, password: "the-owners-password" });
    expect(right.status).toBe(200);
    expect(right.body.user).toMatchObject({ id: owner.id, role: "ADMIN", permissions: ["catalog.edit"] });
    expect((await userByEmail("stranger@example.test"))!.role).toBe("SHOPPER");
  });

  it("a lead who typed the email (no password) gains nothing: the invitee sets a password and the lead's sessions end", async () => {
    const lead = await app.createUser({ authProvider: "lead", email: "typed-by-someone@example.test" });
    expect((await invite({ email: "typed-by-someone@example.test" })).status).toBe(201);
    expect((await userByEmail("typed-by-someone@example.test"))!.role).toBe("SHOPPER");
    const token = await tokenFromEmail("typed-by-someone@example.test");
    expect((await app.api("POST", "/auth/invitations/lookup", { body: { token } })).body.account).toBe("new");

    // The lead's own session is not proof of the address.
    const bySession = await accept({ token }, lead.token);
    expect(bySession.status).toBe(400);
    expect(bySession.body.error.message).toBe("Choose a password for your account");

    const ok = await accept({ token, password: STRONG });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ id: lead.id, role: "ADMIN", auth_provider: "password" });
    expect((await app.api("GET", "/users/me", { token: lead.token })).status).toBe(401);
    expect((await app.api("GET", "/users/me", { token: ok.body.token })).body.role).toBe("ADMIN");
  });
});

describe("inviting a new email", () => {
  it("creates the account only on acceptance, with the registration's password rules", async () => {
    const res = await invite({ email: "fresh@staff.test" });
    expect(res.status).toBe(201);
    expect(res.body.user).toBeNull();
    expect(await userByEmail("fresh@staff.test")).toBeNull();
    const token = await tokenFromEmail("fresh@staff.test");

    const weak = await accept({ token, password: "short" });
    expect(weak.status).toBe(400);
    // The registration's rules: no common password, not the email.
    const common = await accept({ token, password: "password1234" });
    expect(common.status).toBe(400);
    expect(common.body.error.message).toBe(PASSWORD_TOO_COMMON);
    const ownEmail = await accept({ token, password: "fresh@staff.test!" });
    expect(ownEmail.status).toBe(400);
    expect(ownEmail.body.error.message).toBe(PASSWORD_CONTAINS_EMAIL);
    expect(await userByEmail("fresh@staff.test")).toBeNull();

    const ok = await accept({ token, password: STRONG });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ email: "fresh@staff.test", role: "ADMIN", first_name: "Ivy", last_name: "Invitee", auth_provider: "password" });
    const user = (await userByEmail("fresh@staff.test"))!;
    expect(await verifyPassword(user.password_hash, STRONG)).toBe(true);
    expect(user.permissions).not.toContain("admins.manage");
    expect(user.permissions).not.toContain("privacy.manage");

    // The new admin signs in with that password.
    const login = await app.api("POST", "/auth/login", { body: { email: "fresh@staff.test", password: STRONG } });
    expect(login.status).toBe(200);
  });

  it("a vendor user: linked to the vendor on acceptance", async () => {
    const vendor = await app.database.db.vendor.create({ data: { name: "Loom & Co", handle: "loom-co" } });
    const res = await invite({ email: "seller@staff.test", role: "VENDOR", vendor_id: vendor.id });
    expect(res.status).toBe(201);
    expect(res.body.invitation).toMatchObject({ role: "VENDOR", vendor_id: vendor.id, permissions: [] });
    const token = await tokenFromEmail("seller@staff.test");
    expect((await app.api("POST", "/auth/invitations/lookup", { body: { token } })).body).toMatchObject({ role: "VENDOR", vendor_name: "Loom & Co" });
    const ok = await accept({ token, password: STRONG });
    expect(ok.body.user).toMatchObject({ role: "VENDOR", vendor_id: vendor.id, permissions: [] });
  });

  it("send_email: false answers the link for the admin to pass on; acceptance is still required", async () => {
    const existing = await app.createUser({ email: "quiet@example.test", password: "quiet-secret-pass" });
    const res = await invite({ email: "quiet@example.test", send_email: false });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user: null, invitationSent: false });
    expect(res.body.invitation.sent_at).toBeNull();
    expect(res.body.accept_url).toMatch(/\/app\/invitations\/accept\?token=/);
    expect(await app.database.db.emailOutbox.count({ where: { to: "quiet@example.test" } })).toBe(0);
    expect((await userByEmail("quiet@example.test"))!.role).toBe("SHOPPER");

    const token = decodeURIComponent(new URL(res.body.accept_url).searchParams.get("token")!);
    expect((await accept({ token })).status).toBe(400);
    const ok = await accept({ token, password: "quiet-secret-pass" });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ id: existing.id, role: "ADMIN" });
  });
});

describe("links that cannot be used", () => {
  it("expired, withdrawn, replaced and unknown links are refused with a clear message", async () => {
    expect((await invite({ email: "late@staff.test" })).status).toBe(201);
    const late = await tokenFromEmail("late@staff.test");
    await app.database.db.staffInvitation.updateMany({ where: { email: "late@staff.test" }, data: { expires_at: new Date(Date.now() - 1000) } });
    const expired = await accept({ token: late, password: STRONG });
    expect(expired.status).toBe(422);
    expect(expired.body.error.message).toMatch(/^This invitation expired on \d{4}-\d{2}-\d{2}: ask the admin who invited you to send it again$/);
    expect((await app.api("POST", "/auth/invitations/lookup", { body: { token: late } })).status).toBe(422);
    expect(await userByEmail("late@staff.test")).toBeNull();

    // Sent again: a new link, valid for another 7 days; the old one stays dead.
    const invitation = await app.database.db.staffInvitation.findFirstOrThrow({ where: { email: "late@staff.test" } });
    const resent = await app.api("POST", `/users/admin/invitations/${invitation.id}/resend`, { token: manager.token, body: {} });
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ invitationSent: true, accept_url: null, invitation: { status: "pending" } });
    const fresh = await tokenFromEmail("late@staff.test");
    expect(fresh).not.toBe(late);
    expect((await accept({ token: late, password: STRONG })).status).toBe(404);

    // Withdrawn: refused, and the admin sees it withdrawn.
    const revoked = await app.api("DELETE", `/users/admin/invitations/${invitation.id}`, { token: manager.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe("revoked");
    const refused = await accept({ token: fresh, password: STRONG });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("This invitation was withdrawn by an admin");
    expect(await userByEmail("late@staff.test")).toBeNull();
    expect((await app.api("POST", `/users/admin/invitations/${invitation.id}/resend`, { token: manager.token, body: {} })).status).toBe(409);

    const unknown = await accept({ token: "not-a-real-token", password: STRONG });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("This invitation link is not valid: check that you opened the whole link from the email");
    expect((await app.api("DELETE", "/users/admin/invitations/00000000-0000-0000-0000-000000000000", { token: manager.token })).status).toBe(404);
  });

  it("two acceptances of one link at once: one wins", async () => {
    expect((await invite({ email: "race@staff.test" })).status).toBe(201);
    const token = await tokenFromEmail("race@staff.test");
    const [a, b] = await Promise.all([accept({ token, password: STRONG }), accept({ token, password: STRONG })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await app.database.db.user.count({ where: { email: "race@staff.test" } })).toBe(1);
  });

  it("a second invitation while one is pending, and an email that is already staff, are conflicts", async () => {
    expect((await invite({ email: "twice@staff.test" })).status).toBe(201);
    const dup = await invite({ email: "twice@staff.test" });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe("An invitation to this email is already pending: send it again or withdraw it");
    const staff = await invite({ email: "editor@staff.test" });
    expect(staff.status).toBe(409);
    expect(staff.body.error.message).toBe("An account with this email already exists");
  });
});

describe("who may invite", () => {
  it("admins without admins.manage, vendors, shoppers and anonymous callers cannot invite, list, resend or withdraw", async () => {
    const vendor = await app.database.db.vendor.create({ data: { name: "Refused Vendor", handle: "refused-vendor" } });
    const vendorUser = await app.createUser({ role: "VENDOR", vendorId: vendor.id });
    const shopper = await app.createUser({ email: "plain-shopper@example.test", password: "shopper-password" });
    expect((await invite({ email: "pending-for-checks@staff.test", send_email: false })).status).toBe(201);
    const invitation = await app.database.db.staffInvitation.findFirstOrThrow({ where: { email: "pending-for-checks@staff.test" } });
    for (const [token, status] of [[editor.token, 403], [vendorUser.token, 403], [shopper.token, 403], [null, 401]] as const) {
      expect((await invite({ email: "sneaky@staff.test" }, token)).status).toBe(status);
      expect((await app.api("GET", "/users/admin/invitations", { token })).status).toBe(status);
      expect((await app.api("POST", `/users/admin/invitations/${invitation.id}/resend`, { token, body: {} })).status).toBe(status);
      expect((await app.api("DELETE", `/users/admin/invitations/${invitation.id}`, { token })).status).toBe(status);
    }
    expect(await app.database.db.staffInvitation.count({ where: { email: "sneaky@staff.test" } })).toBe(0);
    expect((await app.database.db.staffInvitation.findUniqueOrThrow({ where: { id: invitation.id } })).revoked_at).toBeNull();
    // A shopper cannot make themselves staff by "inviting" their own email either.
    expect((await invite({ email: "plain-shopper@example.test" }, shopper.token)).status).toBe(403);
    expect((await userByEmail("plain-shopper@example.test"))!.role).toBe("SHOPPER");
  });

  it("the admin list shows open invitations with their expiry, by role", async () => {
    const list = await app.api("GET", "/users/admin/admins", { token: manager.token });
    expect(list.status).toBe(200);
    const emails = list.body.invitations.map((i: { email: string }) => i.email);
    expect(emails).toContain("pending-for-checks@staff.test");
    expect(emails).not.toContain("taken@example.test"); // accepted
    expect(emails).not.toContain("late@staff.test"); // withdrawn
    for (const i of list.body.invitations) expect(["pending", "expired"]).toContain(i.status);
    expect(list.body.invitations[0].expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The accepted invitees are among the users now.
    expect(list.body.users.map((u: { email: string }) => u.email)).toEqual(expect.arrayContaining(["taken@example.test", "fresh@staff.test", "seller@staff.test"]));
    const vendorsOnly = await app.api("GET", "/users/admin/admins", { token: manager.token, query: { roles: "VENDOR" } });
    expect(vendorsOnly.body.invitations.every((i: { role: string }) => i.role === "VENDOR")).toBe(true);

    const all = await app.api("GET", "/users/admin/invitations", { token: manager.token, query: { status: "all" } });
    expect(all.body.invitations.map((i: { status: string }) => i.status)).toEqual(expect.arrayContaining(["accepted", "revoked", "pending"]));
    expect((await app.api("GET", "/users/admin/invitations", { token: manager.token, query: { status: "nope" } })).status).toBe(400);
  });
});
