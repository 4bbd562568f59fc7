import type { staffInvitationsEndpoints } from "~/contract/staff-invitations";
import type { AppContext } from "~/context.server";
import { identityDeps } from "~/services/identity-deps.server";
import { acceptInvitation, describeInvitation, listInvitations, resendInvitation, revokeInvitation, type InvitationDeps } from "~/services/staff-invitations.server";
import { toUserDto } from "~/services/users.server";
import { TOKEN_TTL_DAYS } from "~/services/tokens.server";
import { isSecureRequest, sessionCookie } from "../auth.server";
import type { HandlersFor } from "../router.server";

const deps = (ctx: AppContext): InvitationDeps => identityDeps(ctx);

export const staffInvitationsHandlers: HandlersFor<typeof staffInvitationsEndpoints> = {
  listStaffInvitations: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "no-store");
    return { invitations: await listInvitations(deps(ctx), { status: input.query.status }) };
  },
  resendStaffInvitation: async ({ ctx, input, log }) => {
    const r = await resendInvitation(deps(ctx), input.params.id, { send_email: input.body.send_email });
    log.info({ invitationId: r.invitation.id, sent: r.invitationSent }, "staff invitation sent again");
    return { invitation: r.invitation, invitationSent: r.invitationSent, accept_url: r.acceptUrl };
  },
  revokeStaffInvitation: async ({ ctx, input, log }) => {
    const r = await revokeInvitation(deps(ctx), input.params.id);
    log.info({ invitationId: r.id }, "staff invitation withdrawn");
    return r;
  },
  describeStaffInvitation: async ({ ctx, auth, input, headers }) => {
    headers.set("cache-control", "no-store");
    return describeInvitation(deps(ctx), input.body.token, auth.user);
  },
  acceptStaffInvitation: async ({ ctx, auth, input, request, headers, log }) => {
    const r = await acceptInvitation(deps(ctx), auth.user, { token: input.body.token, password: input.body.password });
    log.info({ userId: r.user.id, role: r.user.role }, "staff invitation accepted");
    headers.set("cache-control", "no-store");
    headers.append("set-cookie", sessionCookie(r.token, { secure: isSecureRequest(request), maxAgeSeconds: TOKEN_TTL_DAYS * 86_400 }));
    return { user: toUserDto(r.user), token: r.token };
  },
};
