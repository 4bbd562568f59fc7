import type { User } from "@prisma/client";
import type { usersEndpoints } from "~/contract/users";
import type { AppContext } from "~/context.server";
import * as users from "~/services/users.server";
import { identityDeps } from "~/services/identity-deps.server";
import { inviteStaff, listInvitations } from "~/services/staff-invitations.server";
import { offerVerificationEmail, sendVerificationEmail, verifyEmail } from "~/services/email-verification.server";
import { TOKEN_TTL_DAYS } from "~/services/tokens.server";
import { checkPasswordReset, requestPasswordReset, resetPassword } from "~/services/password-reset.server";
import { PASSWORD_RESET_REQUESTED } from "~/contract/users";
import { clearSessionCookie, isSecureRequest, sessionCookie } from "../auth.server";
import type { HandlersFor } from "../router.server";

const deps = (ctx: AppContext): users.IdentityDeps => identityDeps(ctx);

function withSession(headers: Headers, request: Request, result: { user: User; token: string }) {
  headers.append("set-cookie", sessionCookie(result.token, { secure: isSecureRequest(request), maxAgeSeconds: TOKEN_TTL_DAYS * 86_400 }));
  return { user: users.toUserDto(result.user), token: result.token };
}

export const usersHandlers: HandlersFor<typeof usersEndpoints> = {
  createGuest: async ({ ctx, request, headers }) => withSession(headers, request, await users.createGuest(deps(ctx))),
  upgradeToLead: async ({ ctx, auth, input }) => {
    const user = await users.upgradeToLead(deps(ctx), auth.user!, input.body);
    await offerVerificationEmail(ctx, user);
    return users.toUserDto(user);
  },
  register: async ({ ctx, auth, input, request, headers }) => {
    const result = await users.register(deps(ctx), auth.user, input.body);
    await offerVerificationEmail(ctx, result.user);
    return withSession(headers, request, result);
  },
  verifyEmail: async ({ ctx, input }) => verifyEmail(ctx, input.body.token),
  resendEmailVerification: async ({ ctx, auth }) => ({ sent: true as const, ...(await sendVerificationEmail(ctx, auth.user!)) }),
  requestPasswordReset: async ({ ctx, input, log }) => {
    // The same answer whatever happened; only the log says what (never the address).
    const { outcome } = await requestPasswordReset(ctx, input.body.email);
    log.info({ outcome }, "password reset requested");
    return { ok: true as const, message: PASSWORD_RESET_REQUESTED };
  },
  checkPasswordReset: async ({ ctx, input }) => checkPasswordReset(ctx, input.body.token),
  resetPassword: async ({ ctx, input, log }) => {
    const r = await resetPassword(ctx, input.body.token, input.body.password);
    log.info({ signedOutSessions: r.signed_out_sessions }, "password reset: sessions ended");
    return { ok: true as const, email: r.email };
  },
  login: async ({ ctx, auth, input, request, headers, log }) => {
    const result = await users.login(deps(ctx), input.body);
    // A shopper who browsed as a guest and then signs in keeps what they did as a guest: the
    // browser holds only the guest's httpOnly cookie, so the server merges it here.
    if (auth.user && auth.token && auth.user.id !== result.user.id && (auth.user.auth_provider === "guest" || auth.user.auth_provider === "lead")) {
      await users.mergeGuestIntoMe(deps(ctx), result.user, auth.token).catch((e: unknown) => log.warn({ err: e }, "guest merge on login failed"));
    }
    return withSession(headers, request, result);
  },
  logout: async ({ ctx, auth, request, headers }) => {
    await users.logout(deps(ctx), auth.token);
    headers.append("set-cookie", clearSessionCookie(isSecureRequest(request)));
    return { ok: true as const };
  },
  getMe: async ({ auth }) => users.toUserDto(auth.user!),
  updateMe: async ({ ctx, auth, input }) => users.toUserDto(await users.updateMe(deps(ctx), auth.user!, input.body)),
  deleteMe: async ({ ctx, auth, request, headers }) => {
    await users.deleteMe(deps(ctx), auth.user!);
    headers.append("set-cookie", clearSessionCookie(isSecureRequest(request)));
    return { ok: true as const };
  },
  changePassword: async ({ ctx, auth, input }) => {
    await users.changePassword(deps(ctx), auth.user!, input.body, auth.token);
    return { ok: true as const };
  },
  mergeGuestIntoMe: async ({ ctx, auth, input }) => ({ merged: await users.mergeGuestIntoMe(deps(ctx), auth.user!, input.body.guestToken) }),
  listAdmins: async ({ ctx, input }) => ({
    users: (await users.listAdmins(deps(ctx), input.query.roles)).map(users.toUserDto),
    invitations: await listInvitations(deps(ctx), { status: "open", roles: input.query.roles?.length ? input.query.roles : ["ADMIN", "VENDOR"] }),
  }),
  createAdmin: async ({ ctx, auth, input, log }) => {
    const r = await inviteStaff(deps(ctx), auth.user, input.body);
    log.info({ invitationId: r.invitation.id, role: r.invitation.role, sent: r.invitationSent }, "staff invitation created");
    return { user: null, invitationSent: r.invitationSent, invitation: r.invitation, accept_url: r.acceptUrl };
  },
  getPermissions: async ({ ctx, input }) => users.getPermissions(deps(ctx), input.params.id),
  updatePermissions: async ({ ctx, auth, input }) => users.updatePermissions(deps(ctx), auth.user!, input.params.id, input.body.permissions),
};
