/**
 * Product embeddings and the vector index, kept in step with the catalogue.
 *
 * The `products.index` job computes, per product, one vector per embedder and kind:
 * - "attributes": colour, type, gender and price (syncAttributeVector, similar-products.server.ts);
 * - "image": the featured image through the image embedding port (MobileNetV2 + shape + colour,
 *   see app/providers/image-embedding/features.ts);
 * - "text": the search area's word-vector embedder (app/services/search/text-embedding.server.ts).
 * It stores them as ProductEmbedding rows (the source of truth) and upserts the vector index
 * namespaces of the same names with metadata target_gender. A product that is deleted or hidden
 * (not active, or unpublished) leaves every namespace; a scheduled product stays indexed (readers
 * filter by visibility, and it appears when its date comes).
 *
 * When it runs:
 * - after every product write through the commerce port (`withProductIndexing`, wired in
 *   app/context.server.ts), after catalogue syncs and product webhooks: one job per product
 *   (deduplicated while queued), run PRODUCT_INDEX_SETTLE_MS after the change so a burst of edits
 *   is indexed once;
 * - at start-up, `products.index` with `{scope: "stale"}`: products whose vectors are missing,
 *   of an older model or older than the product (the demo seed on first start, data written
 *   while no worker ran) are indexed, and an index that lost vectors (a new pgvector table,
 *   a switch of VECTOR_INDEX) is refilled from ProductEmbedding without running any model;
 * - at once, for one product, by POST /shopify/companion/sync-pinecone/{id} (`indexProduct`).
 *
 * Image vectors are cached per image URL and per image content (sha-256) in the process, so the
 * demo catalogue (640 products, ≈ 200 distinct renders) costs one model run per distinct image.
 */
import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import type { JobQueue } from "~/jobs/queue.server";
import type { Logger } from "~/lib/logger.server";
import type { CommercePort } from "~/providers/commerce/port";
import type { ImageEmbeddingPort } from "~/providers/image-embedding/port";
import { VECTOR_NAMESPACES, type VectorIndex, type VectorNamespace } from "~/providers/vector-index/port";
import { upsertProductEmbeddings } from "~/providers/vector-index/exact.server";
import { readImageUrl } from "~/lib/image-source.server";
import { ATTRIBUTES_KIND, syncAttributeVector } from "./similar-products.server";
import { textEmbedder } from "./search/text-embedding.server";
import { afterProductWrites } from "./commerce-write-hooks.server";

export const PRODUCT_INDEX_QUEUE = "products.index";
/** How long a change settles before its product is indexed (bursts of edits coalesce). */
export const PRODUCT_INDEX_SETTLE_MS = 30_000;
/** Products per batch of the start-up catch-up. */
const STALE_BATCH = 50;

type IndexCtx = Pick<AppContext, "db" | "log" | "vectors" | "imageEmbedding" | "storage" | "config">;

export const indexableSelect = {
  id: true,
  title: true,
  handle: true,
  vendor: true,
  productType: true,
  description: true,
  tags: true,
  target_gender: true,
  status: true,
  publishedAt: true,
  featuredImageUrl: true,
  updated_at: true,
} satisfies Prisma.ProductSelect;
export type IndexableProduct = Prisma.ProductGetPayload<{ select: typeof indexableSelect }>;

/**
 * One kind of product vector. `embed` answers null when the product has nothing to embed for this
 * kind (no featured image): its vector of that kind is then removed. The search area's text
 * embedder has this shape (`{kind, model, dimensions, embed(product)}`).
 */
export interface ProductEmbedder {
  kind: VectorNamespace;
  model: string;
  dimensions: number;
  embed(product: IndexableProduct): Promise<number[] | null>;
  /** The embedder stores its ProductEmbedding row itself (attributes: syncAttributeVector). */
  persists?: boolean;
}

/** Indexed: shown to shoppers now or later (scheduled). Hidden products leave the index. */
export const isIndexable = (p: Pick<IndexableProduct, "status" | "publishedAt">) => p.status === "active" && p.publishedAt !== null;

