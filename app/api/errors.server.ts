import { ErrorCodes, Messages, type ErrorStatus } from "~/contract/messages";

/** An error with an HTTP status and a message meant for the caller. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly details?: unknown,
    readonly code: string = ErrorCodes[status],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string, details?: unknown) => new ApiError(400, message, details);
export const unauthenticated = (message: string = Messages.USER_NOT_AUTHENTICATED) => new ApiError(401, message);
export const forbidden = (message: string = Messages.FORBIDDEN) => new ApiError(403, message);
export const notFound = (message: string = Messages.NOT_FOUND) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const unprocessable = (message: string, details?: unknown) => new ApiError(422, message, details);
export const notImplemented = (message: string) => new ApiError(501, message);
