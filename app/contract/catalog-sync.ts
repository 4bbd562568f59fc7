import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate } from "./common";

export const CatalogSyncResultSchema = z.object({
  storeId: z.string(),
  /** The adapter the products were read from. */
  source: z.enum(["local", "shopify"]),
  total: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  startedAt: IsoDate,
  finishedAt: IsoDate,
});
export type CatalogSyncResult = z.output<typeof CatalogSyncResultSchema>;

export const CatalogSyncJobSchema = z.object({
  id: z.string(),
  storeId: z.string().nullable(),
  status: z.enum(["queued", "running", "completed", "failed", "cancelled"]),
  /** 0–100 */
  progress: z.number().int(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  result: CatalogSyncResultSchema.nullable(),
  /** The last failure (a queued job with an error is waiting for its retry). */
  error: z.string().nullable(),
  createdAt: IsoDate,
  completedAt: IsoDate.nullable(),
});

export const catalogSyncEndpoints = {
  catalogSyncStore: endpoint({
    method: "POST",
    path: "/catalog-sync/stores/{id}/sync",
    summary: "Full catalogue sync of one store into the product read model, as a job (202 {jobId}; progress at GET /catalog-sync/jobs/{id}). A sync already queued or running for the store is answered with its job.",
    tags: ["Catalogue sync"],
    access: access.admin("catalog.sync"),
    params: z.object({ id: z.string().trim().min(1) }),
    response: z.object({ jobId: z.string() }),
    status: 202,
  }),
  catalogSyncJob: endpoint({
    method: "GET",
    path: "/catalog-sync/jobs/{id}",
    summary: "Status, progress (0–100) and result (created / updated / unchanged / removed counts) of a catalogue sync job",
    tags: ["Catalogue sync"],
    access: access.admin("catalog.sync"),
    params: z.object({ id: z.string().trim().min(1) }),
    response: CatalogSyncJobSchema,
  }),
};
