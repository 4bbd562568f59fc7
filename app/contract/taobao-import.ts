/**
 * Taobao import (SPEC §7 "Products … Admin: POST /shopify/admin/products (taobao_product_id,
 * store_id, store_name); import-status; import-jobs search, retry-page, retry-all, retry/{id},
 * error-messages, retry-by-message"). Every call needs `catalog.import`.
 *
 * Paths the spec leaves open, chosen here (README, "Taobao import"):
 * - POST /shopify/admin/products                                   submit: one id, a list, or a shop page → jobs (202)
 * - GET  /shopify/admin/products/import-status                     counts and progress of a batch, of ids, or of everything
 * - GET  /shopify/admin/products/import-jobs/search                jobs by status, text, store, batch; page/limit
 * - GET  /shopify/admin/products/import-jobs/{id}                  one job with its source payload and product
 * - GET  /shopify/admin/products/import-jobs/error-messages         failed jobs grouped by error message, with counts
 * - POST /shopify/admin/products/import-jobs/retry/{id}            retry one failed job
 * - POST /shopify/admin/products/import-jobs/retry-page            retry the failed jobs of one page of a search
 * - POST /shopify/admin/products/import-jobs/retry-all             retry every failed job (of a store or batch)
 * - POST /shopify/admin/products/import-jobs/retry-by-message      retry the failed jobs with one error message
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, intParam } from "./common";

export const IMPORT_STEPS = ["fetch", "map", "images", "translate", "create", "propose"] as const;
export const ImportJobStatusSchema = z.enum(["queued", "running", "completed", "failed"]);
export type ImportJobStatus = z.infer<typeof ImportJobStatusSchema>;

/** What the import did (null until it completes; a failed job may carry what it learnt). */
export const ImportResultSchema = z.object({
  action: z.enum(["created", "updated"]).optional(),
  title: z.string().optional(),
  taobao_title: z.string().optional(),
  variants: z.number().int().optional(),
  images: z.number().int().optional(),
  duplicate_images: z.number().int().optional(),
  proposed_images: z.number().int().optional(),
  currency_rule: z.string().optional(),
  price_range: z.object({ min: z.string(), max: z.string() }).optional(),
  translation: z.enum(["local", "openai"]).optional(),
  /** Things done differently than asked, or left out (skipped detail images, re-import limits). */
  notes: z.array(z.string()).optional(),
  /** For failures: where it happened and the source's detail (an image URL, a job id). */
  detail: z.string().optional(),
  duration_ms: z.number().int().optional(),
});

export const ImportJobSchema = z.object({
  id: z.string(),
  taobao_product_id: z.string(),
  store_id: z.string().nullable(),
  store_name: z.string(),
  status: ImportJobStatusSchema,
  /** 0–100 */
  progress: z.number().int(),
  /** The step running, failed, or last done: fetch, map, images, translate, create, propose. */
  step: z.string().nullable(),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  error_message: z.string().nullable(),
  /** When a queued job that failed will run again (backoff). */
  retry_at: IsoDate.nullable(),
  result: ImportResultSchema.nullable(),
  product_id: z.string().nullable(),
  product: z.object({ id: z.string(), title: z.string(), handle: z.string(), featuredImageUrl: z.string().nullable(), status: z.string() }).nullable(),
  page: z.number().int().nullable(),
  batch_id: z.string().nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
  completed_at: IsoDate.nullable(),
});
export type ImportJobView = z.output<typeof ImportJobSchema>;

export const ImportJobDetailSchema = ImportJobSchema.extend({
  /** The item as the source gave it (after validation), when it was fetched. */
  source_payload: z.unknown().nullable(),
});

const Counts = z.object({ queued: z.number().int(), running: z.number().int(), completed: z.number().int(), failed: z.number().int() });

/** One id, item URL or shop (`shop:106512345`, `https://shop106512345.taobao.com`), a list, or one text with several separated by commas, spaces or new lines. */
const References = z.union([z.string().trim().min(1, "taobao_product_id is required").max(20_000), z.array(z.string().trim().min(1)).min(1, "taobao_product_id must not be empty").max(100, "At most 100 ids at a time")]);

const IdList = z.preprocess(
  (v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(",")).map((x) => x.trim()).filter(Boolean)),
  z.array(z.string()).max(100, "At most 100 ids at a time").optional(),
);

const SearchFilters = z.object({
  status: ImportJobStatusSchema.optional(),
  /** Matches the Taobao id, the store name, the error message and the imported title. */
  text: z.string().trim().max(200).optional(),
  store_id: z.string().trim().min(1).optional(),
  batch_id: z.string().trim().min(1).optional(),
});

const Retried = z.object({ retried: z.number().int(), jobIds: z.array(z.string()) });

const JobIdParams = z.object({ id: z.string().trim().min(1) });

