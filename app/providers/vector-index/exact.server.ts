/**
 * The exact vector index: a cosine scan in JavaScript over the ProductEmbedding rows of a kind
 * (the source of truth), for PostgreSQL servers without pgvector.
 *
 * Each namespace is cached in the process (rows normalised once, packed into one Float32Array per
 * dimension) with the products' target_gender. Before every query one cheap aggregate
 * (`count(*)` and `max(updated_at)` of the kind's rows: an index-only scan of (kind, updated_at),
 * ~1.5 ms on 20,000 rows) checks the cache, so a write by another
 * process (worker, second web process) is seen on the next query; after a change only the rows
 * updated since are read again, unless rows were deleted (then the namespace is read whole).
 *
 * upsert/remove write ProductEmbedding itself (the rows are the index). The products' current
 * target_gender is read with the rows: the metadata passed to upsert is not stored separately.
 */
import type { TargetGender } from "~/contract/common";
import type { Db } from "~/db.server";
import { normalised, pack, topKCosine, type PackedVectors } from "./math";
import type { VectorIndex, VectorMatch, VectorNamespace, VectorQuery, VectorRecord } from "./port";

/** Rows read per round trip. */
const LOAD_BATCH = 2000;

interface Row {
  values: Float32Array;
  gender: TargetGender;
}

interface NamespaceCache {
  count: number;
  /** max(updated_at) of the kind's rows, epoch ms. */
  maxUpdated: number;
  rows: Map<string, Row>;
  /** Packed per dimension, rebuilt on the first query after a change. */
  packed: Map<number, PackedVectors & { genders: TargetGender[] }> | null;
}

/**
 * Writes ProductEmbedding rows (insert or replace), one SQL statement per row, the vector sent as
 * an array literal in text: several times faster than Prisma's upsert (or an array parameter) for
 * long Float[] values. `model` null keeps the row's model.
 */
export async function upsertProductEmbeddings(db: Db, kind: string, rows: { productId: string; model: string | null; values: number[] }[]): Promise<void> {
  for (const r of rows) {
    const literal = `{${r.values.map((v) => (Number.isFinite(v) ? String(v) : "0")).join(",")}}`;
    await db.$executeRawUnsafe(
      `INSERT INTO product_embeddings (product_id, kind, model, dimensions, embedding, updated_at)
       VALUES ($1, $2, COALESCE($3, 'unknown'), $4, $5::text::double precision[], (now() AT TIME ZONE 'UTC'))
       ON CONFLICT (product_id, kind) DO UPDATE SET model = COALESCE($3, product_embeddings.model), dimensions = EXCLUDED.dimensions,
         embedding = EXCLUDED.embedding, updated_at = EXCLUDED.updated_at`,
      r.productId,
      kind,
      r.model,
      r.values.length,
      literal,
    );
  }
}

