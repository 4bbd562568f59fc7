import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, Ok } from "./common";
import { Messages } from "./messages";
import { PermissionNames, Roles } from "./permissions";

export const AuthProviderSchema = z.enum(["guest", "lead", "password", "shopify"]);
export const RoleSchema = z.enum(Roles);
export const PermissionSchema = z.enum(PermissionNames);

export const UserMetadata = z
  .object({
    /** Comma-separated interests, e.g. "menswear,streetwear" (SPEC §3). */
    interests: z.string().optional(),
    origin: z.string().optional(),
    stylePreferences: z.array(z.string()).optional(),
  })
  .catchall(z.unknown());

export const UserSchema = z.object({
  id: z.string(),
  auth_provider: AuthProviderSchema,
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  phone_number: z.string().nullable(),
  role: RoleSchema,
  permissions: z.array(z.string()),
  vendor_id: z.string().nullable(),
  cart_id: z.string().nullable(),
  metadata: UserMetadata,
  /** When the owner proved `email` (the emailed link); null while unproven. Orders are linked by email only once it is set. */
  email_verified_at: IsoDate.nullable(),
  created_at: IsoDate,
});
export type User = z.output<typeof UserSchema>;

export const AuthResult = z.object({ user: UserSchema, token: z.string() });

/** An invitation to be staff (app/services/staff-invitations.server.ts): nobody gains the role until the invitee accepts. */
export const StaffInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: RoleSchema,
  vendor_id: z.string().nullable(),
  permissions: z.array(PermissionSchema),
  /** pending: waiting for the invitee; expired: send it again; accepted; revoked: withdrawn. */
  status: z.enum(["pending", "expired", "accepted", "revoked"]),
  /** The inviting admin's name when the invitation was made. */
  invited_by: z.string().nullable(),
  expires_at: IsoDate,
  /** When the email with the link was queued; null when none was sent. */
  sent_at: IsoDate.nullable(),
  accepted_at: IsoDate.nullable(),
  revoked_at: IsoDate.nullable(),
  created_at: IsoDate,
});

// Trim and lower-case first, then check the format (z.email().trim() checks before trimming).
const Email = z.string().trim().toLowerCase().max(254).check(z.email("Enter a valid email address"));
const Password = z.string().min(8, "Password must be at least 8 characters").max(200);
const Name = z.string().trim().max(100);
const ResetToken = z.string().trim().min(1, "The link has no token. Open the link from your email again.").max(200);
/** Password reset links work for an hour (app/services/password-reset.server.ts PASSWORD_RESET_TTL_MINUTES). */
const PASSWORD_RESET_TTL_MINUTES_TEXT = "one hour";
/** The answer to every "forgot password" request, whatever the address. */
export const PASSWORD_RESET_REQUESTED = "If an account uses this email address, we have sent it a link to choose a new password. The link works for one hour.";

