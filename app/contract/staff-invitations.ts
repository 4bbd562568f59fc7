/**
 * Staff invitations (app/services/staff-invitations.server.ts): an admin with `admins.manage`
 * lists, resends and withdraws them; the invitee reads and accepts one with the link's token.
 * Creating one is `POST /users/admin/admins` (app/contract/users.ts, SPEC §7 "create admin").
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IdParams, IsoDate } from "./common";
import { PermissionSchema, RoleSchema, StaffInvitationSchema, UserSchema } from "./users";

const Token = z.string().trim().min(1, "The link has no invitation token: open the whole link from the email").max(200);

export const staffInvitationsEndpoints = {
  listStaffInvitations: endpoint({
    method: "GET",
    path: "/users/admin/invitations",
    summary: "Staff invitations, newest first (default: open ones, pending or expired)",
    tags: ["Admin users"],
    access: access.admin("admins.manage"),
    query: z.object({ status: z.enum(["open", "pending", "expired", "accepted", "revoked", "all"]).default("open") }),
    response: z.object({ invitations: z.array(StaffInvitationSchema) }),
  }),
  resendStaffInvitation: endpoint({
    method: "POST",
    path: "/users/admin/invitations/{id}/resend",
    summary: "Send an invitation again with a new link, valid for another 7 days (the old link stops working)",
    tags: ["Admin users"],
    access: access.admin("admins.manage"),
    params: IdParams,
    body: z.object({ send_email: z.boolean().default(true) }).default({ send_email: true }),
    response: z.object({ invitation: StaffInvitationSchema, invitationSent: z.boolean(), accept_url: z.string().nullable() }),
  }),
  revokeStaffInvitation: endpoint({
    method: "DELETE",
    path: "/users/admin/invitations/{id}",
    summary: "Withdraw an invitation: its link stops working",
    tags: ["Admin users"],
    access: access.admin("admins.manage"),
    params: IdParams,
    response: StaffInvitationSchema,
  }),
  describeStaffInvitation: endpoint({
    method: "POST",
    path: "/auth/invitations/lookup",
    summary: "What an invitation link offers: who invited whom, for which role, and whether to sign in or choose a password",
    tags: ["Identity"],
    access: access.public,
    body: z.object({ token: Token }),
    response: z.object({
      email: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      role: RoleSchema,
      vendor_name: z.string().nullable(),
      permissions: z.array(PermissionSchema),
      invited_by: z.string().nullable(),
      expires_at: IsoDate,
      /** existing: accept with the account's password (or signed in as it); new: choose a password. */
      account: z.enum(["existing", "new"]),
      signed_in_as: z.string().nullable(),
      signed_in_as_invitee: z.boolean(),
    }),
    rateLimit: "auth",
  }),
  acceptStaffInvitation: endpoint({
    method: "POST",
    path: "/auth/invitations/accept",
    summary: "Accept an invitation: signed in as the invited account, or with its password, or choosing a password for a new account; answers the account, signed in",
    tags: ["Identity"],
    access: access.public,
    body: z.object({ token: Token, password: z.string().min(1).max(200).optional() }),
    response: z.object({ user: UserSchema, token: z.string() }),
    rateLimit: "auth",
  }),
};
