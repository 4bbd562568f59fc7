/**
 * Errors a domain service throws when a request cannot be carried out. They name what went wrong
 * in the domain's words; the API layer (app/api/router.server.ts `toApiError`) maps each kind to
 * its HTTP status, so services never import the API's error module.
 */
export type DomainErrorKind = "invalid" | "unauthenticated" | "forbidden" | "not_found" | "conflict" | "unprocessable" | "too_large" | "rate_limited" | "unavailable";

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly details?: unknown,
    /** Seconds to wait before trying again (rate_limited). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const invalid = (message: string, details?: unknown) => new DomainError("invalid", message, details);
export const notAuthenticated = (message: string) => new DomainError("unauthenticated", message);
export const notAllowed = (message: string) => new DomainError("forbidden", message);
export const notFoundError = (message: string) => new DomainError("not_found", message);
export const conflictError = (message: string, details?: unknown) => new DomainError("conflict", message, details);
export const unprocessableError = (message: string, details?: unknown) => new DomainError("unprocessable", message, details);
export const tooLarge = (message: string) => new DomainError("too_large", message);
export const rateLimited = (message: string, retryAfterSeconds: number) => new DomainError("rate_limited", message, undefined, retryAfterSeconds);
export const unavailable = (message: string) => new DomainError("unavailable", message);