export const usersEndpoints = {
  createGuest: endpoint({
    method: "POST",
    path: "/users/guest",
    summary: "Create a guest user for a first-time visitor",
    tags: ["Identity"],
    access: access.public,
    response: AuthResult,
    status: 201,
    rateLimit: "auth",
  }),
  upgradeToLead: endpoint({
    method: "POST",
    path: "/users/lead",
    summary: "Upgrade a guest to a lead with an email and an origin",
    tags: ["Identity"],
    access: access.user,
    body: z.object({
      userId: z.string({ error: Messages.USER_ID_REQUIRED }).trim().min(1, Messages.USER_ID_REQUIRED),
      email: Email,
      origin: z.string().trim().min(1).max(100),
    }),
    response: UserSchema,
  }),
  register: endpoint({
    method: "POST",
    path: "/auth/register",
    summary: "Register with email and password (a signed-in guest keeps its data)",
    tags: ["Identity"],
    access: access.public,
    body: z.object({ email: Email, password: Password, first_name: Name.optional(), last_name: Name.optional() }),
    response: AuthResult,
    status: 201,
    rateLimit: "auth",
  }),
  login: endpoint({
    method: "POST",
    path: "/auth/login",
    summary: "Log in with email and password",
    tags: ["Identity"],
    access: access.public,
    body: z.object({ email: Email, password: z.string().min(1).max(200) }),
    response: AuthResult,
    rateLimit: "auth",
  }),
  logout: endpoint({
    method: "POST",
    path: "/auth/logout",
    summary: "Log out (revokes the token and clears the cookie)",
    tags: ["Identity"],
    access: access.public,
    response: Ok,
  }),
  verifyEmail: endpoint({
    method: "POST",
    path: "/auth/verify-email",
    summary: "Verify an email address with the token of the emailed link (once; links expire); links the address's orders that belong to no one",
    tags: ["Identity"],
    access: access.public,
    body: z.object({ token: z.string().trim().min(1, "The link has no token. Open the link from your email again.").max(200) }),
    response: z.object({ email: z.string(), linked_orders: z.number().int() }),
    rateLimit: "auth",
  }),
  resendEmailVerification: endpoint({
    method: "POST",
    path: "/auth/resend-verification",
    summary: "Email a new verification link to the caller's address (at most one a minute and five a day)",
    tags: ["Identity"],
    access: access.user,
    response: z.object({ sent: z.literal(true), email: z.string(), expires_at: IsoDate }),
  }),
  requestPasswordReset: endpoint({
    method: "POST",
    path: "/auth/forgot-password",
    summary: `Email a password reset link (single use, ${PASSWORD_RESET_TTL_MINUTES_TEXT}) to the account with this address; the answer is the same whether or not one exists`,
    tags: ["Identity"],
    access: access.public,
    body: z.object({ email: Email }),
    response: z.object({
      ok: z.literal(true),
      /** What to tell the shopper: the same sentence for every address. */
      message: z.string(),
    }),
    rateLimit: "auth",
  }),
  checkPasswordReset: endpoint({
    method: "POST",
    path: "/auth/reset-password/check",
    summary: "Whether a password reset link can still be used: the address it is for and when it expires (404 unknown, 409 used, 422 expired)",
    tags: ["Identity"],
    access: access.public,
    body: z.object({ token: ResetToken }),
    response: z.object({ email: z.string(), expires_at: IsoDate }),
    rateLimit: "auth",
  }),
  resetPassword: endpoint({
    method: "POST",
    path: "/auth/reset-password",
    summary: "Set a new password with the token of the emailed reset link (once; the password rules of registration); signs the account out everywhere",
    tags: ["Identity"],
    access: access.public,
    body: z.object({ token: ResetToken, password: Password }),
    response: z.object({ ok: z.literal(true), email: z.string() }),
    rateLimit: "auth",
  }),
  getMe: endpoint({
    method: "GET",
    path: "/users/me",
    summary: "The current user",
    tags: ["Identity"],
    access: access.user,
    response: UserSchema,
  }),
  updateMe: endpoint({
    method: "PATCH",
    path: "/users/me",
    summary: "Update the current user's profile",
    tags: ["Identity"],
    access: access.user,
    body: z.object({
      first_name: Name.nullable().optional(),
      last_name: Name.nullable().optional(),
      phone_number: z.string().trim().max(30).nullable().optional(),
      metadata: z.object({ interests: z.string().max(500).optional(), stylePreferences: z.array(z.string().max(50)).max(30).optional() }).optional(),
    }),
    response: UserSchema,
  }),
  deleteMe: endpoint({
    method: "DELETE",
    path: "/users/me",
    summary: "Delete the current user and their data",
    tags: ["Identity"],
    access: access.user,
    response: Ok,
  }),
  changePassword: endpoint({
    method: "POST",
    path: "/users/change-password",
    summary: "Change the password (old and new)",
    tags: ["Identity"],
    access: access.registered,
    body: z.object({ old_password: z.string().min(1), new_password: Password }),
    response: Ok,
    rateLimit: "auth",
  }),
  mergeGuestIntoMe: endpoint({
    method: "POST",
    path: "/users/merge-guest-into-me",
    summary: "Move a guest's saved products, follows, try-ons, collections, notification requests, orders and cart into the current account",
    tags: ["Identity"],
    access: access.registered,
    body: z.object({ guestToken: z.string().min(1) }),
    response: z.object({
      merged: z.object({
        savedProducts: z.number(),
        favoriteStores: z.number(),
        tryOns: z.number(),
        savedTryOns: z.number(),
        collections: z.number(),
        clones: z.number(),
        /** Notification requests moved (the account's duplicates are dropped). */
        notificationRequests: z.number(),
        /** Orders of a lead (linked by its email) moved with their returns. */
        orders: z.number(),
        /** The guest's cart id became the account's. */
        cartMoved: z.boolean(),
        /** Assistant conversations moved, with their messages. */
        conversations: z.number(),
        /** Photo-search entries moved. */
        visionSearches: z.number(),
      }),
    }),
  }),
  listAdmins: endpoint({
    method: "GET",
    path: "/users/admin/admins",
    summary: "List admin and vendor users, optionally filtered by roles",
    tags: ["Admin users"],
    access: access.admin("admins.manage"),
    query: z.object({
      roles: z
        .union([z.array(RoleSchema), z.string()])
        .optional()
        .transform((v) => (typeof v === "string" ? v.split(",").filter(Boolean) : v))
        .pipe(z.array(RoleSchema).optional()),
    }),
    response: z.object({
      users: z.array(UserSchema),
      /** Invitations of those roles not accepted nor withdrawn yet (pending or expired), newest first. */
      invitations: z.array(StaffInvitationSchema),
    }),
  }),
  createAdmin: endpoint({
    method: "POST",
    path: "/users/admin/admins",
    summary: "Invite an admin (or vendor) user: the invitee becomes staff only on accepting the emailed link (an existing account is unchanged until then)",
    tags: ["Admin users"],
    access: access.admin("admins.manage"),
    body: z.object({
      email: Email,
      first_name: Name.min(1, "Enter a first name"),
      last_name: Name.min(1, "Enter a last name"),
      send_email: z.boolean().default(true),
      role: RoleSchema.default("ADMIN"),
      vendor_id: z.string().optional(),
      permissions: z.array(PermissionSchema).optional(),
    }),
    response: z.object({
      /** The staff account: null while the invitation is pending (it exists only once the invitee accepts). */
      user: UserSchema.nullable(),
      /** Whether the invitation email was queued. */
      invitationSent: z.boolean(),
      invitation: StaffInvitationSchema,
      /** The accept link, only when no email was sent: for the inviting admin to pass on. */
      accept_url: z.string().nullable(),
    }),
    status: 201,
  }),
  getPermissions: endpoint({
    method: "GET",
    path: "/users/admin/{id}/permissions",
    summary: "A user's role and permissions",
    tags: ["Admin users"],
    access: access.admin("admins.manage"),
    params: z.object({ id: z.string().min(1) }),
    response: z.object({ userId: z.string(), role: RoleSchema, permissions: z.array(PermissionSchema) }),
  }),
  updatePermissions: endpoint({
    method: "PUT",
    path: "/users/admin/{id}/permissions",
    summary: "Replace a user's permissions",
    tags: ["Admin users"],
    access: access.admin("admins.manage"),
    params: z.object({ id: z.string().min(1) }),
    body: z.object({ permissions: z.array(PermissionSchema) }),
    response: z.object({ userId: z.string(), role: RoleSchema, permissions: z.array(PermissionSchema) }),
  }),
};
