/**
 * The vendor portal's own data (issue 17; SPEC §1 Vendors, §6 "Vendor endpoints use /vendors/me
 * for own data; the same data by vendor id for admin use", §7 "Vendors"): the vendor, its stores,
 * its products (with a status change through the store), and its payouts.
 *
 * Two doors onto the same answers:
 * - `/vendors/me/…`: a VENDOR user's own vendor (the user's `vendor_id`). Anything that is not the
 *   caller's vendor's (another vendor's product id) answers 404, never 403, so ids of other
 *   vendors reveal nothing. Shoppers and admins get 403 here.
 * - `/vendors/{id}/…` reads: admins with `vendors.manage` for any vendor (404 for an unknown id);
 *   a VENDOR user for its own vendor id only: any other id answers 404, as an unknown one does.
 *   Shoppers and admins without the permission get 403.
 * - `GET /vendors`, `PATCH /vendors/{id}` and marking a payout paid: admins with `vendors.manage`
 *   only (a vendor gets 403: these are the platform's acts, not the vendor's).
 *
 * Payouts are monthly periods in the store's time zone (STORE_TIMEZONE): a period runs from the
 * first day of a month at local midnight to the first day of the next. Per period:
 * - gross: price × quantity of the vendor's order items placed in the period (the order's
 *   `created_at`), neither the item nor its order cancelled;
 * - refunds: refunded amounts of returns refunded in the period (`refunded_at`), attributed to the
 *   vendor by the share of the vendor's received items in the return's received value;
 * - returns / returnedUnits: value and units of the vendor's items received back in the period
 *   (information; the money side of a return is its refund);
 * - commission: commissionRate % of (gross − refunds), rounded to the cent;
 * - net: gross − refunds − commission (what the vendor is paid).
 * A closed period is kept as a payout row (id set) with the rate in force when the row was made; an
 * admin marks it paid with a reference (then its figures are frozen). The current month is the
 * `open` period (id null), computed live at the vendor's current rate. A commission change applies
 * to periods not yet closed: the open one and those after it.
 * Amounts are decimal strings with two decimals in `currencyCode`.
 */
import { z } from "zod";
import { access, endpoint, type Access } from "./endpoint";
import { IsoDate, RecordId as Id } from "./common";
import { ImageSchema } from "./products";
import { StoreSchema } from "./stores";
import { Messages } from "./messages";

/**
 * The admin mirrors' rule: admins with `vendors.manage`, or a vendor (whose handler then answers
 * 404 for any vendor id but its own). The permission binds admins only (app/api/auth.server.ts).
 */
export const vendorByIdAccess = { kind: "role", roles: ["ADMIN", "VENDOR"], permission: "vendors.manage" } as const satisfies Access;

export const VENDORS_PAGE_SIZE = 25;
export const VENDOR_PRODUCTS_PAGE_SIZE = 25;
/** The widest payout range one call reads (months). */
export const VENDOR_PAYOUTS_MAX_MONTHS = 36;
export const VENDOR_PAYOUTS_DEFAULT_MONTHS = 12;

export const VENDOR_PRODUCT_STATUSES = ["active", "draft", "archived"] as const;
export const VendorProductStatusSchema = z.enum(VENDOR_PRODUCT_STATUSES);
export type VendorProductStatus = z.output<typeof VendorProductStatusSchema>;

export const VENDOR_PRODUCT_SORTS = ["updated", "title", "created"] as const;
export const PAYOUT_STATUSES = ["open", "pending", "paid", "failed"] as const;
export const PayoutStatusSchema = z.enum(PAYOUT_STATUSES);

const Amount = z.string().describe("decimal amount with two decimals, in currencyCode");
const Cursor = z.string().trim().min(1).max(500).optional();
const limitOf = (def: number) =>
  z.coerce.number().int("must be a whole number").min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(def);
const VendorIdParams = z.object({ id: Id });
const ProductId = z
  .string()
  .trim()
  .max(300, "must be at most 300 characters")
  .refine((v) => v !== "" && v !== "undefined" && v !== "null", Messages.NO_PRODUCT_ID);

/** A calendar month as YYYY-MM. */
const Month = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month as YYYY-MM")
  .refine((v) => {
    const y = Number(v.slice(0, 4));
    return y >= 2000 && y <= 2100;
  }, "must be between 2000 and 2100");

