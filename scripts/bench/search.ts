/**
 * Search benchmarks: relevance of POST /api/search on the labelled set (recall@10, MRR@10) and
 * server time of 200 mixed queries (plain, typo, prefix, filtered, parsed), in-process through
 * the handler the server mounts.
 */
import type { AppContext } from "../../app/context.server";
import type { BenchCatalog } from "./catalog";
import { aggregate, buildLabelledQueries, scoreQuery, type LabelledQuery, type QueryKind, type QueryScore } from "./relevance";
import { addSummary, callApi, dist, errorText, fmt, isMissingEndpoint, printTable } from "./report";

/** Product ids of a search answer, best first (`results[].id`, or `results[].product.id`). */
export function resultIds(json: unknown): string[] {
  const results = (json as { results?: unknown[] } | null)?.results;
  if (!Array.isArray(results)) return [];
  return results
    .map((r) => {
      const o = r as { id?: unknown; product?: { id?: unknown }; productId?: unknown };
      const id = o.id ?? o.product?.id ?? o.productId;
      return typeof id === "string" ? (/^\d+$/.test(id) ? `gid://shopify/Product/${id}` : id) : typeof id === "number" ? `gid://shopify/Product/${id}` : "";
    })
    .filter(Boolean);
}

export interface SearchBody {
  query: string;
  page?: number;
  limit?: number;
  filters?: Record<string, unknown>;
  sort?: string;
  skipAutoParsing?: boolean;
}

/** Filters of the "filtered" queries (the contract's `filters` of POST /search). */
export const FILTERED: { query: string; filters: Record<string, unknown> }[] = [
  { query: "shirt", filters: { target_gender: "menswear", colors: ["navy"] } },
  { query: "dress", filters: { priceMax: 150, sizes: ["M"] } },
  { query: "jeans", filters: { target_gender: "womenswear", priceMax: 120 } },
  { query: "sweater", filters: { priceMin: 100, materials: ["cashmere"] } },
  { query: "jacket", filters: { target_gender: "menswear", priceMin: 150, priceMax: 300, available: true } },
  { query: "linen", filters: { target_gender: "womenswear", productTypes: ["Dresses"] } },
  { query: "coat", filters: { priceMax: 300, colors: ["camel", "black"] } },
  { query: "t-shirt", filters: { target_gender: "menswear", priceMax: 40, sizes: ["L"] } },
  { query: "", filters: { productTypes: ["Knitwear"], target_gender: "womenswear" } },
  { query: "hoodie", filters: { available: true, colors: ["grey"] } },
];

export interface RelevanceFigures {
  n: number;
  recallAt10: number;
  mrrAt10: number;
  zeroResults: number;
  byKind: Record<string, { n: number; recallAt10: number; mrrAt10: number }>;
}

export type LatencyFigures = ReturnType<typeof dist> & { errors: number; byKind: Record<string, ReturnType<typeof dist>> };

export async function probeSearch(ctx: AppContext): Promise<string | null> {
  const r = await callApi(ctx, { method: "POST", path: "/search", body: { query: "shirt" } });
  if (isMissingEndpoint(r)) return "POST /api/search is not built yet";
  if (r.status !== 200) return `POST /api/search answered ${errorText(r)}`;
  return null;
}

export async function runRelevance(ctx: AppContext, catalog: BenchCatalog, log: (s: string) => void, verbose: boolean): Promise<RelevanceFigures | { unavailable: string }> {
  const missing = await probeSearch(ctx);
  if (missing) return { unavailable: missing };
  const { queries, dropped } = buildLabelledQueries(catalog.facts);
  log(`labelled set: ${queries.length} queries${dropped.length ? ` (${dropped.length} without a relevant product at this size, left out: ${dropped.join("; ")})` : ""}`);
  const scores: QueryScore[] = [];
  for (const lq of queries) {
    const r = await callApi(ctx, { method: "POST", path: "/search", body: { query: lq.q, page: 1, limit: 20 } });
    if (r.status !== 200) log(`  "${lq.q}" answered ${errorText(r)}`);
    scores.push(scoreQuery(lq, r.status === 200 ? resultIds(r.json) : []));
  }
  const all = aggregate(scores);
  const kinds = [...new Set(queries.map((q) => q.kind))];
  const byKind: Record<string, { n: number; recallAt10: number; mrrAt10: number }> = {};
  for (const k of kinds) byKind[k] = aggregate(scores.filter((s) => s.kind === k));
  printTable(
    ["kind", "queries", "recall@10", "MRR@10"],
    [...kinds.map((k) => [k, String(byKind[k].n), byKind[k].recallAt10.toFixed(3), byKind[k].mrrAt10.toFixed(3)]), ["all", String(all.n), all.recallAt10.toFixed(3), all.mrrAt10.toFixed(3)]],
  );
  if (all.zeroResults) log(`queries with no result at all: ${all.zeroResults} (${scores.filter((s) => s.returned === 0).map((s) => `"${s.q}"`).join(", ")})`);
  const worst = [...scores].sort((a, b) => a.recallAt10 - b.recallAt10 || a.rrAt10 - b.rrAt10).slice(0, verbose ? scores.length : 8);
  log(verbose ? "every query:" : "weakest queries:");
  printTable(
    ["query", "kind", "relevant", "returned", "hits@10", "recall@10", "RR@10"],
    worst.map((s) => [s.q, s.kind, String(s.relevantCount), String(s.returned), String(s.hitsAt10), s.recallAt10.toFixed(2), s.rrAt10.toFixed(2)]),
    ["l", "l"],
  );
  addSummary({ section: "search relevance", figure: `recall@10 (${all.n} labelled queries)`, value: all.recallAt10.toFixed(3) });
  addSummary({ section: "search relevance", figure: "MRR@10", value: all.mrrAt10.toFixed(3) });
  return { ...all, byKind };
}

