/**
 * Product vectors of the benchmark catalogue (ProductEmbedding rows, the source of truth of the
 * vector index), computed with the app's own functions and model ids:
 * - "attributes": `attributeVector()` of app/services/similar-products.server.ts (exact);
 * - "text": the search's word-vector text embedder (app/services/search/text-embedding.server.ts)
 *   over each product's title, type and tags (exact);
 * - "image": SYNTHETIC. Embedding 20,000 product photos would take 30 to 100 minutes on two cores, and
 *   the catalogue's products share the ~190 demo renders anyway: each render is embedded for real
 *   with the app's image embedding adapter, and each product gets the vector of its featured
 *   render plus small deterministic noise (norm ≈ 0.1 before renormalising), so that products
 *   drawn with the same render are near but not identical neighbours.
 */
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { Random } from "../../prisma/demo/prng";
import { renderImages, DEMO_IMAGE_DIR, type ImageJob } from "../../prisma/demo/images.server";
import { COLOURS } from "../../prisma/demo/catalog-data";
import type { BenchCatalog, Row } from "./catalog";
import { insertRows } from "./insert";
import { dist, type Dist } from "./report";

/** What the vector loaders read of the bench's set-up (./setup.ts's DiscoverySetup has it; named here so the two do not import each other). */
export interface VectorSource {
  catalog: BenchCatalog;
  dataDir: string;
  demoImageJobs: ImageJob[];
}

const errMsg = (e: unknown) => (e instanceof Error ? e.message : String(e));

function productRows(setup: VectorSource): Row[] {
  return setup.catalog.tables.find(([t]) => t === "products")![1];
}

export async function insertAttributeVectors(client: pg.Client, setup: VectorSource): Promise<{ count: number; ms: number } | { unavailable: string }> {
  const s = performance.now();
  let mod: typeof import("../../app/services/similar-products.server");
  let colour: typeof import("../../app/services/color.server");
  try {
    mod = await import("../../app/services/similar-products.server");
    colour = await import("../../app/services/color.server");
  } catch (e) {
    return { unavailable: errMsg(e) };
  }
  const rows: Row[] = setup.catalog.facts.map((f) => {
    const embedding = mod.attributeVector({
      productType: f.type.productType,
      target_gender: f.gender,
      price: (f.priceMin + f.priceMax) / 2,
      colours: f.colours.map((c) => colour.hexToLab(COLOURS[c].hex)).filter((l): l is NonNullable<typeof l> => !!l),
    });
    return { product_id: f.id, kind: mod.ATTRIBUTES_KIND, model: mod.ATTRIBUTES_MODEL, dimensions: embedding.length, embedding, updated_at: setup.catalog.baseDate };
  });
  await insertRows(client, "product_embeddings", rows, 5000);
  return { count: rows.length, ms: performance.now() - s };
}

export async function insertTextVectors(client: pg.Client, setup: VectorSource): Promise<{ count: number; ms: number; model: string } | { unavailable: string }> {
  const s = performance.now();
  let embedder: import("../../app/services/search/text-embedding.server").TextEmbedder;
  try {
    embedder = (await import("../../app/services/search/text-embedding.server")).textEmbedder;
  } catch (e) {
    return { unavailable: errMsg(e) };
  }
  const rows: Row[] = [];
  for (const p of productRows(setup)) {
    const v = await embedder.embed({ title: p.title as string, productType: p.productType as string, tags: p.tags as string[] });
    if (!v) continue;
    rows.push({ product_id: p.id, kind: embedder.kind, model: embedder.model, dimensions: v.length, embedding: v.map((x) => Math.round(x * 1e6) / 1e6), updated_at: setup.catalog.baseDate });
  }
  if (rows.length === 0) return { unavailable: "the text embedder knows no word (word vectors missing?)" };
  await insertRows(client, "product_embeddings", rows, 2000);
  return { count: rows.length, ms: performance.now() - s, model: embedder.model };
}

export interface ImageVectorFigures {
  model: string;
  dimensions: number;
  warmupMs: number;
  renderMs: number;
  rendered: number;
  /** Real embedding time of each demo render (decode, foreground, model, features). */
  embed: Dist;
  embedModelMs: Dist;
  products: number;
  insertMs: number;
  /** Render file → its real vector (for the photo-search queries). */
  vectors: Map<string, number[]>;
}

/** Gaussian noise from the seeded PRNG (Box–Muller). */
function gaussian(rng: Random): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

export async function insertImageVectors(client: pg.Client, setup: VectorSource, log: (s: string) => void): Promise<ImageVectorFigures | { unavailable: string }> {
  let port: import("../../app/providers/image-embedding/port").ImageEmbeddingPort;
  try {
    port = (await import("../../app/providers/image-embedding/index.server")).createImageEmbedding();
  } catch (e) {
    return { unavailable: `the image embedding adapter does not load: ${errMsg(e)}` };
  }
  const uploads = path.join(setup.dataDir, "uploads");
  const r0 = performance.now();
  const files = new Set(setup.catalog.imageFiles);
  const render = await renderImages(uploads, setup.demoImageJobs.filter((j) => files.has(j.file)));
  const renderMs = performance.now() - r0;
  const w = await port.warmup();

  const vectors = new Map<string, number[]>();
  const times: number[] = [];
  const modelTimes: number[] = [];
  for (const file of setup.catalog.imageFiles) {
    const bytes = fs.readFileSync(path.join(uploads, DEMO_IMAGE_DIR, file));
    const s = performance.now();
    const e = await port.embed(new Uint8Array(bytes));
    times.push(performance.now() - s);
    modelTimes.push(e.timings.modelMs);
    vectors.set(file, e.vector);
  }
  log(`image vectors: ${vectors.size} demo renders embedded for real (model ${port.model}, ${port.dimensions} dimensions); catalogue vectors are those plus deterministic noise`);

  const i0 = performance.now();
  const dims = port.dimensions;
  const sigma = 0.1 / Math.sqrt(dims);
  let batch: Row[] = [];
  let count = 0;
  for (const f of setup.catalog.facts) {
    const base = vectors.get(f.imageFiles[0]);
    if (!base) continue;
    const rng = new Random(1_000_003 * f.n + 17);
    const v = base.map((x) => x + sigma * gaussian(rng));
    const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0)) || 1;
    batch.push({ product_id: f.id, kind: "image", model: port.model, dimensions: dims, embedding: v.map((x) => Math.round((x / norm) * 1e6) / 1e6), updated_at: setup.catalog.baseDate });
    if (batch.length === 500) {
      count += await insertRows(client, "product_embeddings", batch, 500);
      batch = [];
    }
  }
  count += await insertRows(client, "product_embeddings", batch, 500);
  return {
    model: port.model,
    dimensions: dims,
    warmupMs: w.ms,
    renderMs,
    rendered: render.rendered,
    embed: dist(times),
    embedModelMs: dist(modelTimes),
    products: count,
    insertMs: performance.now() - i0,
    vectors,
  };
}
