/**
 * The `import` benchmark: Taobao items imported end to end on the local source — fetch, map,
 * images (rendered by the local source, checked, normalised, de-duplicated, stored), translation,
 * product creation through the local commerce adapter, companion, proposed variant images — by N
 * workers sharing the PostgreSQL job queue, as in production. Each run imports new items (its own
 * item ids) into a fresh store, so every run creates products and renders its images cold.
 *
 * Figures: the time the local source alone needs to render the images (a real source downloads
 * them instead), then per worker count: wall time, items per minute, per-item time (p50/p95, from
 * the job results), CPU time of the process, and its peak memory (RSS and heap, sampled every 50 ms).
 * Target (issue "Taobao import"): 100 items in under a minute on 2 cores.
 */
import os from "node:os";
import { boot } from "../../app/boot.server";
import { startWorker } from "../../app/jobs/worker.server";
import { jobHandlers } from "../../app/jobs/handlers.server";
import { createLocalTaobao } from "../../app/providers/taobao/local.server";
import { submitImport, TAOBAO_IMPORT_QUEUE } from "../../app/services/taobao-import/jobs.server";
import { buildTaobaoDemoCatalogue } from "../../prisma/demo/taobao/catalogue";
import { createBenchDatabase, dropStaleBenchDatabases, onCleanup, serverReachable, tempDir, BENCH_SERVER_URL } from "./database";
import { addSummary, pct, printTable } from "./report";
import { benchEnv } from "./setup";

const TARGET_SECONDS = 60;

export interface ImportBenchOptions {
  items: number;
  workers: number[];
  log: (line: string) => void;
}

