/**
 * Taobao import jobs: submission (one id, a list, or a shop page → one ImportJob per item, each
 * run by a `taobao.import` queue job), the job handler (progress, step, result and errors on the
 * ImportJob; transient failures retried by the queue with exponential backoff up to
 * TAOBAO_IMPORT_ATTEMPTS runs, bad input failed at once), and the admin reads and retries: status,
 * search, detail, error messages grouped with counts, retry one / a page / all / by message.
 */
import crypto from "node:crypto";
import { z } from "zod";
import { Prisma, type ImportJob } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { conflictError, invalid as invalidInput, notFoundError, unavailable, unprocessableError } from "~/lib/domain-errors";
import { INTERRUPTED_ERROR } from "~/jobs/queue.server";
import { withRecovery, type JobHandler } from "~/jobs/worker.server";
import type { ImportJobStatus, ImportJobView } from "~/contract/taobao-import";
import { TaobaoSourceError, parseTaobaoReference, type TaobaoItem } from "~/providers/taobao/port";
import { ALREADY_IMPORTING, classify, ImportFailure, runImportPipeline, STEP_PROGRESS, STORE_NOT_FOUND, type ImportStep } from "./pipeline.server";

export const TAOBAO_IMPORT_QUEUE = "taobao.import";
export const IMPORT_JOB_NOT_FOUND = "Import job not found";
export const MAX_REFERENCES = 100;
export const RETRY_ALL_MAX = 1000;

const dedupeKey = (importJobId: string) => `${TAOBAO_IMPORT_QUEUE}:${importJobId}`;

type Ctx = Pick<AppContext, "db" | "queue" | "config" | "taobao" | "log">;

// ---------------------------------------------------------------------------------------------
// Views

const productSelect = { select: { id: true, title: true, handle: true, featuredImageUrl: true, status: true } } as const;
type JobRow = ImportJob & { product: { id: string; title: string; handle: string; featuredImageUrl: string | null; status: string } | null };

async function retryTimes(db: Db, jobs: { id: string; status: string; error_message: string | null }[]): Promise<Map<string, Date>> {
  const waiting = jobs.filter((j) => j.status === "queued" && j.error_message);
  if (!waiting.length) return new Map();
  const rows = await db.job.findMany({ where: { dedupe_key: { in: waiting.map((j) => dedupeKey(j.id)) }, status: "queued" }, select: { dedupe_key: true, run_at: true } });
  return new Map(rows.map((r) => [r.dedupe_key!.slice(TAOBAO_IMPORT_QUEUE.length + 1), r.run_at]));
}

function resultOf(v: Prisma.JsonValue | null): ImportJobView["result"] {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as ImportJobView["result"]) : null;
}

export function toJobView(j: JobRow, maxAttempts: number, retryAt: Date | null = null) {
  return {
    id: j.id,
    taobao_product_id: j.taobao_product_id,
    store_id: j.store_id,
    store_name: j.store_name,
    status: j.status,
    progress: j.progress,
    step: j.step,
    attempts: j.attempts,
    max_attempts: maxAttempts,
    error_message: j.error_message,
    retry_at: retryAt,
    result: resultOf(j.result),
    product_id: j.product_id,
    product: j.product,
    page: j.page,
    batch_id: j.batch_id,
    created_at: j.created_at,
    updated_at: j.updated_at,
    completed_at: j.completed_at,
  };
}
export type JobViewRow = ReturnType<typeof toJobView>;

async function views(ctx: Pick<Ctx, "db" | "config">, rows: JobRow[]) {
  const times = await retryTimes(ctx.db, rows);
  return rows.map((r) => toJobView(r, ctx.config.TAOBAO_IMPORT_ATTEMPTS, times.get(r.id) ?? null));
}

// ---------------------------------------------------------------------------------------------
// Submission

export interface SubmitInput {
  taobao_product_id: string | string[];
  store_id?: string;
  store_name?: string;
  page?: number;
}

/** Splits what an admin typed into references: a list, or text with ids separated by commas, spaces or new lines. */
export function splitReferences(input: string | string[]): string[] {
  return (Array.isArray(input) ? input : [input]).flatMap((s) => s.split(/[\s,;，；]+/)).map((s) => s.trim()).filter(Boolean);
}

