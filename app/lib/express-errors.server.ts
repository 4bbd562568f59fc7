/**
 * The last Express handler: an error no route answered (a malformed path under /uploads, a Remix
 * handler that failed outside its own error handling) is logged here with its stack and answered
 * with a status and a sentence, never with the stack or file paths that Express's default handler
 * prints whenever NODE_ENV is not "production".
 */
import crypto from "node:crypto";
import type { ErrorRequestHandler } from "express";
import { ErrorCodes, Messages, type ErrorStatus } from "~/contract/messages";
import type { Logger } from "~/lib/logger.server";
import { wantsJson } from "~/lib/csrf.server";

function statusOf(err: unknown): ErrorStatus {
  const e = err as { status?: unknown; statusCode?: unknown } | null;
  const s = typeof e?.status === "number" ? e.status : typeof e?.statusCode === "number" ? e.statusCode : 500;
  return s in ErrorCodes && s >= 400 ? (s as ErrorStatus) : 500;
}

export function finalErrorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const status = statusOf(err);
    const requestId = req.get("x-request-id")?.slice(0, 100) || crypto.randomUUID();
    if (status >= 500) log.error({ err, requestId, method: req.method, path: req.path }, "request failed");
    else log.info({ requestId, method: req.method, path: req.path, status, reason: err instanceof Error ? err.message : String(err) }, "request refused");
    // Half an answer already went out: all that is left is to cut it short.
    if (res.headersSent) return void res.destroy();
    const message = status >= 500 ? Messages.INTERNAL : status === 404 ? Messages.NOT_FOUND : status === 413 ? "The request body is too large" : "The request could not be understood";
    res.status(status).setHeader("Cache-Control", "no-store");
    res.setHeader("x-request-id", requestId);
    if (wantsJson(req)) return void res.json({ error: { code: ErrorCodes[status], message, requestId } });
    res.type("text/plain; charset=utf-8").send(`${message}\n`);
  };
}