export function createExactVectorIndex(db: Db): VectorIndex & { stats(): { loads: number; fullLoads: number } } {
  const cache = new Map<VectorNamespace, NamespaceCache>();
  let loads = 0;
  let fullLoads = 0;

  /** Rows of a kind (all, or those updated at or after `sinceMs`), vectors normalised. */
  async function readRows(ns: VectorNamespace, sinceMs: number | null): Promise<[string, Row][]> {
    const out: [string, Row][] = [];
    let after = "";
    for (;;) {
      const batch = await db.$queryRawUnsafe<{ id: string; v: string; g: TargetGender }[]>(
        `SELECT e.product_id AS id, array_to_string(e.embedding, ',') AS v, p.target_gender::text AS g
         FROM product_embeddings e JOIN products p ON p.id = e.product_id
         WHERE e.kind = $1 AND e.product_id > $2 ${sinceMs === null ? "" : "AND e.updated_at >= (to_timestamp($3::double precision / 1000) AT TIME ZONE 'UTC')"}
         ORDER BY e.product_id LIMIT ${LOAD_BATCH}`,
        ...(sinceMs === null ? [ns, after] : [ns, after, sinceMs]),
      );
      for (const r of batch) {
        const values = normalised(r.v ? r.v.split(",").map(Number) : []);
        if (values) out.push([r.id, { values, gender: r.g }]);
      }
      if (batch.length < LOAD_BATCH) break;
      after = batch[batch.length - 1].id;
    }
    return out;
  }

  /**
   * The namespace, brought up to date: one aggregate per query; after a change, only the rows
   * updated since the last look are read, unless rows were deleted (then all of them).
   */
  async function load(ns: VectorNamespace): Promise<NamespaceCache> {
    const agg = await db.$queryRawUnsafe<{ n: number; m: number | null }[]>(
      `SELECT count(*)::int AS n, (extract(epoch from max(updated_at)) * 1000)::double precision AS m FROM product_embeddings WHERE kind = $1`,
      ns,
    );
    const count = Number(agg[0]?.n ?? 0);
    const maxUpdated = Number(agg[0]?.m ?? 0);
    let entry = cache.get(ns);
    if (entry && entry.count === count && entry.maxUpdated === maxUpdated) return entry;
    loads++;
    if (entry) {
      for (const [id, row] of await readRows(ns, entry.maxUpdated)) entry.rows.set(id, row);
      if (entry.rows.size !== count) entry = undefined; // rows were deleted: read them all
    }
    if (!entry) {
      fullLoads++;
      entry = { count, maxUpdated, rows: new Map(await readRows(ns, null)), packed: null };
    }
    entry.count = count;
    entry.maxUpdated = maxUpdated;
    entry.packed = null;
    cache.set(ns, entry);
    return entry;
  }

  function packed(entry: NamespaceCache, dims: number) {
    if (!entry.packed) {
      entry.packed = new Map();
      const byDims = new Map<number, { id: string; values: Float32Array; gender: TargetGender }[]>();
      for (const [id, r] of entry.rows) {
        const list = byDims.get(r.values.length) ?? [];
        list.push({ id, ...r });
        byDims.set(r.values.length, list);
      }
      for (const [d, list] of byDims) {
        const p = pack(list, d);
        const genderOf = new Map(list.map((r) => [r.id, r.gender]));
        entry.packed.set(d, { ...p, genders: p.ids.map((id) => genderOf.get(id)!) });
      }
    }
    return entry.packed.get(dims);
  }

  return {
    name: "exact",

    async upsert(ns: VectorNamespace, records: VectorRecord[]) {
      await upsertProductEmbeddings(db, ns, records.map((r) => ({ productId: r.id, model: r.model ?? null, values: r.values })));
    },

    async remove(ns: VectorNamespace, ids: string[]) {
      if (!ids.length) return;
      await db.productEmbedding.deleteMany({ where: { kind: ns, product_id: { in: ids } } });
    },

    async query(ns: VectorNamespace, vector: number[], q: VectorQuery): Promise<VectorMatch[]> {
      const query = normalised(vector);
      if (!query || q.topK <= 0) return [];
      const entry = await load(ns);
      const p = packed(entry, vector.length);
      if (!p) return [];
      const genders = q.targetGenders?.length ? new Set(q.targetGenders) : null;
      const excluded = q.excludeIds?.length ? new Set(q.excludeIds) : null;
      const best = topKCosine(p, query, q.topK, (row) => (!genders || genders.has(p.genders[row])) && (!excluded || !excluded.has(p.ids[row])));
      return best.map((b) => ({ id: p.ids[b.row], score: b.score }));
    },

    async count(ns: VectorNamespace) {
      return db.productEmbedding.count({ where: { kind: ns } });
    },

    async resolve() {
      return "exact";
    },

    async warm(namespaces: VectorNamespace[]) {
      for (const ns of namespaces) await load(ns);
    },

    stats: () => ({ loads, fullLoads }),
  };
}