export async function submitImport(ctx: Ctx, input: SubmitInput) {
  const refs = splitReferences(input.taobao_product_id);
  if (refs.length === 0) throw invalidInput("taobao_product_id is required");
  if (refs.length > MAX_REFERENCES) throw invalidInput(`At most ${MAX_REFERENCES} ids at a time`);
  const parsed = refs.map((r) => ({ r, ref: parseTaobaoReference(r) }));
  const invalid = parsed.filter((p) => !p.ref).map((p) => p.r);
  if (invalid.length) throw invalidInput(`Not a Taobao item id, item URL or shop: ${invalid.slice(0, 10).join(", ")}${invalid.length > 10 ? ", …" : ""}`, { invalid });
  const shops = parsed.flatMap((p) => (p.ref?.kind === "shop" ? [p.ref] : []));
  if (shops.length > 1) throw invalidInput("One shop at a time: give one shop reference and a page");
  if (!input.store_id && !input.store_name) throw invalidInput("store_id or store_name is required");

  const store =
    (input.store_id ? await ctx.db.store.findUnique({ where: { id: input.store_id }, select: { id: true, name: true } }) : null) ??
    (input.store_name ? await ctx.db.store.findFirst({ where: { name: { equals: input.store_name, mode: "insensitive" } }, select: { id: true, name: true } }) : null);
  const storeName = store?.name ?? input.store_name ?? input.store_id!;

  let shop: { shop_id: string; shop_name: string; page: number; page_count: number; total: number } | null = null;
  const ids: string[] = [];
  for (const p of parsed) {
    if (p.ref!.kind === "item") ids.push(p.ref!.id);
    else {
      const page = input.page ?? p.ref!.page;
      try {
        const listing = await ctx.taobao.listShopItems(p.ref!.shopId, page);
        shop = { shop_id: listing.shopId, shop_name: listing.shopName, page: listing.page, page_count: listing.pageCount, total: listing.total };
        if (!listing.itemIds.length) throw invalidInput(`Page ${page} of Taobao shop ${listing.shopId} has no items (the shop has ${listing.pageCount} page${listing.pageCount === 1 ? "" : "s"})`);
        ids.push(...listing.itemIds);
      } catch (e) {
        if (e instanceof TaobaoSourceError) {
          if (e.code === "not_found") throw notFoundError(e.message);
          if (e.retryable) throw unavailable(`${e.message}; try again in a moment`);
          throw unprocessableError(e.message);
        }
        throw e;
      }
    }
  }
  const unique = [...new Set(ids)];
  const duplicates = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (unique.length > MAX_REFERENCES) throw invalidInput(`At most ${MAX_REFERENCES} items at a time`);

  const activeBy = new Map((await liveImports(ctx, { taobao_product_id: { in: unique } })).map((a) => [a.taobao_product_id, a.id]));
  const batchId = crypto.randomUUID();
  const now = new Date();
  const rows: Prisma.ImportJobCreateManyInput[] = unique.map((id) => {
    const base = { id: crypto.randomUUID(), taobao_product_id: id, store_id: store?.id ?? null, store_name: storeName, page: shop ? shop.page : null, batch_id: batchId };
    if (!store) return { ...base, status: "failed", step: "fetch", error_message: STORE_NOT_FOUND, completed_at: now, result: { detail: input.store_id ? `store_id ${input.store_id}` : `store_name ${input.store_name}` } };
    const other = activeBy.get(id);
    if (other) return { ...base, status: "failed", step: "fetch", error_message: ALREADY_IMPORTING, completed_at: now, result: { detail: `import job ${other}` } };
    return { ...base, status: "queued" };
  });
  await ctx.db.importJob.createMany({ data: rows });
  for (const r of rows) if (r.status === "queued") await enqueue(ctx, r.id!);
  const created = await ctx.db.importJob.findMany({ where: { batch_id: batchId }, include: { product: productSelect } });
  const order = new Map(rows.map((r, i) => [r.id!, i]));
  created.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  ctx.log.info({ batchId, items: unique.length, queued: rows.filter((r) => r.status === "queued").length, store: store?.id ?? null }, "taobao import submitted");
  return { batch_id: batchId, jobs: await views(ctx, created), duplicates, shop };
}

/**
 * Import jobs of `where` that are queued or running and whose queue job is still going to run
 * (`held`: that a live worker holds right now). A row left "running" by a run that died with no
 * queue job to take it up again is closed as interrupted here, so it never blocks a new import of
 * its item; a row younger than a lease is left alone (its submission may not have enqueued it yet).
 */