// ---------------------------------------------------------------------------------------------
// Embedders

export function attributesEmbedder(db: Db): ProductEmbedder {
  return {
    kind: "attributes",
    model: "attributes-v1",
    dimensions: 31,
    persists: true,
    async embed(p) {
      return (await syncAttributeVector(db, p.id))?.embedding ?? null;
    },
  };
}

class LruCache<V> {
  private map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(k: string): V | undefined {
    const v = this.map.get(k);
    if (v !== undefined) {
      this.map.delete(k);
      this.map.set(k, v);
    }
    return v;
  }
  set(k: string, v: V) {
    this.map.delete(k);
    this.map.set(k, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  get size() {
    return this.map.size;
  }
}

/** Image vectors by `model|url` and `model|sha256`, shared by every image embedder of the process. */
const imageCache = { byUrl: new LruCache<number[]>(4000), byContent: new LruCache<number[]>(4000), modelRuns: 0, hits: 0 };
export const imageCacheStats = () => ({ modelRuns: imageCache.modelRuns, hits: imageCache.hits, urls: imageCache.byUrl.size });

export function imageEmbedder(ctx: Pick<IndexCtx, "imageEmbedding" | "storage" | "config">): ProductEmbedder {
  const port: ImageEmbeddingPort = ctx.imageEmbedding;
  return {
    kind: "image",
    model: port.model,
    dimensions: port.dimensions,
    async embed(p) {
      if (!p.featuredImageUrl) return null;
      const urlKey = `${port.model}|${p.featuredImageUrl}`;
      const cached = imageCache.byUrl.get(urlKey);
      if (cached) {
        imageCache.hits++;
        return cached;
      }
      const bytes = await readImageUrl(ctx, p.featuredImageUrl);
      const contentKey = `${port.model}|${crypto.createHash("sha256").update(bytes).digest("hex")}`;
      let vector = imageCache.byContent.get(contentKey);
      if (vector) imageCache.hits++;
      else {
        vector = (await port.embed(bytes)).vector;
        imageCache.modelRuns++;
        imageCache.byContent.set(contentKey, vector);
      }
      imageCache.byUrl.set(urlKey, vector);
      return vector;
    },
  };
}

/** The embedders the job runs: attributes, image, and the search area's text embedder. */
export function defaultEmbedders(ctx: Pick<IndexCtx, "db" | "imageEmbedding" | "storage" | "config">): ProductEmbedder[] {
  return [attributesEmbedder(ctx.db), imageEmbedder(ctx), textEmbedder];
}

// ---------------------------------------------------------------------------------------------
// Indexing one product

export interface IndexOutcome {
  productId: string;
  /** "indexed", or why the product left the index. */
  status: "indexed" | "deleted" | "hidden";
  indexed: { kind: VectorNamespace; model: string; dimensions: number }[];
  /** Kinds not indexed this time, with the reason (no featured image, image unreadable, …). */
  skipped: { kind: VectorNamespace; reason: string }[];
  removedFrom: VectorNamespace[];
  index: string;
  ms: number;
}

async function removeEverywhere(vectors: VectorIndex, id: string, kinds: readonly VectorNamespace[] = VECTOR_NAMESPACES) {
  for (const ns of kinds) await vectors.remove(ns, [id]);
}

/**
 * Computes and stores a product's vectors and updates the index now. Re-runs (at most twice) when
 * the product changed while it was being indexed.
 */
export async function indexProduct(ctx: IndexCtx, productId: string, embedders: ProductEmbedder[] = defaultEmbedders(ctx)): Promise<IndexOutcome> {
  const started = performance.now();
  const index = ctx.vectors;
  for (let round = 0; ; round++) {
    const p = await ctx.db.product.findUnique({ where: { id: productId }, select: indexableSelect });
    const base = { productId, indexed: [] as IndexOutcome["indexed"], skipped: [] as IndexOutcome["skipped"], removedFrom: [] as VectorNamespace[] };
    if (!p || !isIndexable(p)) {
      const kinds = [...new Set([...VECTOR_NAMESPACES, ...embedders.map((e) => e.kind)])];
      await removeEverywhere(index, productId, kinds);
      return { ...base, status: p ? "hidden" : "deleted", removedFrom: kinds, index: await indexName(index), ms: Math.round(performance.now() - started) };
    }
    const out = { ...base, status: "indexed" as const };
    // The exact index is the ProductEmbedding table itself: the rows written here are its upsert.
    const rowsAreTheIndex = (await indexName(index)) === "exact";
    for (const e of embedders) {
      let values: number[] | null;
      try {
        values = await e.embed(p);
      } catch (err) {
        out.skipped.push({ kind: e.kind, reason: err instanceof Error ? err.message : String(err) });
        ctx.log.warn({ productId, kind: e.kind, err }, "product embedding failed; the previous vector is kept");
        continue;
      }
      if (!values) {
        await ctx.db.productEmbedding.deleteMany({ where: { product_id: productId, kind: e.kind } });
        await index.remove(e.kind, [productId]);
        out.removedFrom.push(e.kind);
        out.skipped.push({ kind: e.kind, reason: e.kind === "image" ? "The product has no featured image" : "Nothing to embed" });
        continue;
      }
      if (!e.persists) await upsertProductEmbeddings(ctx.db, e.kind, [{ productId, model: e.model, values }]);
      if (!rowsAreTheIndex) await index.upsert(e.kind, [{ id: productId, values, metadata: { target_gender: p.target_gender }, model: e.model }]);
      out.indexed.push({ kind: e.kind, model: e.model, dimensions: values.length });
    }
    await ctx.db.productCompanion.updateMany({ where: { shopify_product_id: productId }, data: { vector_synced_at: new Date() } });
    const now = await ctx.db.product.findUnique({ where: { id: productId }, select: { updated_at: true } });
    if (round < 2 && now && now.updated_at.getTime() !== p.updated_at.getTime()) continue;
    return { ...out, index: await indexName(index), ms: Math.round(performance.now() - started) };
  }
}

async function indexName(index: VectorIndex): Promise<string> {
  return (await index.resolve?.()) ?? index.name;
}

// ---------------------------------------------------------------------------------------------
// Enqueueing

/**
 * Asks for products to be (re)indexed after the settle delay. One job per product, deduplicated
 * while it waits; a failure to enqueue is logged, never thrown (the write it follows succeeded, and
 * the start-up catch-up indexes anything missed).
 */
export async function enqueueProductIndex(ctx: { queue: JobQueue; log?: Logger }, productIds: string[], opts: { delayMs?: number } = {}): Promise<void> {
  const runAt = new Date(Date.now() + (opts.delayMs ?? PRODUCT_INDEX_SETTLE_MS));
  for (const id of [...new Set(productIds)]) {
    try {
      await ctx.queue.enqueue(PRODUCT_INDEX_QUEUE, { productId: id }, { dedupeKey: `${PRODUCT_INDEX_QUEUE}:${id}`, runAt, maxAttempts: 3 });
    } catch (e) {
      ctx.log?.warn({ err: e, productId: id }, "could not enqueue products.index");
    }
  }
}

/**
 * Asks for the catch-up (stale or missing vectors, index refill). At start-up it waits a little
 * (`delayMs`), so the first pages after a start are served before the background work begins.
 */
export async function enqueueStaleProductIndex(ctx: { queue: JobQueue; log?: Logger }, opts: { delayMs?: number } = {}): Promise<void> {
  try {
    await ctx.queue.enqueue(PRODUCT_INDEX_QUEUE, { scope: "stale" }, { dedupeKey: `${PRODUCT_INDEX_QUEUE}:stale`, maxAttempts: 3, runAt: new Date(Date.now() + (opts.delayMs ?? 0)) });
  } catch (e) {
    ctx.log?.warn({ err: e }, "could not enqueue the products.index catch-up");
  }
}

/** Commerce writes that change what a product's vectors are made of (or whether it is shown). */
const PRODUCT_WRITES = [
  "updateProduct",
  "deleteProduct",
  "setProductStatus",
  "setTargetGender",
  "setVariantColorHex",
  "updateOptionValue",
  "deleteOptionValue",
  "reorderMedia",
  "addProductImage",
  "deleteProductMedia",
  "setVariantImage",
  "publishProduct",
  "unpublishProduct",
] as const;

/**
 * The commerce port, with a `products.index` job enqueued after each successful product write
 * (createProduct: for the id it answers; the others: their first argument, the product id).
 */
export function withProductIndexing(commerce: CommercePort, ctx: { queue: JobQueue; log?: Logger }): CommercePort {
  return afterProductWrites(commerce, PRODUCT_WRITES, (id) => enqueueProductIndex(ctx, [id]));
}

// ---------------------------------------------------------------------------------------------
// The job

export interface StaleOutcome {
  scope: "stale";
  indexed: number;
  refilled: Partial<Record<VectorNamespace, number>>;
  imageModelRuns: number;
  ms: number;
}

/** Ids of shown/scheduled products missing a current vector of one of the embedders' kinds. */
async function staleProductIds(db: Db, embedders: ProductEmbedder[], limit: number, after: string | null): Promise<string[]> {
  const image = embedders.find((e) => e.kind === "image");
  const others = embedders.filter((e) => e.kind !== "image");
  const conditions = others.map(
    (e) => `NOT EXISTS (SELECT 1 FROM product_embeddings e WHERE e.product_id = p.id AND e.kind = '${e.kind}' AND e.model = '${e.model.replace(/'/g, "''")}' AND e.updated_at >= p.updated_at)`,
  );
  if (image) {
    conditions.push(
      `(p."featuredImageUrl" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM product_embeddings e WHERE e.product_id = p.id AND e.kind = 'image' AND e.model = '${image.model.replace(/'/g, "''")}' AND e.updated_at >= p.updated_at))`,
    );
  }
  if (!conditions.length) return [];
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT p.id FROM products p
     WHERE p.status = 'active' AND p."publishedAt" IS NOT NULL AND ($1::text IS NULL OR p.id > $1::text) AND (${conditions.join(" OR ")})
     ORDER BY p.id LIMIT ${Math.max(1, Math.min(1000, limit))}`,
    after,
  );
  return rows.map((r) => r.id);
}

/**
 * The catch-up: index stale products (in batches, yielding between products so requests served
 * by the same process keep flowing), and refill a namespace whose index holds fewer vectors than
 * ProductEmbedding has rows (no model runs). Hidden products leave the index when the write that
 * hid them is indexed; readers filter by visibility in any case.
 */
export async function indexStaleProducts(ctx: IndexCtx, progress: (percent: number) => Promise<void> = async () => {}, embedders: ProductEmbedder[] = defaultEmbedders(ctx)): Promise<StaleOutcome> {
  const started = performance.now();
  const runsBefore = imageCache.modelRuns;
  const total = await ctx.db.product.count({ where: { status: "active", publishedAt: { not: null } } });
  let indexed = 0;
  let after: string | null = null;
  for (;;) {
    const ids = await staleProductIds(ctx.db, embedders, STALE_BATCH, after);
    if (!ids.length) break;
    for (const id of ids) {
      await indexProduct(ctx, id, embedders);
      indexed++;
      await new Promise((r) => setImmediate(r));
    }
    after = ids[ids.length - 1];
    await progress(Math.min(90, Math.round((indexed / Math.max(1, total)) * 90)));
  }

  // Refill: the index should hold every ProductEmbedding row of a shown/scheduled product.
  const refilled: StaleOutcome["refilled"] = {};
  for (const e of embedders) {
    const expected = await ctx.db.productEmbedding.count({ where: { kind: e.kind, model: e.model, product: { status: "active", publishedAt: { not: null } } } });
    if (!expected) continue;
    const held = await ctx.vectors.count(e.kind).catch(() => -1);
    if (held >= expected) continue;
    let done = 0;
    let cursor: string | undefined;
    for (;;) {
      const rows = await ctx.db.productEmbedding.findMany({
        where: { kind: e.kind, model: e.model, product: { status: "active", publishedAt: { not: null } }, ...(cursor ? { product_id: { gt: cursor } } : {}) },
        select: { product_id: true, embedding: true, model: true, product: { select: { target_gender: true } } },
        orderBy: { product_id: "asc" },
        take: 200,
      });
      if (!rows.length) break;
      await ctx.vectors.upsert(
        e.kind,
        rows.map((r) => ({ id: r.product_id, values: r.embedding, metadata: { target_gender: r.product.target_gender }, model: r.model })),
      );
      done += rows.length;
      cursor = rows[rows.length - 1].product_id;
    }
    refilled[e.kind] = done;
  }
  await progress(100);
  const outcome: StaleOutcome = { scope: "stale", indexed, refilled, imageModelRuns: imageCache.modelRuns - runsBefore, ms: Math.round(performance.now() - started) };
  ctx.log.info(outcome, "products.index catch-up finished");
  return outcome;
}

/** The `products.index` job: `{productId}`, `{productIds}` or `{scope: "stale"}`. */
export async function runProductIndexJob(ctx: IndexCtx, payload: unknown, progress: (percent: number) => Promise<void>): Promise<Prisma.InputJsonValue> {
  const p = (payload ?? {}) as { productId?: unknown; productIds?: unknown; scope?: unknown };
  if (p.scope === "stale") return { ...(await indexStaleProducts(ctx, progress)) };
  const ids = [...(typeof p.productId === "string" ? [p.productId] : []), ...(Array.isArray(p.productIds) ? p.productIds.filter((x): x is string => typeof x === "string") : [])];
  if (!ids.length) throw new Error("products.index needs productId, productIds or scope: \"stale\"");
  const embedders = defaultEmbedders(ctx);
  const results: IndexOutcome[] = [];
  for (const [i, id] of ids.entries()) {
    results.push(await indexProduct(ctx, id, embedders));
    if (ids.length > 1) await progress(Math.round(((i + 1) / ids.length) * 100));
  }
  return JSON.parse(JSON.stringify(ids.length === 1 ? results[0] : { results })) as Prisma.InputJsonValue;
}

// ---------------------------------------------------------------------------------------------
// POST /shopify/companion/sync-pinecone/{id}

/**
 * Re-indexes one product now, through the job's code, and answers what was indexed. The
 * attribute vector is stored in every case (a hidden product keeps it, as before this index
 * existed, but leaves the vector index). Null when the product does not exist.
 */
export async function syncProductVectors(ctx: IndexCtx, productId: string) {
  const outcome = await indexProduct(ctx, productId);
  if (outcome.status === "deleted") return null;
  const attributes = outcome.status === "indexed" ? null : await syncAttributeVector(ctx.db, productId);
  const row = await ctx.db.productEmbedding.findUnique({ where: { product_id_kind: { product_id: productId, kind: ATTRIBUTES_KIND } }, select: { model: true, dimensions: true } });
  const companion = await ctx.db.productCompanion.findUnique({ where: { shopify_product_id: productId }, select: { vector_synced_at: true } });
  const syncedAt = companion?.vector_synced_at ?? attributes?.vector_synced_at ?? new Date();
  return {
    productId,
    kind: "attributes" as const,
    model: row?.model ?? attributes?.model ?? "attributes-v1",
    dimensions: row?.dimensions ?? attributes?.dimensions ?? 0,
    vector_synced_at: syncedAt,
    status: outcome.status,
    index: outcome.index,
    indexed: outcome.indexed,
    skipped: outcome.skipped,
    removedFrom: outcome.removedFrom,
    ms: outcome.ms,
  };
}
