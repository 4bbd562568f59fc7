/**
 * The pgvector index: one side table per namespace, `vector_index_<namespace>`
 * (id → products.id ON DELETE CASCADE, target_gender, embedding vector(d)) with an HNSW index
 * on cosine distance.
 *
 * The extension and the tables are created lazily by this adapter, outside the Prisma
 * migrations: the same migrations must run on PostgreSQL servers without pgvector (the machines'
 * PostgreSQL 15), where VECTOR_INDEX=auto picks the exact adapter instead. The tables are derived
 * data: ProductEmbedding is the source of truth, and a dimension change (a new model) recreates
 * the namespace's table empty, to be filled again by the `products.index` job.
 *
 * Filtered queries use pgvector 0.8's iterative index scans (`hnsw.iterative_scan`), so a gender
 * filter still finds topK rows; older versions get a larger `hnsw.ef_search` instead.
 */
import type { Db } from "~/db.server";
import type { Logger } from "~/lib/logger.server";
import { normalised } from "./math";
import { VECTOR_NAMESPACES, VectorIndexError, type VectorIndex, type VectorMatch, type VectorNamespace, type VectorQuery, type VectorRecord } from "./port";

/** pgvector's HNSW limit for the `vector` type. */
const MAX_HNSW_DIMS = 2000;
const UPSERT_BATCH = 100;

export const tableOf = (ns: VectorNamespace) => {
  if (!VECTOR_NAMESPACES.includes(ns)) throw new VectorIndexError(`Unknown vector namespace ${String(ns)}`);
  return `vector_index_${ns}`;
};

/** A vector as pgvector's text input: `[0.1,0.2,…]`. */
const literal = (values: ArrayLike<number>) => `[${Array.from(values, (v) => (Number.isFinite(v) ? String(v) : "0")).join(",")}]`;

