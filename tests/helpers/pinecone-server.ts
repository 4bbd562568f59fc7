/**
 * A local HTTP server that speaks Pinecone's data-plane REST API (the part the app uses) and
 * checks what it receives: the `Api-Key` and `X-Pinecone-API-Version` headers, JSON bodies of the
 * documented shapes, vector dimensions equal to the index's, topK within 1..10000, metadata
 * filters with `$in` / `$eq`. Wrong requests get Pinecone-style 400/401 errors, and every request
 * is recorded for assertions. `failNext` injects 429 / 5xx answers to exercise retries.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  status: number;
}

interface Vector {
  id: string;
  values: number[];
  metadata: Record<string, unknown>;
}

export interface FakePinecone {
  url: string;
  apiKey: string;
  dimension: number;
  requests: RecordedRequest[];
  namespaces: Map<string, Map<string, Vector>>;
  /** The next `count` requests answer `status` (with Retry-After when given). */
  failNext(status: number, count?: number, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

export const PINECONE_TEST_KEY = "pc-test-key-0123456789";

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

function matches(metadata: Record<string, unknown>, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([field, cond]) => {
    const v = metadata[field];
    if (cond && typeof cond === "object" && !Array.isArray(cond)) {
      const c = cond as Record<string, unknown>;
      if ("$in" in c) return Array.isArray(c.$in) && c.$in.includes(v);
      if ("$eq" in c) return v === c.$eq;
      if ("$nin" in c) return Array.isArray(c.$nin) && !c.$nin.includes(v);
      throw new Error(`unsupported filter operator in ${JSON.stringify(cond)}`);
    }
    return v === cond;
  });
}

const isNumberArray = (v: unknown, length: number) => Array.isArray(v) && v.length === length && v.every((x) => typeof x === "number" && Number.isFinite(x));

export async function startFakePinecone(opts: { dimension?: number; apiKey?: string } = {}): Promise<FakePinecone> {
  const dimension = opts.dimension ?? 1536;
  const apiKey = opts.apiKey ?? PINECONE_TEST_KEY;
  const namespaces = new Map<string, Map<string, Vector>>();
  const requests: RecordedRequest[] = [];
  const failures: { status: number; retryAfter?: number }[] = [];
  const ns = (name: unknown) => {
    const key = typeof name === "string" ? name : "";
    let m = namespaces.get(key);
    if (!m) namespaces.set(key, (m = new Map()));
    return m;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: any = null;
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        requests.push({ path: req.url ?? "", headers: req.headers, body, status });
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(payload));
      };
      const fail = (status: number, message: string) => send(status, { code: status, message, details: [] });
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        return fail(400, "Request body is not valid JSON");
      }
      if (req.method !== "POST") return fail(405, "Method not allowed");
      if (req.headers["api-key"] !== apiKey) return send(401, { error: { code: "UNAUTHENTICATED", message: "Invalid API Key" }, status: 401 });
      if (!req.headers["x-pinecone-api-version"] || !/^\d{4}-\d{2}$/.test(String(req.headers["x-pinecone-api-version"]))) {
        return fail(400, "Missing or malformed X-Pinecone-API-Version header");
      }
      if (!String(req.headers["content-type"] ?? "").includes("application/json")) return fail(415, "Content-Type must be application/json");
      const injected = failures.shift();
      if (injected) return send(injected.status, { code: injected.status, message: "injected failure" }, injected.retryAfter ? { "retry-after": String(injected.retryAfter) } : {});
      if (!body || typeof body !== "object") return fail(400, "Body must be a JSON object");

      switch (req.url) {
        case "/vectors/upsert": {
          if (!Array.isArray(body.vectors) || body.vectors.length === 0 || body.vectors.length > 1000) return fail(400, "vectors must be an array of 1 to 1000 vectors");
          if (typeof body.namespace !== "string") return fail(400, "namespace must be a string");
          for (const v of body.vectors) {
            if (typeof v.id !== "string" || !v.id) return fail(400, "vector id must be a non-empty string");
            if (!isNumberArray(v.values, dimension)) return fail(400, `Vector dimension ${Array.isArray(v.values) ? v.values.length : "?"} does not match the dimension of the index ${dimension}`);
            if (v.values.every((x: number) => x === 0)) return fail(400, "Dense vectors must contain at least one non-zero value");
            if (v.metadata !== undefined && (typeof v.metadata !== "object" || Array.isArray(v.metadata))) return fail(400, "metadata must be an object");
          }
          const m = ns(body.namespace);
          for (const v of body.vectors) m.set(v.id, { id: v.id, values: v.values, metadata: v.metadata ?? {} });
          return send(200, { upsertedCount: body.vectors.length });
        }
        case "/query": {
          if (!isNumberArray(body.vector, dimension)) return fail(400, `Query vector dimension does not match the dimension of the index ${dimension}`);
          if (!Number.isInteger(body.topK) || body.topK < 1 || body.topK > 10_000) return fail(400, "topK must be an integer between 1 and 10000");
          if (typeof body.namespace !== "string") return fail(400, "namespace must be a string");
          if (body.filter !== undefined && (typeof body.filter !== "object" || Array.isArray(body.filter))) return fail(400, "filter must be an object");
          let found: { id: string; score: number; metadata?: Record<string, unknown> }[];
          try {
            found = [...ns(body.namespace).values()]
              .filter((v) => !body.filter || matches(v.metadata, body.filter))
              .map((v) => ({ id: v.id, score: cosine(v.values, body.vector), ...(body.includeMetadata ? { metadata: v.metadata } : {}) }));
          } catch (e) {
            return fail(400, (e as Error).message);
          }
          found.sort((a, b) => b.score - a.score);
          return send(200, { matches: found.slice(0, body.topK), namespace: body.namespace, usage: { readUnits: 5 } });
        }
        case "/vectors/delete": {
          if (typeof body.namespace !== "string") return fail(400, "namespace must be a string");
          if (body.deleteAll) {
            ns(body.namespace).clear();
            return send(200, {});
          }
          if (!Array.isArray(body.ids) || body.ids.length === 0 || body.ids.length > 1000 || body.ids.some((i: unknown) => typeof i !== "string")) {
            return fail(400, "ids must be an array of 1 to 1000 strings");
          }
          const m = ns(body.namespace);
          for (const id of body.ids) m.delete(id);
          return send(200, {});
        }
        case "/describe_index_stats": {
          const counts = Object.fromEntries([...namespaces].filter(([, m]) => m.size > 0).map(([k, m]) => [k, { vectorCount: m.size }]));
          const total = Object.values(counts).reduce((s, c) => s + c.vectorCount, 0);
          return send(200, { namespaces: counts, dimension, indexFullness: 0, totalVectorCount: total, metric: "cosine", vectorType: "dense" });
        }
        default:
          return fail(404, `Not found: ${req.url}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    dimension,
    requests,
    namespaces,
    failNext(status, count = 1, retryAfterSeconds) {
      for (let i = 0; i < count; i++) failures.push({ status, retryAfter: retryAfterSeconds });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
