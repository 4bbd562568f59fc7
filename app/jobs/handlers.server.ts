/**
 * Job handlers by queue name. Areas register theirs here as they land (imports, training,
 * try-ons, syncs, emails, scheduled publishing).
 */
import { z } from "zod";
import { deliverQueuedEmail } from "~/services/email.server";
import type { JobHandler } from "./worker.server";

export const jobHandlers: Record<string, JobHandler> = {
  /** Keeps the worker observable end to end: /api/health and tests enqueue it. */
  "system.ping": async (payload) => ({ pong: payload ?? null, at: new Date().toISOString() }),
  "email.send": async (payload, ctx) => deliverQueuedEmail(ctx, z.object({ emailId: z.string() }).parse(payload).emailId),
};
