import { z } from "zod";
import { access, endpoint } from "./endpoint";

const Check = z.object({ ok: z.boolean(), detail: z.string().optional(), latencyMs: z.number().optional() });

export const systemEndpoints = {
  health: endpoint({
    method: "GET",
    path: "/health",
    summary: "Health of the database, storage and job worker",
    tags: ["System"],
    access: access.public,
    response: z.object({
      status: z.enum(["ok", "degraded"]),
      mode: z.enum(["local", "production"]),
      version: z.string(),
      database: Check,
      storage: Check,
      worker: Check.extend({
        lastSeenAt: z.string().nullable(),
        /** Jobs running now; `expiredLeases`: those whose worker died (a live worker takes them over). */
        jobs: z.object({ running: z.number().int(), expiredLeases: z.number().int(), leaseMs: z.number().int() }).optional(),
      }),
    }),
  }),
  openapi: endpoint({
    method: "GET",
    path: "/openapi.json",
    summary: "This API's OpenAPI 3.1 document",
    tags: ["System"],
    access: access.public,
    response: z.record(z.string(), z.unknown()),
  }),
  docs: endpoint({
    method: "GET",
    path: "/docs",
    summary: "Browsable API documentation",
    tags: ["System"],
    access: access.public,
    response: z.string(),
    responseType: "html",
  }),
};