async function liveImports(ctx: Pick<Ctx, "db" | "queue">, where: Prisma.ImportJobWhereInput, opts: { held?: boolean } = {}) {
  const rows = await ctx.db.importJob.findMany({ where: { AND: [where, { status: { in: ["queued", "running"] } }] }, select: { id: true, taobao_product_id: true, updated_at: true } });
  const live = await ctx.queue.liveDedupeKeys(rows.map((r) => dedupeKey(r.id)), opts);
  const settling = new Date(Date.now() - ctx.queue.leaseMs);
  const stale = rows.filter((r) => !live.has(dedupeKey(r.id)) && r.updated_at < settling);
  if (stale.length && !opts.held) await closeInterrupted(ctx.db, stale.map((r) => r.id), INTERRUPTED_ERROR);
  return rows.filter((r) => live.has(dedupeKey(r.id)) || (!opts.held && r.updated_at >= settling));
}

/** Import jobs still shown queued or running whose queue job ended: failed with the queue's reason. */
async function closeInterrupted(db: Db, ids: string[], error: string) {
  await db.importJob.updateMany({ where: { id: { in: ids }, status: { in: ["queued", "running"] } }, data: { status: "failed", error_message: error, completed_at: new Date() } });
}

async function enqueue(ctx: Pick<Ctx, "queue" | "config">, importJobId: string) {
  await ctx.queue.enqueue(TAOBAO_IMPORT_QUEUE, { importJobId }, { dedupeKey: dedupeKey(importJobId), maxAttempts: ctx.config.TAOBAO_IMPORT_ATTEMPTS });
}

// ---------------------------------------------------------------------------------------------
// The job

const Payload = z.object({ importJobId: z.string().min(1) });

export type ImportJobCtx = Pick<AppContext, "db" | "commerce" | "taobao" | "storage" | "config" | "log" | "queue" | "languageModel">;

/** The `taobao.import` handler. Throws only to have the queue retry a transient failure. */
export async function runImportJob(ctx: ImportJobCtx, payload: unknown, progress?: (percent: number) => Promise<void>) {
  const { importJobId } = Payload.parse(payload);
  const job = await ctx.db.importJob.findUnique({ where: { id: importJobId } });
  if (!job) return { importJobId, skipped: "the import job no longer exists" };
  if (job.status === "completed" || job.status === "failed") return { importJobId, skipped: `the import job is ${job.status}` };
  const maxAttempts = ctx.config.TAOBAO_IMPORT_ATTEMPTS;
  const attempts = job.attempts + 1;
  const log = ctx.log.child({ importJobId, taobaoId: job.taobao_product_id, attempt: attempts });
  await ctx.db.importJob.update({ where: { id: job.id }, data: { status: "running", attempts, step: "fetch", progress: 0 } });

  let lastStep: ImportStep = "fetch";
  let lastPercent = -1;
  const setProgress = async (step: ImportStep, fraction = 0) => {
    const [from, to] = STEP_PROGRESS[step];
    const percent = Math.round(from + (to - from) * Math.max(0, Math.min(1, fraction)));
    if (step === lastStep && percent === lastPercent) return;
    const stepChanged = step !== lastStep;
    lastStep = step;
    lastPercent = percent;
    await ctx.db.importJob.update({ where: { id: job.id }, data: { step, progress: percent } });
    if (stepChanged) await progress?.(percent);
  };
  try {
    // Another job of the same item that started first runs alone; this one waits for a later attempt.
    // Only a rival a live worker holds: one whose worker died is no reason to wait.
    const [rival] = await liveImports(ctx, { taobao_product_id: job.taobao_product_id, status: "running", id: { not: job.id }, created_at: { lt: job.created_at } }, { held: true });
    if (rival) throw new ImportFailure(ALREADY_IMPORTING, "fetch", false, `import job ${rival.id}`);
    const out = await runImportPipeline(ctx, job, {
      step: setProgress,
      source: async (item: TaobaoItem) => {
        await ctx.db.importJob.update({ where: { id: job.id }, data: { source_payload: item as unknown as Prisma.InputJsonValue } });
      },
      created: async (productId) => {
        await ctx.db.importJob.update({ where: { id: job.id }, data: { product_id: productId } });
      },
    });
    await ctx.db.importJob.update({
      where: { id: job.id },
      data: { status: "completed", progress: 100, error_message: null, result: out.result as Prisma.InputJsonValue, product_id: out.productId, completed_at: new Date() },
    });
    log.info({ productId: out.productId, action: out.result.action, ms: out.result.duration_ms }, "taobao import completed");
    return { importJobId, productId: out.productId, action: out.result.action ?? null };
  } catch (e) {
    const f = classify(e, lastStep);
    const final = f.permanent || attempts >= maxAttempts;
    await ctx.db.importJob.update({
      where: { id: job.id },
      data: {
        status: final ? "failed" : "queued",
        step: f.step,
        error_message: f.message,
        result: f.detail ? { detail: f.detail } : undefined,
        completed_at: final ? new Date() : null,
      },
    });
    log.warn({ err: f.message, step: f.step, permanent: f.permanent, final }, "taobao import failed");
    // Bad input is final now: the queue job ends normally. Transient failures go back to the queue (backoff).
    if (f.permanent) return { importJobId, failed: f.message };
    throw f;
  }
}