/** Whether the database can create the `vector` extension (or already has it). */
export async function pgvectorAvailable(db: Db): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<{ ok: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS ok`);
  return rows[0]?.ok === true;
}

export function createPgvectorIndex(db: Db, log?: Logger): VectorIndex {
  let ready: Promise<{ iterative: boolean }> | null = null;
  const dimsOf = new Map<VectorNamespace, number | null>();

  function ensureExtension() {
    ready ??= (async () => {
      if (!(await pgvectorAvailable(db))) {
        throw new VectorIndexError("The database has no pgvector extension (vector): set VECTOR_INDEX=auto or exact, or use a PostgreSQL server that ships pgvector");
      }
      await db.$executeRawUnsafe(`CREATE EXTENSION IF NOT EXISTS vector`);
      const v = await db.$queryRawUnsafe<{ v: string }[]>(`SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'`);
      const [major, minor] = (v[0]?.v ?? "0.0").split(".").map(Number);
      return { iterative: major > 0 || minor >= 8 };
    })().catch((e: unknown) => {
      ready = null;
      throw e;
    });
    return ready;
  }

  /** The namespace table's dimension, or null when the table does not exist. */
  async function tableDims(ns: VectorNamespace): Promise<number | null> {
    if (dimsOf.has(ns)) return dimsOf.get(ns)!;
    const rows = await db.$queryRawUnsafe<{ dims: number | null }[]>(
      `SELECT a.atttypmod AS dims FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attname = 'embedding' AND NOT a.attisdropped`,
      tableOf(ns),
    );
    const dims = rows[0]?.dims ?? null;
    dimsOf.set(ns, dims !== null && dims > 0 ? dims : null);
    return dimsOf.get(ns)!;
  }

  async function ensureTable(ns: VectorNamespace, dims: number) {
    await ensureExtension();
    const current = await tableDims(ns);
    if (current === dims) return;
    if (dims > MAX_HNSW_DIMS) throw new VectorIndexError(`${dims}-dimensional vectors exceed pgvector's HNSW limit of ${MAX_HNSW_DIMS}`);
    const table = tableOf(ns);
    if (current !== null) {
      log?.warn({ namespace: ns, from: current, to: dims }, "vector dimension changed: recreating the pgvector table (the products.index job refills it)");
      await db.$executeRawUnsafe(`DROP TABLE IF EXISTS ${table}`);
    }
    await db.$executeRawUnsafe(
      `CREATE TABLE IF NOT EXISTS ${table} (
        id text PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE,
        target_gender text NOT NULL,
        embedding vector(${dims}) NOT NULL,
        updated_at timestamp(3) NOT NULL DEFAULT (now() AT TIME ZONE 'UTC')
      )`,
    );
    await db.$executeRawUnsafe(`CREATE INDEX IF NOT EXISTS ${table}_hnsw ON ${table} USING hnsw (embedding vector_cosine_ops)`);
    await db.$executeRawUnsafe(`CREATE INDEX IF NOT EXISTS ${table}_gender ON ${table} (target_gender)`);
    dimsOf.set(ns, dims);
  }

  return {
    name: "pgvector",

    async upsert(ns, records: VectorRecord[]) {
      if (!records.length) return;
      const dims = records[0].values.length;
      if (records.some((r) => r.values.length !== dims)) throw new VectorIndexError(`Vectors of one upsert must have one dimension (namespace ${ns})`);
      await ensureTable(ns, dims);
      const table = tableOf(ns);
      for (let i = 0; i < records.length; i += UPSERT_BATCH) {
        const batch = records.slice(i, i + UPSERT_BATCH);
        const params: string[] = [];
        const rows = batch.map((r) => {
          params.push(r.id, r.metadata.target_gender, literal(r.values));
          const n = params.length;
          return `($${n - 2}, $${n - 1}, $${n}::vector)`;
        });
        await db.$executeRawUnsafe(
          `INSERT INTO ${table} (id, target_gender, embedding) VALUES ${rows.join(", ")}
           ON CONFLICT (id) DO UPDATE SET target_gender = EXCLUDED.target_gender, embedding = EXCLUDED.embedding, updated_at = (now() AT TIME ZONE 'UTC')`,
          ...params,
        );
      }
    },

    async remove(ns, ids) {
      if (!ids.length) return;
      await ensureExtension();
      if ((await tableDims(ns)) === null) return;
      await db.$executeRawUnsafe(`DELETE FROM ${tableOf(ns)} WHERE id = ANY($1::text[])`, ids);
    },

    async query(ns, vector, q: VectorQuery): Promise<VectorMatch[]> {
      if (q.topK <= 0 || !normalised(vector)) return [];
      const { iterative } = await ensureExtension();
      const dims = await tableDims(ns);
      if (dims === null) return [];
      if (dims !== vector.length) throw new VectorIndexError(`The ${ns} index holds ${dims}-dimensional vectors; the query has ${vector.length}`);
      const genders = q.targetGenders?.length ? q.targetGenders : null;
      const excluded = q.excludeIds ?? [];
      const limit = Math.min(10_000, q.topK);
      const sql = `SELECT id, 1 - (embedding <=> $1::vector) AS score FROM ${tableOf(ns)}
        WHERE ($2::text[] IS NULL OR target_gender = ANY($2::text[])) AND NOT (id = ANY($3::text[]))
        ORDER BY embedding <=> $1::vector LIMIT ${limit}`;
      const efSearch = Math.min(1000, Math.max(40, limit * (genders || excluded.length ? 4 : 2)));
      const rows = await db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL hnsw.ef_search = ${efSearch}`);
        if (iterative) await tx.$executeRawUnsafe(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
        return tx.$queryRawUnsafe<{ id: string; score: number }[]>(sql, literal(vector), genders, excluded);
      });
      // relaxed_order may hand rows slightly out of order: sort by the exact distance.
      return rows.map((r) => ({ id: r.id, score: Number(r.score) })).sort((a, b) => b.score - a.score);
    },

    async count(ns) {
      await ensureExtension();
      if ((await tableDims(ns)) === null) return 0;
      const rows = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${tableOf(ns)}`);
      return rows[0]?.n ?? 0;
    },

    async resolve() {
      await ensureExtension();
      return "pgvector";
    },
  };
}
