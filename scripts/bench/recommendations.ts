/**
 * Recommendations and feed pages: server time of each list (in-process, through the handler the
 * server mounts) on the benchmark catalogue, after the aggregates (popularity, viewed together,
 * bought together) are rebuilt from the generated view and purchase events by the app's own
 * rebuild (the `recommendations.rebuild` job's function).
 */
import { issueToken } from "../../app/services/tokens.server";
import type { DiscoverySetup } from "./setup";
import { addSummary, callApi, dist, errorText, fmt, isMissingEndpoint, printTable, type ApiCall } from "./report";

const TARGET_MS = 50;
const PER_LIST = 100;

interface ListResult {
  results?: unknown[];
  source?: string;
  pagination?: { cursor?: string | null; hasNextPage?: boolean };
}

async function rebuildAggregates(setup: DiscoverySetup, log: (s: string) => void): Promise<void> {
  let mod: { rebuildRecommendationAggregates?: (db: DiscoverySetup["booted"]["db"]) => Promise<unknown> } | null = null;
  try {
    mod = await import("../../app/services/recommendations/aggregates.server");
  } catch (e) {
    log(`aggregates: app/services/recommendations/aggregates.server.ts does not load (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!mod?.rebuildRecommendationAggregates) {
    log("aggregates: no rebuildRecommendationAggregates(): lists run on whatever the endpoints compute from the events");
    return;
  }
  const s = performance.now();
  const r = await mod.rebuildRecommendationAggregates(setup.booted.db);
  const ms = performance.now() - s;
  const views = setup.catalog.tables.find(([t]) => t === "product_view_events")![1].length;
  const purchases = setup.catalog.tables.find(([t]) => t === "product_purchase_events")![1].length;
  log(`aggregates rebuilt from ${views.toLocaleString("en")} views and ${purchases.toLocaleString("en")} purchase events in ${(ms / 1000).toFixed(1)} s: ${JSON.stringify(r)}`);
  addSummary({ section: "recommendations", figure: `aggregates rebuild (${(views + purchases).toLocaleString("en")} events)`, value: `${(ms / 1000).toFixed(1)} s` });
}

export async function runRecommendations(setup: DiscoverySetup, log: (s: string) => void): Promise<void> {
  const { ctx, db } = setup.booted;
  const probe = await callApi(ctx, { method: "GET", path: "/recommendations/most-viewed?limit=20" });
  if (isMissingEndpoint(probe)) {
    log("not available: the recommendation endpoints (GET /api/recommendations/…) are not built yet");
    addSummary({ section: "recommendations", figure: "p95 per list", value: "not available", target: `< ${TARGET_MS} ms` });
    return;
  }
  await rebuildAggregates(setup, log);

  const facts = setup.catalog.facts.filter((f) => f.visible);
  const popular = [...facts].sort((a, b) => b.popularity - a.popularity || a.n - b.n);
  // Products to ask about: half popular ones, half from the long tail (every 7th product).
  const subjects = [...popular.slice(0, PER_LIST / 2), ...facts.filter((_, i) => i % 7 === 3).slice(0, PER_LIST / 2)];
  const genders = [undefined, "menswear", "womenswear"] as const;
  const g = (i: number) => (genders[i % 3] ? `&target_gender=${genders[i % 3]}` : "");

  // Shoppers with history (every generated shopper has browsing sessions and orders: take 20).
  const shoppers = setup.catalog.shoppers.slice(0, 20);
  const tokens: string[] = [];
  for (const s of shoppers) tokens.push(await issueToken(db, s.id));
  const guest = await callApi(ctx, { method: "POST", path: "/users/guest" });
  const guestToken = (guest.json as { token?: string } | null)?.token;

  const lists: { name: string; calls: () => AsyncGenerator<ApiCall, void, ListResult | null> }[] = [
    {
      name: "for-you (20 shoppers with history, pages 1–3)",
      calls: async function* () {
        for (let i = 0; i < PER_LIST; i++) yield { method: "GET", path: `/recommendations/for-you?limit=20&page=${(Math.floor(i / 20) % 3) + 1}`, token: tokens[i % tokens.length] };
      },
    },
    {
      name: "for-you (new guest, cold start)",
      calls: async function* () {
        if (!guestToken) return;
        for (let i = 0; i < PER_LIST; i++) yield { method: "GET", path: `/recommendations/for-you?limit=20&page=${(i % 3) + 1}${g(i)}`, token: guestToken };
      },
    },
    {
      name: "random (20 seeds, pages 1–5 by cursor)",
      calls: async function* () {
        for (let s = 0; s < PER_LIST / 5; s++) {
          let cursor: string | null | undefined;
          for (let p = 0; p < 5; p++) {
            const res: ListResult | null = yield {
              method: "GET",
              path: cursor ? `/recommendations/random?limit=20&cursor=${encodeURIComponent(cursor)}` : `/recommendations/random?limit=20&seed=bench-session-${s}${g(s)}`,
            };
            cursor = res?.pagination?.cursor;
            if (!cursor) break;
          }
        }
      },
    },
    {
      name: "most-viewed (pages 1–5)",
      calls: async function* () {
        for (let i = 0; i < PER_LIST; i++) yield { method: "GET", path: `/recommendations/most-viewed?limit=20&page=${(i % 5) + 1}${g(Math.floor(i / 5))}` };
      },
    },
    {
      name: "best-sellers (pages 1–5)",
      calls: async function* () {
        for (let i = 0; i < PER_LIST; i++) yield { method: "GET", path: `/recommendations/best-sellers?limit=20&page=${(i % 5) + 1}${g(Math.floor(i / 5))}` };
      },
    },
    {
      name: "customers-also-viewed/{id}",
      calls: async function* () {
        for (let i = 0; i < subjects.length; i++) yield { method: "GET", path: `/recommendations/customers-also-viewed/${encodeURIComponent(subjects[i].id)}?limit=20` };
      },
    },
    {
      name: "frequently-bought-together/{id}",
      calls: async function* () {
        for (let i = 0; i < subjects.length; i++) yield { method: "GET", path: `/recommendations/frequently-bought-together/${encodeURIComponent(subjects[i].id)}?limit=20` };
      },
    },
  ];

  const rows: string[][] = [];
  for (const list of lists) {
    // Warm-up: 5 calls of the list, not counted.
    const warm = list.calls();
    let w = await warm.next();
    for (let i = 0; i < 5 && !w.done; i++) {
      const r = await callApi(ctx, w.value);
      w = await warm.next(r.status === 200 ? (r.json as ListResult) : null);
    }
    const times: number[] = [];
    const sources = new Map<string, number>();
    let errors = 0;
    let empty = 0;
    let sizes = 0;
    let firstError = "";
    const gen = list.calls();
    for (let step = await gen.next(); !step.done; ) {
      const r = await callApi(ctx, step.value);
      let body: ListResult | null = null;
      if (r.status === 200) {
        body = r.json as ListResult;
        times.push(r.ms);
        const n = body.results?.length ?? 0;
        sizes += n;
        if (n === 0) empty++;
        if (body.source) sources.set(body.source, (sources.get(body.source) ?? 0) + 1);
      } else {
        errors++;
        firstError ||= `${step.value.path}: ${errorText(r)}`;
      }
      step = await gen.next(body);
    }
    const d = dist(times);
    if (d.n === 0) {
      rows.push([list.name, "0", "—", "—", "—", "—", "—", String(errors), "not available"]);
      addSummary({ section: "recommendations", figure: `${list.name} p95`, value: "not available", target: `< ${TARGET_MS} ms` });
      if (firstError) log(`${list.name}: ${firstError}`);
      continue;
    }
    const src = [...sources].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(", ");
    rows.push([list.name, String(d.n), fmt(d.p50), fmt(d.p95), fmt(d.max), (sizes / d.n).toFixed(1), String(empty), String(errors), src]);
    if (firstError) log(`${list.name}: first error ${firstError}`);
    addSummary({ section: "recommendations", figure: `${list.name} p95`, value: `${fmt(d.p95)} ms`, target: `< ${TARGET_MS} ms`, ratio: d.p95 / TARGET_MS });
  }

  // The write path every product page calls.
  const viewTimes: number[] = [];
  let viewErrors = 0;
  for (let i = 0; i < PER_LIST; i++) {
    const r = await callApi(ctx, { method: "POST", path: "/users/view-product", body: { product_id: subjects[i % subjects.length].id }, token: tokens[i % tokens.length] });
    if (r.status === 201 || r.status === 200) viewTimes.push(r.ms);
    else viewErrors++;
  }
  if (viewTimes.length) {
    const d = dist(viewTimes);
    rows.push(["POST /users/view-product (write)", String(d.n), fmt(d.p50), fmt(d.p95), fmt(d.max), "", "", String(viewErrors), ""]);
    addSummary({ section: "recommendations", figure: "POST /users/view-product p95", value: `${fmt(d.p95)} ms` });
  }
  printTable(["list", "n", "p50 ms", "p95 ms", "max ms", "avg results", "empty", "errors", "source"], rows, ["l", "r", "r", "r", "r", "r", "r", "r", "l"]);
}
