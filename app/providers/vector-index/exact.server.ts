/**
 * The exact vector index: a cosine scan in JavaScript over the ProductEmbedding rows of a kind
 * (the source of truth), for PostgreSQL servers without pgvector.
 *
 * Each namespace is cached in the process as one packed Float32Array (rows normalised once) with
 * the products' target_gender. The cache is checked before every query with one cheap aggregate
 * (`count(*)` and `max(updated_at)` of the kind's rows, index `product_embeddings_kind_idx`), so a
 * write by another process (worker, second web process) is seen on the next query. Writes through
 * this adapter also drop the cache at once.
 *
 * upsert/remove write ProductEmbedding itself (the rows are the index). The products' current
 * target_gender is read with the rows: the metadata passed to upsert is not stored separately.
 */
import type { TargetGender } from "~/contract/common";
import type { Db } from "~/db.server";
import { normalised, pack, topKCosine, type PackedVectors } from "./math";
import type { VectorIndex, VectorMatch, VectorNamespace, VectorQuery, VectorRecord } from "./port";

interface NamespaceCache {
  key: string;
  byDims: Map<number, PackedVectors & { genders: TargetGender[] }>;
}

/** Rows read per round trip when the cache is (re)built. */
const LOAD_BATCH = 2000;

/**
 * Writes ProductEmbedding rows (insert or replace), in one SQL statement per row: several times
 * faster than Prisma's upsert for long Float[] values. `model` null keeps the row's model.
 */
export async function upsertProductEmbeddings(db: Db, kind: string, rows: { productId: string; model: string | null; values: number[] }[]): Promise<void> {
  for (const r of rows) {
    const values = r.values.map((v) => (Number.isFinite(v) ? Number(v) : 0));
    await db.$executeRawUnsafe(
      `INSERT INTO product_embeddings (product_id, kind, model, dimensions, embedding, updated_at)
       VALUES ($1, $2, COALESCE($3, 'unknown'), $4, $5::double precision[], (now() AT TIME ZONE 'UTC'))
       ON CONFLICT (product_id, kind) DO UPDATE SET model = COALESCE($3, product_embeddings.model), dimensions = EXCLUDED.dimensions,
         embedding = EXCLUDED.embedding, updated_at = EXCLUDED.updated_at`,
      r.productId,
      kind,
      r.model,
      values.length,
      values,
    );
  }
}

export function createExactVectorIndex(db: Db): VectorIndex & { stats(): { loads: number } } {
  const cache = new Map<VectorNamespace, NamespaceCache>();
  let loads = 0;

  async function versionKey(ns: VectorNamespace): Promise<string> {
    const agg = await db.productEmbedding.aggregate({ where: { kind: ns }, _count: { _all: true }, _max: { updated_at: true } });
    return `${agg._count._all}:${agg._max.updated_at?.getTime() ?? 0}`;
  }

  async function load(ns: VectorNamespace): Promise<NamespaceCache> {
    const key = await versionKey(ns);
    const hit = cache.get(ns);
    if (hit && hit.key === key) return hit;
    loads++;
    const rows: { id: string; values: number[]; gender: TargetGender }[] = [];
    let after: string | undefined;
    for (;;) {
      const batch = await db.productEmbedding.findMany({
        where: { kind: ns, ...(after ? { product_id: { gt: after } } : {}) },
        select: { product_id: true, embedding: true, product: { select: { target_gender: true } } },
        orderBy: { product_id: "asc" },
        take: LOAD_BATCH,
      });
      for (const r of batch) rows.push({ id: r.product_id, values: r.embedding, gender: r.product.target_gender });
      if (batch.length < LOAD_BATCH) break;
      after = batch[batch.length - 1].product_id;
    }
    const byDims = new Map<number, PackedVectors & { genders: TargetGender[] }>();
    const dims = new Set(rows.map((r) => r.values.length));
    for (const d of dims) {
      const subset = rows.filter((r) => r.values.length === d);
      const packed = pack(subset, d);
      const genderOf = new Map(subset.map((r) => [r.id, r.gender]));
      byDims.set(d, { ...packed, genders: packed.ids.map((id) => genderOf.get(id)!) });
    }
    const entry = { key, byDims };
    cache.set(ns, entry);
    return entry;
  }

  return {
    name: "exact",

    async upsert(ns: VectorNamespace, records: VectorRecord[]) {
      await upsertProductEmbeddings(db, ns, records.map((r) => ({ productId: r.id, model: r.model ?? null, values: r.values })));
      if (records.length) cache.delete(ns);
    },

    async remove(ns: VectorNamespace, ids: string[]) {
      if (!ids.length) return;
      await db.productEmbedding.deleteMany({ where: { kind: ns, product_id: { in: ids } } });
      cache.delete(ns);
    },

    async query(ns: VectorNamespace, vector: number[], q: VectorQuery): Promise<VectorMatch[]> {
      const query = normalised(vector);
      if (!query || q.topK <= 0) return [];
      const packed = (await load(ns)).byDims.get(vector.length);
      if (!packed) return [];
      const genders = q.targetGenders?.length ? new Set(q.targetGenders) : null;
      const excluded = q.excludeIds?.length ? new Set(q.excludeIds) : null;
      const best = topKCosine(packed, query, q.topK, (row) => (!genders || genders.has(packed.genders[row])) && (!excluded || !excluded.has(packed.ids[row])));
      return best.map((b) => ({ id: packed.ids[b.row], score: b.score }));
    },

    async count(ns: VectorNamespace) {
      return db.productEmbedding.count({ where: { kind: ns } });
    },

    async resolve() {
      return "exact";
    },

    stats: () => ({ loads }),
  };
}
