/**
 * Identity: guests, leads, registered users, admins and their permissions.
 */
import type { Prisma, Role, User } from "@prisma/client";
import type { Db } from "~/db.server";
import { Messages } from "~/contract/messages";
import type { Permission } from "~/contract/permissions";
import { conflictError, invalid, notAllowed, notAuthenticated, notFoundError, rateLimited } from "~/lib/domain-errors";
import { hashPassword, verifyPassword } from "./passwords.server";
import { assertAcceptablePassword } from "./password-policy.server";
import { hashToken, issueToken, resolveToken, revokeToken } from "./tokens.server";
import type { OutgoingEmail } from "./email.server";
import type { Logger } from "~/lib/logger.server";
import type { StorefrontCartApi } from "~/storefront-api/cart-client";
import { mergeCarts } from "./cart.server";

export const DEMO_EMAIL_DOMAIN = "@demo.local";

export interface IdentityDeps {
  db: Db;
  mode: "local" | "production";
  /** Queues an email (the email port delivers it from the job worker). */
  queueEmail?: (email: OutgoingEmail) => Promise<unknown>;
  appUrl?: string;
  /** Sign-in attempts per account, whatever address they come from (rotating addresses must not help). */
  loginAccountLimiter?: {
    consume(key: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
    refund(key: string): Promise<void>;
  };
  /** Shoppers' carts: the sign-in merge adds the account's earlier cart lines to the guest's cart. */
  cart?: StorefrontCartApi;
  log?: Logger;
}

export async function createGuest({ db }: IdentityDeps): Promise<{ user: User; token: string }> {
  const user = await db.user.create({ data: { auth_provider: "guest" } });
  return { user, token: await issueToken(db, user.id) };
}

export async function upgradeToLead({ db }: IdentityDeps, caller: User, input: { userId: string; email: string; origin: string }): Promise<User> {
  if (input.userId !== caller.id) throw notAllowed(Messages.INVALID_USER_ID);
  if (caller.auth_provider !== "guest" && caller.auth_provider !== "lead") {
    // A full account already has an email; nothing to upgrade.
    return caller;
  }
  const taken = await db.user.findUnique({ where: { email: input.email } });
  if (taken && taken.id !== caller.id) {
    // The email belongs to someone else: keep it on record as the lead's contact, not as a login.
    return db.user.update({
      where: { id: caller.id },
      data: { auth_provider: "lead", metadata: mergeMetadata(caller.metadata, { origin: input.origin, leadEmail: input.email }) },
    });
  }
  return db.user.update({
    where: { id: caller.id },
    // A new address is unproven until its owner follows the emailed link.
    data: { auth_provider: "lead", email: input.email, ...(caller.email !== input.email ? { email_verified_at: null } : {}), metadata: mergeMetadata(caller.metadata, { origin: input.origin }) },
  });
}

export async function register(
  deps: IdentityDeps,
  caller: User | null,
  input: { email: string; password: string; first_name?: string; last_name?: string },
): Promise<{ user: User; token: string }> {
  const { db } = deps;
  refuseDemoOutsideLocal(deps, input.email);
  assertAcceptablePassword(input.password, { email: input.email });
  // Hashed before looking the email up, so a taken and a free email take the same time.
  const password_hash = await hashPassword(input.password);
  let existing = await db.user.findUnique({ where: { email: input.email } });
  if (existing && existing.id !== caller?.id && existing.auth_provider === "lead" && !existing.email_verified_at) {
    // A lead only typed the address, which proves nothing: it does not hold the address against
    // whoever registers it (who proves it, or not, by the emailed link). The lead keeps it as a contact.
    await db.user.update({ where: { id: existing.id }, data: { email: null, metadata: mergeMetadata(existing.metadata, { leadEmail: existing.email }) } });
    existing = null;
  }
  if (existing && existing.id !== caller?.id) throw conflictError(Messages.EMAIL_TAKEN);
  const data = { email: input.email, password_hash, auth_provider: "password" as const, first_name: input.first_name, last_name: input.last_name };
  // Typing an address proves nothing: it stays unverified unless a lead already proved this one.
  const email_verified_at = caller && caller.email === input.email ? caller.email_verified_at : null;
  // A guest or lead who registers keeps everything they did as a guest.
  const upgradable = caller && (caller.auth_provider === "guest" || caller.auth_provider === "lead");
  const user = upgradable ? await db.user.update({ where: { id: caller.id }, data: { ...data, email_verified_at } }) : await db.user.create({ data });
  return { user, token: await issueToken(db, user.id) };
}

export const TOO_MANY_SIGN_INS = "Too many sign-in attempts for this account, please wait and try again";

export async function login(deps: IdentityDeps, input: { email: string; password: string }): Promise<{ user: User; token: string }> {
  const { db } = deps;
  refuseDemoOutsideLocal(deps, input.email);
  // Counted before the check (and given back on success), so parallel guesses cannot slip past the limit.
  const accountKey = `login:${input.email.trim().toLowerCase()}`;
  const limit = await deps.loginAccountLimiter?.consume(accountKey);
  if (limit && !limit.allowed) throw rateLimited(TOO_MANY_SIGN_INS, limit.retryAfterSeconds);
  const user = await db.user.findUnique({ where: { email: input.email } });
  // verifyPassword runs Argon2 even without a hash (unknown email), so timing tells nothing.
  const ok = await verifyPassword(user?.password_hash, input.password);
  if (!user || !ok) throw notAuthenticated(Messages.INVALID_CREDENTIALS);
  await deps.loginAccountLimiter?.refund(accountKey);
  return { user, token: await issueToken(db, user.id) };
}

export async function logout({ db }: IdentityDeps, token: string | null): Promise<void> {
  if (token) await revokeToken(db, token);
}

export async function updateMe(
  { db }: IdentityDeps,
  caller: User,
  input: { first_name?: string | null; last_name?: string | null; phone_number?: string | null; metadata?: Record<string, unknown> },
): Promise<User> {
  return db.user.update({
    where: { id: caller.id },
    data: {
      first_name: input.first_name,
      last_name: input.last_name,
      phone_number: input.phone_number,
      metadata: input.metadata ? mergeMetadata(caller.metadata, input.metadata) : undefined,
    },
  });
}

export async function deleteMe({ db }: IdentityDeps, caller: User): Promise<void> {
  // Owned rows go with the user through ON DELETE CASCADE; orders and reviews keep their
  // history with the user reference cleared (SET NULL).
  await db.user.delete({ where: { id: caller.id } });
}

/**
 * Changes the password and ends the account's other sessions (whoever knew the old password is
 * signed out); the session making the change stays signed in.
 */
export async function changePassword(
  { db }: IdentityDeps,
  caller: User,
  input: { old_password: string; new_password: string },
  currentToken: string | null,
): Promise<void> {
  if (!(await verifyPassword(caller.password_hash, input.old_password))) throw invalid(Messages.WRONG_OLD_PASSWORD);
  assertAcceptablePassword(input.new_password, { email: caller.email });
  const hash = await hashPassword(input.new_password);
  const keep = currentToken ? hashToken(currentToken) : null;
  await db.$transaction([
    db.user.update({ where: { id: caller.id }, data: { password_hash: hash } }),
    db.authToken.deleteMany({ where: { user_id: caller.id, ...(keep ? { token_hash: { not: keep } } : {}) } }),
  ]);
}

/**
 * Moves what a guest did into the caller's account. The guest proves ownership with its own
 * token; rows the account already has (same product saved twice) are dropped, not duplicated.
 */
export async function mergeGuestIntoMe(deps: IdentityDeps, caller: User, guestToken: string) {
  const { db } = deps;
  const guestRow = await resolveToken(db, guestToken);
  if (!guestRow) throw invalid("The guest session is invalid or expired");
  const guest = guestRow.user;
  if (guest.id === caller.id) throw invalid("This guest session is already your account");
  if (guest.auth_provider !== "guest" && guest.auth_provider !== "lead") throw notAllowed("Only guest accounts can be merged");

  const merged = await db.$transaction(async (tx) => {
    const from = { user_id: guest.id };
    const to = { user_id: caller.id };

    const savedProducts = await moveUnique(
      await tx.savedProduct.findMany({ where: from, select: { product_id: true } }),
      (r) => tx.savedProduct.findUnique({ where: { user_id_product_id: { user_id: caller.id, product_id: r.product_id } } }),
      (r) => tx.savedProduct.update({ where: { user_id_product_id: { user_id: guest.id, product_id: r.product_id } }, data: to }),
    );
    const favoriteStores = await moveUnique(
      await tx.userFavoriteStore.findMany({ where: from, select: { store_id: true } }),
      (r) => tx.userFavoriteStore.findUnique({ where: { user_id_store_id: { user_id: caller.id, store_id: r.store_id } } }),
      (r) => tx.userFavoriteStore.update({ where: { user_id_store_id: { user_id: guest.id, store_id: r.store_id } }, data: to }),
    );
    const savedTryOns = await moveUnique(
      await tx.savedTryOn.findMany({ where: from, select: { tryon_id: true } }),
      (r) => tx.savedTryOn.findUnique({ where: { user_id_tryon_id: { user_id: caller.id, tryon_id: r.tryon_id } } }),
      (r) => tx.savedTryOn.update({ where: { user_id_tryon_id: { user_id: guest.id, tryon_id: r.tryon_id } }, data: to }),
    );
    const tryOns = (await tx.tryOn.updateMany({ where: from, data: to })).count;
    const collections = (await tx.userCollection.updateMany({ where: from, data: to })).count;
    // Assistant conversations (with their messages) keep their history in the account.
    const conversations = (await tx.conversation.updateMany({ where: from, data: to })).count;
    // Photo searches (a guest's temporary entry, a lead's kept ones) join the account's history.
    const visionSearches = (await tx.visionSearchEntry.updateMany({ where: from, data: to })).count;
    const clones = (await tx.clone.updateMany({ where: from, data: to })).count;
    // What hangs off the moved clones goes with them (deleting the guest would cascade it away).
    await tx.cloneTrainingJob.updateMany({ where: from, data: to });
    await tx.outfit.updateMany({ where: from, data: to });
    // Notification requests (back in stock, saved searches, drops): moved unless the account
    // already has the same one; moved requests email the account's address.
    let notificationRequests = 0;
    for (const r of await tx.notificationRequest.findMany({ where: from })) {
      const same = await tx.notificationRequest.findFirst({
        where: {
          user_id: caller.id,
          kind: r.kind,
          ...(r.kind === "back_in_stock" ? { product_id: r.product_id, variant_id: r.variant_id } : r.kind === "search" ? { search_id: r.search_id } : { drop_id: r.drop_id }),
        },
        select: { id: true },
      });
      if (same) {
        await tx.notificationRequest.delete({ where: { id: r.id } });
        continue;
      }
      await tx.notificationRequest.update({ where: { id: r.id }, data: { user_id: caller.id, ...(caller.email ? { email: caller.email } : {}) } });
      notificationRequests++;
    }
    // Orders a lead placed (linked by its email as they arrived), with their returns.
    const orders = (await tx.order.updateMany({ where: from, data: to })).count;
    await tx.return.updateMany({ where: from, data: to });
    await tx.returnRequest.updateMany({ where: from, data: to });
    // The cart being filled in this browser wins; the account's earlier cart id is kept in its
    // metadata (previousCartId), and its lines are added to the kept cart after the transaction.
    let cartMoved = false;
    if (guest.cart_id && guest.cart_id !== caller.cart_id) {
      await tx.user.update({
        where: { id: caller.id },
        data: { cart_id: guest.cart_id, ...(caller.cart_id ? { metadata: mergeMetadata(caller.metadata, { previousCartId: caller.cart_id }) } : {}) },
      });
      cartMoved = true;
    }
    await tx.user.delete({ where: { id: guest.id } });
    return { savedProducts, favoriteStores, tryOns, savedTryOns, collections, clones, notificationRequests, orders, cartMoved, conversations, visionSearches };
  });
  // Storefront calls stay outside the transaction (in local mode the Storefront is this database).
  // The merge is best effort: the account already has the guest's cart; a failure is logged.
  if (merged.cartMoved && guest.cart_id && deps.cart) {
    await mergeCarts({ db, cart: deps.cart, log: deps.log }, caller, { guestCartId: guest.cart_id, previousCartId: caller.cart_id }).catch((e: unknown) =>
      deps.log?.warn({ err: e, userId: caller.id }, "cart merge on sign-in failed; the account's earlier cart id stays in metadata.previousCartId"),
    );
  }
  return merged;
}

async function moveUnique<R>(rows: R[], existsForCaller: (r: R) => Promise<unknown>, move: (r: R) => Promise<unknown>): Promise<number> {
  let moved = 0;
  for (const r of rows) {
    if (await existsForCaller(r)) continue;
    await move(r);
    moved++;
  }
  return moved;
}

// ---- Admin users and permissions -------------------------------------------------------------

export async function listAdmins({ db }: IdentityDeps, roles?: Role[]): Promise<User[]> {
  return db.user.findMany({
    where: { role: { in: roles && roles.length > 0 ? roles : ["ADMIN", "VENDOR"] } },
    orderBy: [{ role: "asc" }, { email: "asc" }],
    take: 500,
  });
}

// Creating an admin or vendor user is an invitation the invitee accepts: app/services/staff-invitations.server.ts.

export async function getPermissions({ db }: IdentityDeps, userId: string) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw notFoundError("User not found");
  return { userId: user.id, role: user.role, permissions: user.permissions as Permission[] };
}