/** Months from `from` to `to`, both included (YYYY-MM). */
export function monthsBetween(from: string, to: string): number {
  return (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + (Number(to.slice(5, 7)) - Number(from.slice(5, 7))) + 1;
}

export const VendorPayoutsQuery = z
  .object({
    from: Month.optional().describe("first month (YYYY-MM); default: 11 months before `to`"),
    to: Month.optional().describe("last month (YYYY-MM); default: the current month in the store's time zone"),
    format: z.enum(["json", "csv"]).default("json").describe("csv: the periods as text/csv (an attachment)"),
  })
  .superRefine((q, c) => {
    if (q.from && q.to) {
      const n = monthsBetween(q.from, q.to);
      if (n < 1) c.addIssue({ code: "custom", path: ["from"], message: "must not be after to" });
      else if (n > VENDOR_PAYOUTS_MAX_MONTHS) c.addIssue({ code: "custom", path: ["to"], message: `the range must be at most ${VENDOR_PAYOUTS_MAX_MONTHS} months` });
    }
  });

export const VendorSchema = z.object({
  id: z.string(),
  name: z.string(),
  handle: z.string(),
  email: z.string().nullable(),
  /** Percent of sales the platform keeps (0–100, two decimals), as a decimal string ("15.00"). */
  commission_rate: z.string(),
  storeCount: z.number().int(),
  productCount: z.number().int(),
  /** Products by status (active, draft, archived). */
  productCounts: z.object({ active: z.number().int(), draft: z.number().int(), archived: z.number().int() }),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type Vendor = z.output<typeof VendorSchema>;

export const VendorProductSchema = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  status: VendorProductStatusSchema,
  featuredImage: ImageSchema.nullable(),
  priceMin: Amount,
  priceMax: Amount,
  currencyCode: z.string(),
  totalInventory: z.number().int(),
  store: z.object({ id: z.string(), name: z.string(), handle: z.string() }).nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type VendorProduct = z.output<typeof VendorProductSchema>;

export const VendorProductsQuery = z.object({
  q: z.string().trim().max(200, "must be at most 200 characters").optional().describe("title or handle contains (case-insensitive)"),
  status: VendorProductStatusSchema.optional(),
  sort: z.enum(VENDOR_PRODUCT_SORTS).default("updated").describe("updated: last changed first; title: A→Z; created: newest first"),
  cursor: Cursor,
  limit: limitOf(VENDOR_PRODUCTS_PAGE_SIZE),
});

export const VendorProductsPageSchema = z.object({
  items: z.array(VendorProductSchema),
  /** Products of the vendor by status, for the same search (ignoring the status filter). */
  counts: z.object({ all: z.number().int(), active: z.number().int(), draft: z.number().int(), archived: z.number().int() }),
  nextCursor: z.string().nullable(),
});
export type VendorProductsPage = z.output<typeof VendorProductsPageSchema>;

export const VendorPayoutSchema = z.object({
  /** The payout row; null for the open (current) period, which is computed live. */
  id: z.string().nullable(),
  /** YYYY-MM */
  period: z.string(),
  /** First instant of the period and first instant after it (store time zone midnights). */
  period_start: IsoDate,
  period_end: IsoDate,
  status: PayoutStatusSchema,
  gross: Amount,
  refunds: Amount,
  returns: Amount,
  returnedUnits: z.number().int(),
  units: z.number().int(),
  /** The rate applied to this period, percent as a decimal string ("15.00"). */
  commissionRate: z.string(),
  commission: Amount,
  net: Amount,
  currencyCode: z.string(),
  paid_at: IsoDate.nullable(),
  reference: z.string().nullable(),
});
export type VendorPayout = z.output<typeof VendorPayoutSchema>;

export const VendorPayoutsSchema = z.object({
  vendorId: z.string(),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  currencyCode: z.string(),
  /** Newest period first; closed months without any sale, refund or return are left out. */
  items: z.array(VendorPayoutSchema),
  totals: z.object({ gross: Amount, refunds: Amount, commission: Amount, net: Amount, paid: Amount, pending: Amount }),
});
export type VendorPayouts = z.output<typeof VendorPayoutsSchema>;

export const VendorsListQuery = z.object({
  q: z.string().trim().max(200, "must be at most 200 characters").optional().describe("name, handle or email contains"),
  cursor: Cursor,
  limit: limitOf(VENDORS_PAGE_SIZE),
});

/** The columns of the payouts CSV, in order. */
export const VENDOR_PAYOUTS_CSV_COLUMNS = [
  "period",
  "period_start",
  "period_end",
  "status",
  "gross",
  "refunds",
  "returns",
  "returned_units",
  "units",
  "commission_rate",
  "commission",
  "net",
  "currency",
  "paid_at",
  "reference",
] as const;

const payoutsSummary =
  "Monthly payout periods (store time zone) between `from` and `to` (YYYY-MM, default the last 12 months), newest first: gross, refunds, returns, commission at the period's rate, net, status (open for the current month), paid date and reference; `format=csv` answers text/csv as an attachment";

export const vendorsEndpoints = {
  vendorsMe: endpoint({
    method: "GET",
    path: "/vendors/me",
    summary: "The caller's vendor: name, handle, email, commission rate, counts of stores and products",
    tags: ["Vendors"],
    access: access.vendor,
    response: VendorSchema,
  }),
  vendorsMeStores: endpoint({
    method: "GET",
    path: "/vendors/me/stores",
    summary: "The caller's vendor's stores (by sort order, then name)",
    tags: ["Vendors"],
    access: access.vendor,
    response: z.object({ items: z.array(StoreSchema) }),
  }),
  vendorsMeProducts: endpoint({
    method: "GET",
    path: "/vendors/me/products",
    summary: "The caller's vendor's products: search by title or handle, status filter, sort (updated, title, created), cursor paging; counts per status",
    tags: ["Vendors"],
    access: access.vendor,
    query: VendorProductsQuery,
    response: VendorProductsPageSchema,
  }),
  vendorsMeProductStatus: endpoint({
    method: "PATCH",
    path: "/vendors/me/products/{id}/status",
    summary:
      "Set one of the caller's vendor's products active, draft or archived, in the store (commerce port) and in the app's catalogue. 404 for a product that is not the vendor's; the same status again answers 200",
    tags: ["Vendors"],
    access: access.vendor,
    params: z.object({ id: ProductId }),
    body: z.object({ status: VendorProductStatusSchema }),
    response: VendorProductSchema,
  }),
  vendorsMePayouts: endpoint({
    method: "GET",
    path: "/vendors/me/analytics/payouts",
    summary: payoutsSummary,
    tags: ["Vendors"],
    access: access.vendor,
    query: VendorPayoutsQuery,
    response: VendorPayoutsSchema,
    alternateContent: ["text/csv"],
  }),
  vendorsList: endpoint({
    method: "GET",
    path: "/vendors",
    summary: "Vendors by name (search by name, handle or email; cursor paging), each with its counts",
    tags: ["Vendors (admin)"],
    access: access.admin("vendors.manage"),
    query: VendorsListQuery,
    response: z.object({ items: z.array(VendorSchema), nextCursor: z.string().nullable() }),
  }),
  vendorsGet: endpoint({
    method: "GET",
    path: "/vendors/{id}",
    summary: "One vendor, as /vendors/me answers it; 404 for an unknown id",
    tags: ["Vendors (admin)"],
    access: vendorByIdAccess,
    params: VendorIdParams,
    response: VendorSchema,
  }),
  vendorsUpdate: endpoint({
    method: "PATCH",
    path: "/vendors/{id}",
    summary:
      "Set a vendor's commission rate (percent, 0–100, at most two decimals). It applies to periods not yet closed: the payouts of closed months keep the rate they were made with",
    tags: ["Vendors (admin)"],
    access: access.admin("vendors.manage"),
    params: VendorIdParams,
    body: z.object({
      commission_rate: z.coerce
        .number("must be a number")
        .min(0, "must be between 0 and 100")
        .max(100, "must be between 0 and 100")
        .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "must have at most two decimals"),
    }),
    response: VendorSchema,
  }),
  vendorsStores: endpoint({
    method: "GET",
    path: "/vendors/{id}/stores",
    summary: "A vendor's stores, as /vendors/me/stores answers them",
    tags: ["Vendors (admin)"],
    access: vendorByIdAccess,
    params: VendorIdParams,
    response: z.object({ items: z.array(StoreSchema) }),
  }),
  vendorsProducts: endpoint({
    method: "GET",
    path: "/vendors/{id}/products",
    summary: "A vendor's products, as /vendors/me/products answers them",
    tags: ["Vendors (admin)"],
    access: vendorByIdAccess,
    params: VendorIdParams,
    query: VendorProductsQuery,
    response: VendorProductsPageSchema,
  }),
  vendorsProductStatus: endpoint({
    method: "PATCH",
    path: "/vendors/{id}/products/{productId}/status",
    summary:
      "Set one of a vendor's products active, draft or archived, as PATCH /vendors/me/products/{id}/status does (same answer); 404 for an unknown vendor or a product that is not the vendor's. A vendor may call it for its own id only",
    tags: ["Vendors (admin)"],
    access: vendorByIdAccess,
    params: z.object({ id: Id, productId: ProductId }),
    body: z.object({ status: VendorProductStatusSchema }),
    response: VendorProductSchema,
  }),
  vendorsPayouts: endpoint({
    method: "GET",
    path: "/vendors/{id}/payouts",
    summary: `A vendor's payouts, as /vendors/me/analytics/payouts answers them. ${payoutsSummary}`,
    tags: ["Vendors (admin)"],
    access: vendorByIdAccess,
    params: VendorIdParams,
    query: VendorPayoutsQuery,
    response: VendorPayoutsSchema,
    alternateContent: ["text/csv"],
  }),
  vendorsPayoutMarkPaid: endpoint({
    method: "POST",
    path: "/vendors/{id}/payouts/{payoutId}/mark-paid",
    summary:
      "Mark a pending payout paid with the transfer's reference (pending → paid, once; its figures are then frozen). 409 when it is already paid; 404 for a payout that is not the vendor's; the open period has no payout to mark",
    tags: ["Vendors (admin)"],
    access: access.admin("vendors.manage"),
    params: z.object({ id: Id, payoutId: Id }),
    body: z.object({ reference: z.string().trim().min(1, "A reference is required").max(200, "must be at most 200 characters") }),
    response: VendorPayoutSchema,
  }),
};
