/**
 * The vector index port: nearest-neighbour search over product vectors, one namespace per
 * embedding kind ("image", "text", "attributes"). Adapters: pgvector (PGlite in the embedded
 * default, or a managed PostgreSQL with the extension), Pinecone (REST), and an exact scan for
 * servers without pgvector. ProductEmbedding (Float[]) stays the source of truth; an index can be
 * rebuilt from it at any time.
 */
import type { TargetGender } from "~/contract/common";

export type VectorNamespace = "image" | "text" | "attributes";

export interface VectorRecord {
  id: string; // product GID
  values: number[];
  metadata: { target_gender: TargetGender };
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

export interface VectorIndex {
  readonly name: "pgvector" | "pinecone" | "exact";
  upsert(namespace: VectorNamespace, records: VectorRecord[]): Promise<void>;
  remove(namespace: VectorNamespace, ids: string[]): Promise<void>;
  query(namespace: VectorNamespace, vector: number[], q: VectorQuery): Promise<VectorMatch[]>;
  /** Number of vectors held in a namespace (health, benchmarks). */
  count(namespace: VectorNamespace): Promise<number>;
}