export async function updatePermissions({ db }: IdentityDeps, caller: User, userId: string, permissions: Permission[]) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw notFoundError("User not found");
  if (user.role !== "ADMIN") throw invalid("Permissions apply to admin users only");
  if (user.id === caller.id && !permissions.includes("admins.manage")) {
    throw invalid("You cannot remove your own admins.manage permission");
  }
  const updated = await db.user.update({ where: { id: userId }, data: { permissions: [...new Set(permissions)] } });
  return { userId: updated.id, role: updated.role, permissions: updated.permissions as Permission[] };
}

// ---- helpers -----------------------------------------------------------------------------------

function refuseDemoOutsideLocal({ mode }: IdentityDeps, email: string) {
  if (mode !== "local" && email.toLowerCase().endsWith(DEMO_EMAIL_DOMAIN)) throw notAllowed(Messages.DEMO_ACCOUNTS_DISABLED);
}

export function mergeMetadata(current: Prisma.JsonValue, patch: Record<string, unknown>): Prisma.InputJsonObject {
  const base = current && typeof current === "object" && !Array.isArray(current) ? (current as Prisma.InputJsonObject) : {};
  const next: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) next[k] = v;
  return next as Prisma.InputJsonObject;
}

/** The user as the API shows it (the response schema strips the rest, e.g. password_hash). */
export function toUserDto(user: User) {
  const metadata = user.metadata && typeof user.metadata === "object" && !Array.isArray(user.metadata) ? user.metadata : {};
  return { ...user, metadata };
}
