/**
 * Picks the vector index adapter from configuration (VECTOR_INDEX):
 * - `auto` (default): pgvector when the database offers the extension (the embedded PGlite does),
 *   else the exact scan over ProductEmbedding (e.g. a PostgreSQL 15 without pgvector). The check
 *   runs once, on first use;
 * - `pgvector`: pgvector, and an error on first use when the extension is missing;
 * - `exact`: the exact scan;
 * - `pinecone`: Pinecone (PINECONE_API_KEY and PINECONE_INDEX_HOST are checked by the config).
 */
import type { AppConfig } from "~/config.server";
import type { Db } from "~/db.server";
import type { Logger } from "~/lib/logger.server";
import { createExactVectorIndex } from "./exact.server";
import { createPgvectorIndex, pgvectorAvailable } from "./pgvector.server";
import { createPineconeIndex } from "./pinecone.server";
import type { VectorIndex, VectorIndexName } from "./port";

export type { VectorIndex, VectorNamespace, VectorRecord, VectorMatch, VectorQuery } from "./port";

export function createVectorIndex(config: Pick<AppConfig, "VECTOR_INDEX" | "PINECONE_API_KEY" | "PINECONE_INDEX_HOST">, db: Db, log?: Logger): VectorIndex {
  switch (config.VECTOR_INDEX) {
    case "exact":
      return createExactVectorIndex(db);
    case "pgvector":
      return createPgvectorIndex(db, log);
    case "pinecone":
      if (!config.PINECONE_API_KEY || !config.PINECONE_INDEX_HOST) throw new Error("VECTOR_INDEX=pinecone needs PINECONE_API_KEY and PINECONE_INDEX_HOST");
      return createPineconeIndex({ apiKey: config.PINECONE_API_KEY, host: config.PINECONE_INDEX_HOST, log });
    default:
      return createAutoVectorIndex(db, log);
  }
}

/** pgvector when available, else exact; decided on first use and then fixed for the process. */
export function createAutoVectorIndex(db: Db, log?: Logger): VectorIndex {
  let chosen: VectorIndex | null = null;
  let choosing: Promise<VectorIndex> | null = null;
  const pick = (): Promise<VectorIndex> => {
    if (chosen) return Promise.resolve(chosen);
    choosing ??= pgvectorAvailable(db)
      .then((ok) => {
        chosen = ok ? createPgvectorIndex(db, log) : createExactVectorIndex(db);
        log?.info({ adapter: chosen.name }, "vector index chosen (VECTOR_INDEX=auto)");
        return chosen;
      })
      .finally(() => {
        choosing = null;
      });
    return choosing;
  };
  return {
    get name() {
      return (chosen?.name ?? "auto") as VectorIndexName | "auto";
    },
    upsert: async (ns, records) => (await pick()).upsert(ns, records),
    remove: async (ns, ids) => (await pick()).remove(ns, ids),
    query: async (ns, vector, q) => (await pick()).query(ns, vector, q),
    count: async (ns) => (await pick()).count(ns),
    warm: async (namespaces) => (await pick()).warm?.(namespaces),
    async resolve() {
      const adapter = await pick();
      return (await adapter.resolve?.()) ?? (adapter.name as VectorIndexName);
    },
  };
}