/**
 * The handler with its recovery: a run killed part-way is simply run again (the pipeline finds
 * the product a dead run left half-made); when the queue gives the job up, its ImportJob is failed
 * with the queue's reason instead of showing "running" for ever.
 */
export const importJobHandler: JobHandler = withRecovery(async (payload, ctx, { progress }) => runImportJob(ctx, payload, progress), {
  async onFailed(payload, ctx, error) {
    const parsed = Payload.safeParse(payload);
    if (parsed.success) await closeInterrupted(ctx.db, [parsed.data.importJobId], error);
  },
});

// ---------------------------------------------------------------------------------------------
// Reads

export interface SearchFilters {
  status?: ImportJobStatus;
  text?: string;
  store_id?: string;
  batch_id?: string;
}

function where(f: SearchFilters, withStatus = true): Prisma.ImportJobWhereInput {
  const text = f.text?.trim();
  return {
    ...(withStatus && f.status ? { status: f.status } : {}),
    ...(f.store_id ? { store_id: f.store_id } : {}),
    ...(f.batch_id ? { batch_id: f.batch_id } : {}),
    ...(text
      ? {
          OR: [
            { taobao_product_id: { contains: text } },
            { store_name: { contains: text, mode: "insensitive" } },
            { error_message: { contains: text, mode: "insensitive" } },
            { product: { title: { contains: text, mode: "insensitive" } } },
          ],
        }
      : {}),
  };
}

async function countsOf(db: Db, w: Prisma.ImportJobWhereInput) {
  const groups = await db.importJob.groupBy({ by: ["status"], where: w, _count: { _all: true } });
  const counts = { queued: 0, running: 0, completed: 0, failed: 0 };
  for (const g of groups) counts[g.status] = g._count._all;
  return counts;
}

export async function searchImportJobs(ctx: Pick<Ctx, "db" | "config">, f: SearchFilters & { page: number; limit: number }) {
  const w = where(f);
  const [total, rows, counts] = [
    await ctx.db.importJob.count({ where: w }),
    await ctx.db.importJob.findMany({ where: w, include: { product: productSelect }, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: (f.page - 1) * f.limit, take: f.limit }),
    await countsOf(ctx.db, where(f, false)),
  ];
  return { jobs: await views(ctx, rows), total, page: f.page, limit: f.limit, pageCount: Math.max(1, Math.ceil(total / f.limit)), counts };
}

export async function getImportJob(ctx: Pick<Ctx, "db" | "config">, id: string) {
  const row = await ctx.db.importJob.findUnique({ where: { id }, include: { product: productSelect } });
  if (!row) throw notFoundError(IMPORT_JOB_NOT_FOUND);
  const [view] = await views(ctx, [row]);
  return { ...view, source_payload: row.source_payload ?? null };
}

export async function importStatus(ctx: Pick<Ctx, "db" | "config">, q: { batch_id?: string; ids?: string[] }) {
  const selected = !!q.batch_id || !!q.ids?.length;
  const w: Prisma.ImportJobWhereInput = { ...(q.batch_id ? { batch_id: q.batch_id } : {}), ...(q.ids?.length ? { id: { in: q.ids } } : {}) };
  const counts = await countsOf(ctx.db, w);
  const total = counts.queued + counts.running + counts.completed + counts.failed;
  // Finished jobs count as 100 whatever their bar showed when they failed.
  const activeSum = (await ctx.db.importJob.aggregate({ where: { AND: [w, { status: { in: ["queued", "running"] } }] }, _sum: { progress: true } }))._sum.progress ?? 0;
  const progress = total ? Math.round(((counts.completed + counts.failed) * 100 + activeSum) / total) : 100;
  const rows = await ctx.db.importJob.findMany({
    where: selected ? w : { status: { in: ["queued", "running"] } },
    include: { product: productSelect },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: selected ? 100 : 20,
  });
  return { total, counts, progress, done: counts.queued + counts.running === 0, jobs: await views(ctx, rows) };
}

