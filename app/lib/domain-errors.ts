/**
 * Errors a domain service throws when a request cannot be carried out. They name what went wrong
 * in the domain's words; the API layer (app/api/router.server.ts `toApiError`) maps each kind to
 * its HTTP status, so services never import the API's error module.
 */
export type DomainErrorKind =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "unprocessable"
  | "too_large"
  /** The content is of a kind we do not take (a video where an image is needed): 415. */
  | "unsupported_media"
  | "rate_limited"
  | "unavailable"
  /** An outside system we called (the ads platform) refused or failed; its reason is the message (502). */
  | "bad_gateway"
  /** An operation failed unexpectedly; the message names it (SPEC §8's "Failed to …" catalogue). */
  | "failed";

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
export const unsupportedMedia = (message: string) => new DomainError("unsupported_media", message);
export const rateLimited = (message: string, retryAfterSeconds: number) => new DomainError("rate_limited", message, undefined, retryAfterSeconds);
export const unavailable = (message: string) => new DomainError("unavailable", message);
export const badGateway = (message: string, details?: unknown) => new DomainError("bad_gateway", message, details);
/**
 * An unexpected failure answered with a specific message (SPEC §8, e.g. "Failed to create review")
 * instead of the generic one; the original error stays as `cause` for the log.
 */
export function failedError(message: string, cause?: unknown): DomainError {
  const err = new DomainError("failed", message);
  if (cause !== undefined) (err as Error & { cause?: unknown }).cause = cause;
  return err;
}

/**
 * The kind of a refusal a port reports as an HTTP-like status (CommerceError, ImageSourceError
 * carry the store's or the fetch's status), so a service can pass it on as a domain error.
 */
const KIND_OF_PORT_STATUS = {
  400: "invalid",
  404: "not_found",
  409: "conflict",
  413: "too_large",
  415: "unsupported_media",
  422: "unprocessable",
  429: "rate_limited",
  502: "bad_gateway",
  503: "unavailable",
} as const satisfies Record<number, DomainErrorKind>;

export type PortStatus = keyof typeof KIND_OF_PORT_STATUS;

export const domainErrorOfStatus = (status: PortStatus, message: string, details?: unknown) => new DomainError(KIND_OF_PORT_STATUS[status], message, details);

/**
 * Whether `e` was thrown on purpose with a message meant for the caller: a DomainError, or an
 * ApiError from a module that still throws the API's errors (recognised by its name, so the domain
 * layer does not import the API's error module). Catch blocks that turn unexpected failures into a
 * generic or catalogue message re-throw these unchanged.
 */
export function isKnownError(e: unknown): e is Error {
  return e instanceof DomainError || (e instanceof Error && e.name === "ApiError");
}
