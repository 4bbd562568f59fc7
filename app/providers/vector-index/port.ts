/**
 * The vector index port: nearest-neighbour search over product vectors, one namespace per
 * embedding kind ("image", "text", "attributes"). Adapters: pgvector (PGlite in the embedded
 * default, or a managed PostgreSQL with the extension), Pinecone (REST), and an exact scan for
 * servers without pgvector. ProductEmbedding (Float[]) stays the source of truth; an index can be
 * rebuilt from it at any time.
 *
 * What an index holds: the vectors of products that shoppers can see or will see (active, and
 * published or scheduled). Callers still filter the matches through the visibility rule
 * (app/services/visibility.ts), because a scheduled product is indexed before its date comes.
 */
import type { TargetGender } from "~/contract/common";

export type VectorNamespace = "image" | "text" | "attributes";
export const VECTOR_NAMESPACES: readonly VectorNamespace[] = ["image", "text", "attributes"];

export interface VectorRecord {
  id: string; // product GID
  values: number[];
  metadata: { target_gender: TargetGender };
  /**
   * The embedding model (e.g. "mnv2-flatten1+lab-v1"). Optional; the exact adapter stores it in
   * ProductEmbedding.model, the others ignore it.
   */
  model?: string;
}

export interface VectorQuery {
  topK: number;
  /** Only products whose target_gender is one of these. */
  targetGenders?: TargetGender[];
  /** Leave these ids out (e.g. the source product of "similar"). */
  excludeIds?: string[];
}

export interface VectorMatch {
  id: string;
  /** Cosine similarity in [-1, 1], higher is closer. */
  score: number;
}

export type VectorIndexName = "pgvector" | "pinecone" | "exact";

export interface VectorIndex {
  /**
   * The adapter. With VECTOR_INDEX=auto the choice (pgvector when the database has the extension,
   * else exact) is made on first use: until then this reads "auto"; `resolve()` settles it.
   */
  readonly name: VectorIndexName | "auto";
  upsert(namespace: VectorNamespace, records: VectorRecord[]): Promise<void>;
  remove(namespace: VectorNamespace, ids: string[]): Promise<void>;
  query(namespace: VectorNamespace, vector: number[], q: VectorQuery): Promise<VectorMatch[]>;
  /** Number of vectors held in a namespace (health, benchmarks). */
  count(namespace: VectorNamespace): Promise<number>;
  /** The adapter doing the work (resolves `auto`). */
  resolve?(): Promise<VectorIndexName>;
  /**
   * Gets the namespaces ready for queries (the exact scan reads its vectors into memory, seconds
   * for tens of thousands of products), so the first shopper query does not pay for it.
   */
  warm?(namespaces: VectorNamespace[]): Promise<void>;
}

/** A refusal or failure of the index service (Pinecone HTTP errors, a missing extension, …). */
export class VectorIndexError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "VectorIndexError";
  }
}
