/**
 * Add-to-cart latency (issue 15: p95 ≤ 50 ms locally): POST /api/cart/lines through the API
 * handler the server mounts, in-process, on the embedded default's local Storefront (the demo
 * catalogue). Shoppers (guests, as on the storefront) each add a few different in-stock variants,
 * so the figures mix a shopper's first add (creates the cart) with adds to an existing cart and the
 * same variant added again; each is also reported apart.
 */
import type { AppContext } from "../../app/context.server";
import { visibleProductWhere } from "../../app/lib/visibility";
import { createGuest } from "../../app/services/users.server";
import { identityDeps } from "../../app/services/identity-deps.server";
import { addSummary, callApi, dist, errorText, fmt, printTable, type Dist } from "./report";

export const ADD_TO_CART_TARGET_MS = 50;

export async function runCartBenchmark(ctx: AppContext, opts: { adds: number; perShopper?: number; log: (line: string) => void }): Promise<void> {
  const { log } = opts;
  const perShopper = opts.perShopper ?? 5;
  const variants = await ctx.db.productVariant.findMany({
    where: { availableForSale: true, inventory_quantity: { gte: 10 }, product: visibleProductWhere() },
    select: { id: true },
    orderBy: { id: "asc" },
    take: 200,
  });
  if (variants.length < perShopper) {
    log(`not available: only ${variants.length} in-stock variants in the catalogue`);
    addSummary({ section: "cart", figure: "add-to-cart p95", value: "not available", target: `≤ ${ADD_TO_CART_TARGET_MS} ms` });
    return;
  }
  const times = { first: [] as number[], next: [] as number[], again: [] as number[] };
  // CPU time of this process per add (the embedded database runs in it too): on a busy shared
  // machine wall time mostly measures waiting for a core, CPU time what an add costs.
  const cpu: number[] = [];
  // A warm-up shopper: the first requests load code paths and the schema.
  const shoppers = Math.ceil(opts.adds / perShopper) + 1;
  let k = 0;
  for (let s = 0; s < shoppers; s++) {
    // Guests made directly: POST /api/users/guest is rate limited per address (the timed call is the add).
    const { token } = await createGuest(identityDeps(ctx));
    const mine: string[] = [];
    for (let i = 0; i < perShopper; i++) {
      // The last add of each shopper repeats a variant already in the cart.
      const again = i === perShopper - 1 && mine.length > 0;
      const variant = again ? mine[0] : variants[k++ % variants.length].id;
      mine.push(variant);
      const c0 = process.cpuUsage();
      const r = await callApi(ctx, { method: "POST", path: "/cart/lines", token, body: { merchandiseId: variant, quantity: 1 } });
      const c = process.cpuUsage(c0);
      if (r.status !== 200) throw new Error(`POST /api/cart/lines answered ${errorText(r)}`);
      if (s === 0) continue;
      cpu.push((c.user + c.system) / 1000);
      (i === 0 ? times.first : again ? times.again : times.next).push(r.ms);
    }
  }
  const all = dist([...times.first, ...times.next, ...times.again]);
  const row = (name: string, d: Dist) => [name, String(d.n), fmt(d.p50), fmt(d.p95), fmt(d.max)];
  printTable(
    ["POST /api/cart/lines", "n", "p50 ms", "p95 ms", "max ms"],
    [row("all adds", all), row("first add (creates the cart)", dist(times.first)), row("another variant", dist(times.next)), row("same variant again", dist(times.again)), row("all adds, CPU time", dist(cpu))],
  );
  const meets = all.p95 <= ADD_TO_CART_TARGET_MS;
  log(`add-to-cart p95 ${fmt(all.p95)} ms: ${meets ? "meets" : "does NOT meet"} the ${ADD_TO_CART_TARGET_MS} ms target`);
  addSummary({ section: "cart (embedded)", figure: "add-to-cart p50", value: `${fmt(all.p50)} ms` });
  addSummary({ section: "cart (embedded)", figure: "add-to-cart p95", value: `${fmt(all.p95)} ms`, target: `≤ ${ADD_TO_CART_TARGET_MS} ms`, ratio: all.p95 / ADD_TO_CART_TARGET_MS });
  addSummary({ section: "cart (embedded)", figure: "add-to-cart CPU time p95", value: `${fmt(dist(cpu).p95)} ms` });
}