export async function importErrorGroups(db: Db, f: { store_id?: string; batch_id?: string }) {
  const w: Prisma.ImportJobWhereInput = { status: "failed", error_message: { not: null }, ...(f.store_id ? { store_id: f.store_id } : {}), ...(f.batch_id ? { batch_id: f.batch_id } : {}) };
  const groups = await db.importJob.groupBy({ by: ["error_message", "step"], where: w, _count: { _all: true }, _max: { updated_at: true } });
  const byMessage = new Map<string, { message: string; count: number; step: string | null; stepCount: number; last_at: Date }>();
  for (const g of groups) {
    const message = g.error_message!;
    const cur = byMessage.get(message) ?? { message, count: 0, step: null, stepCount: -1, last_at: g._max.updated_at ?? new Date(0) };
    cur.count += g._count._all;
    if (g._count._all > cur.stepCount) {
      cur.step = g.step;
      cur.stepCount = g._count._all;
    }
    if (g._max.updated_at && g._max.updated_at > cur.last_at) cur.last_at = g._max.updated_at;
    byMessage.set(message, cur);
  }
  const list = [...byMessage.values()].sort((a, b) => b.count - a.count || (a.message < b.message ? -1 : 1)).map(({ message, count, step, last_at }) => ({ message, count, step, last_at }));
  return { groups: list, total: list.reduce((n, g) => n + g.count, 0) };
}

// ---------------------------------------------------------------------------------------------
// Retries

/** Queues failed jobs again from the start (attempts reset). Answers the ids that were failed and are queued now. */
export async function retryJobs(ctx: Pick<Ctx, "db" | "queue" | "config" | "log">, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const failed = await ctx.db.importJob.findMany({ where: { id: { in: ids }, status: "failed" }, select: { id: true } });
  const retried: string[] = [];
  for (const { id } of failed) {
    const r = await ctx.db.importJob.updateMany({
      where: { id, status: "failed" },
      data: { status: "queued", attempts: 0, progress: 0, step: null, error_message: null, result: Prisma.DbNull, completed_at: null },
    });
    if (r.count === 0) continue;
    await enqueue(ctx, id);
    retried.push(id);
  }
  if (retried.length) ctx.log.info({ count: retried.length }, "taobao import jobs retried");
  return retried;
}

export async function retryImportJob(ctx: Pick<Ctx, "db" | "queue" | "config" | "log">, id: string) {
  const job = await ctx.db.importJob.findUnique({ where: { id }, select: { status: true } });
  if (!job) throw notFoundError(IMPORT_JOB_NOT_FOUND);
  if (job.status !== "failed") throw conflictError(`Only failed import jobs can be retried (this one is ${job.status})`);
  await retryJobs(ctx, [id]);
  const row = await ctx.db.importJob.findUniqueOrThrow({ where: { id }, include: { product: productSelect } });
  return (await views(ctx, [row]))[0];
}

export async function retryImportPage(ctx: Pick<Ctx, "db" | "queue" | "config" | "log">, f: SearchFilters & { page: number; limit: number }) {
  const rows = await ctx.db.importJob.findMany({ where: where(f), select: { id: true, status: true }, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: (f.page - 1) * f.limit, take: f.limit });
  const jobIds = await retryJobs(ctx, rows.filter((r) => r.status === "failed").map((r) => r.id));
  return { retried: jobIds.length, jobIds };
}

export async function retryAllImports(ctx: Pick<Ctx, "db" | "queue" | "config" | "log">, f: { store_id?: string; batch_id?: string }) {
  const w: Prisma.ImportJobWhereInput = { status: "failed", ...(f.store_id ? { store_id: f.store_id } : {}), ...(f.batch_id ? { batch_id: f.batch_id } : {}) };
  const rows = await ctx.db.importJob.findMany({ where: w, select: { id: true }, orderBy: { created_at: "asc" }, take: RETRY_ALL_MAX });
  const jobIds = await retryJobs(ctx, rows.map((r) => r.id));
  const remaining = await ctx.db.importJob.count({ where: w });
  return { retried: jobIds.length, jobIds, remaining };
}

export async function retryImportsByMessage(ctx: Pick<Ctx, "db" | "queue" | "config" | "log">, message: string, f: { store_id?: string } = {}) {
  const rows = await ctx.db.importJob.findMany({ where: { status: "failed", error_message: message, ...(f.store_id ? { store_id: f.store_id } : {}) }, select: { id: true }, orderBy: { created_at: "asc" }, take: RETRY_ALL_MAX });
  const jobIds = await retryJobs(ctx, rows.map((r) => r.id));
  return { retried: jobIds.length, jobIds };
}

/** Stores an admin can import into, by name (the import screen's target store list). */
export async function importStoreOptions(db: Db) {
  return db.store.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
}