/** 200 mixed queries: plain, typo, prefix, filtered and parsed, interleaved. */
export function mixedQueries(queries: LabelledQuery[], count: number): { kind: string; body: SearchBody }[] {
  const of = (k: QueryKind[]) => queries.filter((q) => k.includes(q.kind)).map((q) => q.q);
  const pools: [string, SearchBody[]][] = [
    ["plain", of(["plain", "synonym", "pattern", "fit", "store"]).map((query) => ({ query, page: 1, limit: 20 }))],
    ["typo", of(["typo"]).map((query) => ({ query, page: 1, limit: 20 }))],
    ["prefix", of(["prefix"]).map((query) => ({ query, page: 1, limit: 20 }))],
    ["filtered", FILTERED.map(({ query, filters }) => ({ query, filters, page: 1, limit: 20 }))],
    ["parsed", of(["parsed", "gendered"]).map((query) => ({ query, page: 1, limit: 20 }))],
  ];
  // Weights of the mix: plain 35 %, typo 20 %, prefix 10 %, filtered 15 %, parsed 20 %.
  const weights = [7, 4, 2, 3, 4];
  const out: { kind: string; body: SearchBody }[] = [];
  const next = pools.map(() => 0);
  let i = 0;
  while (out.length < count) {
    const slot = i++ % 20;
    let acc = 0;
    const p = weights.findIndex((w) => slot < (acc += w));
    const [kind, pool] = pools[p];
    if (pool.length === 0) continue;
    out.push({ kind, body: pool[next[p]++ % pool.length] });
  }
  return out;
}

export async function runSearchLatency(ctx: AppContext, catalog: BenchCatalog, count: number, log: (s: string) => void, verbose = false): Promise<LatencyFigures | { unavailable: string }> {
  const missing = await probeSearch(ctx);
  if (missing) return { unavailable: missing };
  const { queries } = buildLabelledQueries(catalog.facts);
  const mix = mixedQueries(queries, count);
  // Warm-up: first calls load models, word vectors and caches.
  for (const m of mix.slice(0, 20)) await callApi(ctx, { method: "POST", path: "/search", body: m.body });
  const times: number[] = [];
  const byKind = new Map<string, number[]>();
  const slowest: { ms: number; kind: string; body: SearchBody }[] = [];
  let errors = 0;
  for (const m of mix) {
    const r = await callApi(ctx, { method: "POST", path: "/search", body: m.body });
    if (r.status !== 200) {
      errors++;
      if (errors <= 3) log(`  ${JSON.stringify(m.body)} answered ${errorText(r)}`);
      continue;
    }
    times.push(r.ms);
    slowest.push({ ms: r.ms, kind: m.kind, body: m.body });
    (byKind.get(m.kind) ?? byKind.set(m.kind, []).get(m.kind)!).push(r.ms);
  }
  const d = dist(times);
  const kinds = Object.fromEntries([...byKind].map(([k, v]) => [k, dist(v)]));
  printTable(
    ["queries", "n", "p50 ms", "p95 ms", "max ms"],
    [...Object.entries(kinds).map(([k, v]) => [k, String(v.n), fmt(v.p50), fmt(v.p95), fmt(v.max)]), ["all", String(d.n), fmt(d.p50), fmt(d.p95), fmt(d.max)]],
  );
  if (errors) log(`errors: ${errors} of ${mix.length}`);
  if (verbose) {
    log("slowest queries:");
    printTable(
      ["ms", "kind", "body"],
      slowest.sort((a, b) => b.ms - a.ms).slice(0, 12).map((x) => [fmt(x.ms), x.kind, JSON.stringify({ query: x.body.query, filters: x.body.filters })]),
      ["r", "l", "l"],
    );
  }
  addSummary({ section: "search", figure: `p50 server time (${d.n} mixed queries)`, value: `${fmt(d.p50)} ms` });
  addSummary({ section: "search", figure: "p95 server time", value: `${fmt(d.p95)} ms`, target: "< 30 ms", ratio: d.p95 / 30 });
  if (errors) addSummary({ section: "search", figure: "errors", value: String(errors) });
  return { ...d, errors, byKind: kinds };
}
