/**
 * Who is calling, and may they? One authorisation layer for every API route: the router checks
 * the endpoint's declared access before it parses input or runs the handler.
 */
import type { User } from "@prisma/client";
import type { Access } from "~/contract/endpoint";
import { Messages } from "~/contract/messages";
import type { Permission } from "~/contract/permissions";
import type { AppContext } from "~/context.server";
import { resolveToken } from "~/services/tokens.server";
import { ApiKeyMessages, constantTimeEqual, verifyApiKey } from "~/services/api-keys.server";
import { ApiError, forbidden, unauthenticated } from "./errors.server";

export const SESSION_COOKIE = "fd_session";

export interface AuthState {
  user: User | null;
  /** The raw token the caller presented, when any (for logout). */
  token: string | null;
  via: "bearer" | "cookie" | "apiKey" | null;
  /** The data-service key the caller presented, once verified (endpoints with `access.apiKey`). */
  apiKey?: ApiKeyCaller;
}

/** Who called with an `x-api-key`: a key admins created (`database`) or DATA_SERVICE_API_KEY (`config`). */
export interface ApiKeyCaller {
  id: string | null;
  name: string;
  source: "database" | "config";
}

export const anonymous: AuthState = { user: null, token: null, via: null };

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export function tokenFromRequest(request: Request): { token: string; via: "bearer" | "cookie" } | null {
  const auth = request.headers.get("authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) {
    const token = auth.slice(7).trim();
    if (token) return { token, via: "bearer" };
  }
  const cookie = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  return cookie ? { token: cookie, via: "cookie" } : null;
}

export async function authenticateRequest(ctx: AppContext, request: Request): Promise<AuthState> {
  const found = tokenFromRequest(request);
  if (!found) return anonymous;
  const row = await resolveToken(ctx.db, found.token);
  if (!row) return anonymous;
  return { user: row.user, token: found.token, via: found.via };
}

/** An access rule's permission as a list (a rule may accept any one of several). */
export const permissionsOf = (permission: Permission | readonly Permission[]): readonly Permission[] => (typeof permission === "string" ? [permission] : permission);

export function hasPermission(user: Pick<User, "role" | "permissions">, permission: Permission): boolean {
  return user.role === "ADMIN" && user.permissions.includes(permission);
}

/**
 * Verifies the `x-api-key` header: a key created by an admin (app/services/api-keys.server.ts),
 * or the operator's DATA_SERVICE_API_KEY when one is configured. Throws 401 with a message saying
 * what is wrong (missing, unknown or revoked key).
 */
export async function authenticateApiKey(ctx: Pick<AppContext, "db" | "config">, request: Request): Promise<ApiKeyCaller> {
  const presented = request.headers.get("x-api-key")?.trim() ?? "";
  if (!presented) throw new ApiError(401, ApiKeyMessages.MISSING);
  const configured = ctx.config.DATA_SERVICE_API_KEY;
  if (configured && constantTimeEqual(presented, configured)) return { id: null, name: "DATA_SERVICE_API_KEY", source: "config" };
  const result = await verifyApiKey(ctx.db, presented);
  if (!result.ok) throw new ApiError(401, result.message);
  return { id: result.key.id, name: result.key.name, source: "database" };
}

/** Throws 401 or 403 when the caller may not use an endpoint with this access rule. */
export function authorize(access: Access, auth: AuthState, ctx: AppContext, request: Request): void {
  switch (access.kind) {
    case "public":
      return;
    case "apiKey":
      // Verified before (authenticateApiKey: the router does it for these endpoints); closed otherwise.
      if (!auth.apiKey) throw new ApiError(401, ApiKeyMessages.MISSING);
      return;
    case "user":
      if (!auth.user) throw unauthenticated(Messages.USER_NOT_AUTHENTICATED);
      return;
    case "registered":
      if (!auth.user) throw unauthenticated(access.message ?? Messages.USER_NOT_AUTHENTICATED);
      if (auth.user.auth_provider === "guest") throw access.message ? unauthenticated(access.message) : forbidden("Sign in or create an account to do this");
      if (access.fullUsersOnly && auth.user.auth_provider === "lead") throw forbidden("Create an account or sign in to do this: an email address alone is not enough");
      return;
    case "role": {
      if (!auth.user) throw unauthenticated(Messages.USER_NOT_AUTHENTICATED);
      if (!access.roles.includes(auth.user.role)) throw forbidden();
      // The permission binds admins; a vendor let in by the same rule is confined to its own data by the handler.
      if (access.permission && auth.user.role === "ADMIN" && !permissionsOf(access.permission).some((p) => hasPermission(auth.user!, p))) throw forbidden();
      if (auth.user.role === "VENDOR" && !auth.user.vendor_id) throw forbidden("This vendor account is not linked to a vendor yet");
      return;
    }
  }
}

export function sessionCookie(token: string, opts: { secure: boolean; maxAgeSeconds: number }): string {
  return [
    `${SESSION_COOKIE}=${encodeURIComponent(token)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${opts.maxAgeSeconds}`,
    opts.secure ? "Secure" : "",
  ]
    .filter(Boolean)
    .join("; ");
}

export function clearSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}

export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
}