export async function runImportBenchmark(opts: ImportBenchOptions): Promise<void> {
  const unreachable = await serverReachable();
  if (unreachable) {
    opts.log(`not available: PostgreSQL at ${BENCH_SERVER_URL.replace(/\/\/[^@]*@/, "//")} cannot be reached (${unreachable}); set BENCH_DATABASE_URL`);
    addSummary({ section: "import", figure: `${opts.items} items`, value: "not available" });
    return;
  }
  const stale = await dropStaleBenchDatabases();
  if (stale.length) opts.log(`dropped ${stale.length} database(s) left by killed runs`);
  const { name, url } = await createBenchDatabase();
  const dataDir = tempDir("import");
  const booted = await boot({ env: { ...benchEnv(url, dataDir), DB_POOL_MAX: String(Math.max(8, Math.max(...opts.workers) * 3)) }, seed: false });
  onCleanup(() => booted.shutdown());
  const ctx = booted.ctx;
  opts.log(`database ${name}; ${os.cpus().length} CPU(s); libuv thread pool ${process.env.UV_THREADPOOL_SIZE ?? 4}; images rendered by the local source, stored under ${dataDir}/uploads/images/taobao`);

  // What the local source costs by itself: rendering every image of a catalogue of the same size
  // (a real source downloads them instead). Each run below renders its own images again, cold.
  {
    const probe = createLocalTaobao({ catalogue: buildTaobaoDemoCatalogue({ count: opts.items, broken: false, seed: 99, idBase: 740_000_000_000 }) });
    const urls = [...new Set(Object.entries(probe.catalogue.images).filter(([, spec]) => spec.kind === "garment" || spec.kind === "chart").map(([u]) => u))];
    const t = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < urls.length) await probe.fetchImage(urls[next++]);
    }));
    const ms = performance.now() - t;
    opts.log(`the local source alone renders the ${urls.length} images of ${opts.items} items in ${(ms / 1000).toFixed(1)} s (4 at a time; ${(ms / urls.length).toFixed(0)} ms per image): part of every run below`);
    addSummary({ section: "import", figure: `local source: render ${urls.length} images`, value: `${(ms / 1000).toFixed(1)} s` });
  }

  const vendor = await ctx.db.vendor.create({ data: { name: "Bench Vendor", handle: "bench-vendor" } });
  const rows: string[][] = [];
  for (const [run, workers] of opts.workers.entries()) {
    const store = await ctx.db.store.create({ data: { name: `Bench Store ${run + 1}`, handle: `bench-store-${run + 1}`, vendor_id: vendor.id, target_gender: "both" } });
    const catalogue = buildTaobaoDemoCatalogue({ count: opts.items, broken: false, seed: 11 + run, idBase: 730_000_000_000 + run * 10_000_000 });
    ctx.taobao = createLocalTaobao({ catalogue });

    const ids = catalogue.items.map((i) => String(i.num_iid));
    for (let i = 0; i < ids.length; i += 100) await submitImport(ctx, { taobao_product_id: ids.slice(i, i + 100), store_id: store.id });

    let peakRss = process.memoryUsage().rss;
    let peakHeap = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 50);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const pool = Array.from({ length: workers }, () => startWorker(ctx, { [TAOBAO_IMPORT_QUEUE]: jobHandlers[TAOBAO_IMPORT_QUEUE] }, { autoStart: false }));
    await Promise.all(pool.map((w) => w.drain()));
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    clearInterval(sampler);

    const jobs = await ctx.db.importJob.findMany({ where: { store_id: store.id }, select: { status: true, error_message: true, result: true } });
    const ok = jobs.filter((j) => j.status === "completed");
    const failed = jobs.filter((j) => j.status !== "completed");
    const perItem = ok.map((j) => Number((j.result as { duration_ms?: number } | null)?.duration_ms ?? 0)).sort((a, b) => a - b);
    const products = await ctx.db.product.count({ where: { store_id: store.id } });
    const images = await ctx.db.productImage.count({ where: { product: { store_id: store.id } } });
    const proposals = await ctx.db.proposedVariantImage.count({ where: { product: { store_id: store.id } } });
    const perMinute = (ok.length / seconds) * 60;
    rows.push([
      String(workers),
      `${ok.length}/${ids.length}`,
      seconds.toFixed(1),
      perMinute.toFixed(0),
      (pct(perItem, 50) / 1000).toFixed(2),
      (pct(perItem, 95) / 1000).toFixed(2),
      `${cpuSeconds.toFixed(1)} (${(cpuSeconds / seconds).toFixed(2)} cores)`,
      `${(peakRss / 1024 / 1024).toFixed(0)} MB`,
      `${(peakHeap / 1024 / 1024).toFixed(0)} MB`,
    ]);
    opts.log(`${workers} worker(s): ${ok.length} of ${ids.length} items imported in ${seconds.toFixed(1)} s (${perMinute.toFixed(0)} items/min): ${products} products, ${images} product images, ${proposals} proposed variant images${failed.length ? `; ${failed.length} failed: ${[...new Set(failed.map((f) => f.error_message))].slice(0, 3).join(" | ")}` : ""}`);
    addSummary({
      section: "import",
      figure: `${ids.length} items, ${workers} worker${workers === 1 ? "" : "s"}`,
      value: `${seconds.toFixed(1)} s (${perMinute.toFixed(0)}/min)`,
      ...(ids.length === 100 ? { target: `< ${TARGET_SECONDS} s`, ratio: seconds / TARGET_SECONDS } : {}),
    });
    addSummary({ section: "import", figure: `peak memory, ${workers} worker${workers === 1 ? "" : "s"}`, value: `${(peakRss / 1024 / 1024).toFixed(0)} MB RSS` });
  }
  opts.log("");
  printTable(["workers", "imported", "wall s", "items/min", "p50 s/item", "p95 s/item", "CPU s (this process)", "peak RSS", "peak heap"], rows);
  opts.log("(per-item times overlap when workers run together; CPU s ÷ wall s = the cores this process used; each item already processes 4 images at a time, so on 2 cores more than 2 workers mostly add contention)");
}
