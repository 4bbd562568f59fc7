/**
 * The Pinecone index, through the data-plane REST API of one serverless index
 * (PINECONE_INDEX_HOST, e.g. `https://products-abc123.svc.aped-4627-b74a.pinecone.io`):
 *   POST /vectors/upsert        {vectors: [{id, values, metadata}], namespace}
 *   POST /query                 {vector, topK, namespace, filter, includeMetadata}
 *   POST /vectors/delete        {ids, namespace}
 *   POST /describe_index_stats  {}
 * with the headers `Api-Key` and `X-Pinecone-API-Version`.
 *
 * One index serves every namespace ("image", "text", "attributes"), but a Pinecone index has one
 * dimension: vectors shorter than the index's dimension are padded with zeros, which leaves
 * cosine similarity unchanged. Create the index with metric `cosine` and a dimension at least as
 * large as the largest embedding (1524 for "image"; e.g. 1536).
 *
 * Requests are retried on 429 and 5xx (Retry-After honoured, else exponential backoff); other
 * errors become a VectorIndexError with Pinecone's message. `excludeIds` cannot be expressed as a
 * metadata filter, so the query asks for topK + excluded matches and drops them.
 */
import type { Logger } from "~/lib/logger.server";
import { VectorIndexError, type VectorIndex, type VectorMatch, type VectorNamespace, type VectorQuery, type VectorRecord } from "./port";

export const PINECONE_API_VERSION = "2025-04";

export interface PineconeOptions {
  apiKey: string;
  host: string;
  log?: Logger;
  /** Attempts per request (429 / 5xx / network errors). */
  maxAttempts?: number;
  /** First backoff delay; doubled on each retry. */
  backoffMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Pinecone's limits: 1000 vectors or 2 MB per upsert, 1000 ids per delete. */
const MAX_UPSERT_BYTES = 1_800_000;
const MAX_UPSERT_VECTORS = 1000;
const MAX_DELETE_IDS = 1000;
const MAX_TOP_K = 10_000;

export function normaliseHost(host: string): string {
  const h = host.trim().replace(/\/+$/, "");
  return /^https?:\/\//i.test(h) ? h : `https://${h}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createPineconeIndex(opts: PineconeOptions): VectorIndex {
  const base = normaliseHost(opts.host);
  const doFetch = opts.fetch ?? fetch;
  const maxAttempts = opts.maxAttempts ?? 5;
  const backoffMs = opts.backoffMs ?? 500;
  const timeoutMs = opts.timeoutMs ?? 20_000;
  let dimension: Promise<number> | null = null;

  async function call<T>(path: string, body: unknown): Promise<T> {
    let lastError: Error | null = null;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let res: Response;
      try {
        res = await doFetch(`${base}${path}`, {
          method: "POST",
          headers: {
            "Api-Key": opts.apiKey,
            "X-Pinecone-API-Version": PINECONE_API_VERSION,
            "Content-Type": "application/json",
            Accept: "application/json",
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        lastError = new VectorIndexError(`Pinecone ${path} could not be reached: ${(e as Error).message}`);
        if (attempt < maxAttempts) await sleep(backoffMs * 2 ** (attempt - 1));
        continue;
      }
      if (res.ok) {
        const text = await res.text();
        return (text ? JSON.parse(text) : {}) as T;
      }
      const text = await res.text().catch(() => "");
      let message = text.slice(0, 500);
      try {
        const j = JSON.parse(text) as { message?: string; error?: { message?: string; code?: string } };
        message = j.error?.message ?? j.message ?? message;
      } catch {
        /* plain text */
      }
      lastError = new VectorIndexError(`Pinecone ${path} answered ${res.status}: ${message || res.statusText}`, res.status);
      const retryable = res.status === 429 || res.status >= 500;
      if (!retryable || attempt === maxAttempts) throw lastError;
      const retryAfter = Number(res.headers.get("retry-after"));
      const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(30_000, retryAfter * 1000) : backoffMs * 2 ** (attempt - 1);
      opts.log?.warn({ path, status: res.status, attempt, waitMs: wait }, "pinecone request retried");
      await sleep(wait);
    }
    throw lastError ?? new VectorIndexError(`Pinecone ${path} failed`);
  }

  interface Stats {
    dimension?: number;
    namespaces?: Record<string, { vectorCount?: number }>;
  }

  function indexDimension(): Promise<number> {
    dimension ??= call<Stats>("/describe_index_stats", {})
      .then((s) => {
        if (!s.dimension || s.dimension <= 0) throw new VectorIndexError("Pinecone describe_index_stats did not report the index dimension");
        return s.dimension;
      })
      .catch((e: unknown) => {
        dimension = null;
        throw e;
      });
    return dimension;
  }

  async function fit(values: number[]): Promise<number[]> {
    const d = await indexDimension();
    if (values.length > d) throw new VectorIndexError(`A ${values.length}-dimensional vector does not fit the ${d}-dimensional Pinecone index: create the index with a dimension of at least ${values.length}`);
    return values.length === d ? values : [...values, ...new Array<number>(d - values.length).fill(0)];
  }

  return {
    name: "pinecone",

    async upsert(ns: VectorNamespace, records: VectorRecord[]) {
      let batch: unknown[] = [];
      let bytes = 0;
      const flush = async () => {
        if (!batch.length) return;
        await call("/vectors/upsert", { vectors: batch, namespace: ns });
        batch = [];
        bytes = 0;
      };
      for (const r of records) {
        const v = { id: r.id, values: await fit(r.values), metadata: { target_gender: r.metadata.target_gender } };
        const size = JSON.stringify(v).length;
        if (batch.length && (bytes + size > MAX_UPSERT_BYTES || batch.length >= MAX_UPSERT_VECTORS)) await flush();
        batch.push(v);
        bytes += size;
      }
      await flush();
    },

    async remove(ns: VectorNamespace, ids: string[]) {
      for (let i = 0; i < ids.length; i += MAX_DELETE_IDS) await call("/vectors/delete", { ids: ids.slice(i, i + MAX_DELETE_IDS), namespace: ns });
    },

    async query(ns: VectorNamespace, vector: number[], q: VectorQuery): Promise<VectorMatch[]> {
      if (q.topK <= 0) return [];
      const excluded = new Set(q.excludeIds ?? []);
      const topK = Math.min(MAX_TOP_K, q.topK + excluded.size);
      const body: Record<string, unknown> = { vector: await fit(vector), topK, namespace: ns, includeMetadata: true, includeValues: false };
      if (q.targetGenders?.length) body.filter = { target_gender: { $in: q.targetGenders } };
      const res = await call<{ matches?: { id: string; score?: number }[] }>("/query", body);
      return (res.matches ?? [])
        .filter((m) => !excluded.has(m.id))
        .slice(0, q.topK)
        .map((m) => ({ id: m.id, score: Number(m.score ?? 0) }));
    },

    async count(ns: VectorNamespace) {
      const s = await call<Stats>("/describe_index_stats", {});
      return s.namespaces?.[ns]?.vectorCount ?? 0;
    },

    async resolve() {
      return "pinecone";
    },
  };
}
