/**
 * Customers' data requests (Shopify's mandatory customers/data_request webhook). Each request's
 * export is kept in private storage, never at a public URL, and only admins with `privacy.manage`
 * list and download them, until they expire (PRIVACY_EXPORT_TTL_DAYS after the request).
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IdParams, IsoDate, intParam } from "./common";

export const DataRequestStatus = z.enum(["ready", "expired"]);

export const DataRequestSchema = z.object({
  id: z.string(),
  shop: z.string(),
  /** Shopify's data_request id. */
  shopify_request_id: z.string().nullable(),
  customer_id: z.string().nullable(),
  customer_email: z.string().nullable(),
  /** ready: the export can be downloaded; expired: its file was deleted. */
  status: DataRequestStatus,
  /** App users the export found for the customer. */
  users_found: z.number().int(),
  size_bytes: z.number().int(),
  created_at: IsoDate,
  expires_at: IsoDate,
  downloaded_at: IsoDate.nullable(),
  expired_at: IsoDate.nullable(),
});

/** What a downloaded export holds. */
export const DataExportSchema = z.object({
  requestedAt: z.string(),
  shop: z.string().optional(),
  dataRequestId: z.union([z.string(), z.number()]).nullable().optional(),
  customer: z.unknown(),
  users: z.array(z.record(z.string(), z.unknown())),
});

export const privacyEndpoints = {
  privacyDataRequestsList: endpoint({
    method: "GET",
    path: "/admin/privacy/data-requests",
    summary: "Customers' data requests, newest first: ready exports and expired ones (their files deleted)",
    tags: ["Privacy"],
    access: access.admin("privacy.manage"),
    query: z.object({ status: DataRequestStatus.optional(), take: intParam(100, 1, 500) }),
    response: z.object({ items: z.array(DataRequestSchema) }),
  }),
  privacyDataRequestDownload: endpoint({
    method: "GET",
    path: "/admin/privacy/data-requests/{id}/export",
    summary: "Download a customer's data export as a JSON file (Cache-Control: no-store); 404 once it has expired",
    tags: ["Privacy"],
    access: access.admin("privacy.manage"),
    params: IdParams,
    response: DataExportSchema,
  }),
};