export const taobaoImportEndpoints = {
  taobaoImportSubmit: endpoint({
    method: "POST",
    path: "/shopify/admin/products",
    summary:
      "Import from Taobao into a store: `taobao_product_id` is one item id (or item URL), a list, or a shop (`shop:<id>` or its URL, `page` from 1); each item becomes an import job (202). The target store is `store_id`, else the store named `store_name`; an unknown store gives jobs that fail with \"Target store not found\". An item already being imported gets a failed job saying so; an item imported before is updated, not duplicated.",
    tags: ["Taobao import"],
    access: access.admin("catalog.import"),
    body: z.object({
      taobao_product_id: References,
      store_id: z.string().trim().min(1).optional(),
      store_name: z.string().trim().min(1).max(200).optional(),
      /** The page of a shop reference (items per page: the source's). */
      page: z.coerce.number().int().min(1).max(1000).optional(),
    }),
    response: z.object({
      batch_id: z.string(),
      jobs: z.array(ImportJobSchema),
      /** Ids given more than once in this request (imported once). */
      duplicates: z.array(z.string()),
      shop: z.object({ shop_id: z.string(), shop_name: z.string(), page: z.number().int(), page_count: z.number().int(), total: z.number().int() }).nullable(),
    }),
    status: 202,
  }),
  taobaoImportStatus: endpoint({
    method: "GET",
    path: "/shopify/admin/products/import-status",
    summary: "Counts by status and overall progress of a batch (`batch_id`), of jobs (`ids`), or of every import; with the jobs of the selection (at most 100; without a selection the 20 latest queued or running)",
    tags: ["Taobao import"],
    access: access.admin("catalog.import"),
    query: z.object({ batch_id: z.string().trim().min(1).optional(), ids: IdList }),
    response: z.object({ total: z.number().int(), counts: Counts, progress: z.number().int(), done: z.boolean(), jobs: z.array(ImportJobSchema) }),
  }),
  taobaoImportJobsSearch: endpoint({
    method: "GET",
    path: "/shopify/admin/products/import-jobs/search",
    summary: "Import jobs, newest first, by status, text, store and batch (`page` from 1, `limit` ≤ 100); `counts` per status for the same filters without the status",
    tags: ["Taobao import"],
    access: access.admin("catalog.import"),
    query: SearchFilters.extend({ page: intParam(1, 1, 100_000), limit: intParam(20, 1, 100) }),
    response: z.object({ jobs: z.array(ImportJobSchema), total: z.number().int(), page: z.number().int(), limit: z.number().int(), pageCount: z.number().int(), counts: Counts }),
  }),
  taobaoImportJobGet: endpoint({
    method: "GET",
    path: "/shopify/admin/products/import-jobs/{id}",
    summary: "One import job with the item as the source gave it and the created product; 404 \"Import job not found\"",
    tags: ["Taobao import"],
    access: access.admin("catalog.import"),
    params: JobIdParams,
    response: ImportJobDetailSchema,
  }),
  taobaoImportErrorMessages: endpoint({
    method: "GET",
    path: "/shopify/admin/products/import-jobs/error-messages",
    summary: "Failed import jobs grouped by error message, most frequent first, with counts (of a store or batch when given)",
    tags: ["Taobao import"],
    access: access.admin("catalog.import"),
    query: z.object({ store_id: z.string().trim().min(1).optional(), batch_id: z.string().trim().min(1).optional() }),
    response: z.object({
      groups: z.array(z.object({ message: z.string(), count: z.number().int(), step: z.string().nullable(), last_at: IsoDate })),
      total: z.number().int(),
    }),
  }),
  taobaoImportRetry: endpoint({
    method: "POST",
    path: "/shopify/admin/products/import-jobs/retry/{id}",
    summary: "Retry one failed import job (queued again from the start with its attempts reset); 404 when unknown, 409 when it is not failed",
    tags: ["Taobao import"],
    access: access.admin("catalog.import"),
    params: JobIdParams,
    response: ImportJobSchema,
  }),
  taobaoImportRetryPage: endpoint({
    method: "POST",
    path: "/shopify/admin/products/import-jobs/retry-page",
    summary: "Retry the failed jobs on one page of a search (the same filters, `page` and `limit` as import-jobs/search)",
    tags: ["Taobao import"],
    access: access.admin("catalog.import"),
    body: SearchFilters.extend({ page: z.coerce.number().int().min(1).max(100_000).default(1), limit: z.coerce.number().int().min(1).max(100).default(20) }).default({ page: 1, limit: 20 }),
    response: Retried,
  }),
  taobaoImportRetryAll: endpoint({
    method: "POST",
    path: "/shopify/admin/products/import-jobs/retry-all",
    summary: "Retry every failed import job (of a store or batch when given), at most 1000 per call (`remaining` says how many are left)",
    tags: ["Taobao import"],
    access: access.admin("catalog.import"),
    body: z.object({ store_id: z.string().trim().min(1).optional(), batch_id: z.string().trim().min(1).optional() }).default({}),
    response: Retried.extend({ remaining: z.number().int() }),
  }),
  taobaoImportRetryByMessage: endpoint({
    method: "POST",
    path: "/shopify/admin/products/import-jobs/retry-by-message",
    summary: "Retry the failed import jobs whose error message is exactly `message` (a group of error-messages)",
    tags: ["Taobao import"],
    access: access.admin("catalog.import"),
    body: z.object({ message: z.string().trim().min(1, "message is required").max(2000) }),
    response: Retried,
  }),
};
