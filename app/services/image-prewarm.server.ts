/**
 * Image variants made at upload and import (issue 20: "srcset with sizes made by sharp at
 * upload/import"): the image route makes a variant on its first request (./image-variants.server.ts),
 * so without this the first shopper to see a new product waits for sharp, once per width and
 * format. When our images are stored, an `images.prewarm` job makes the variants the pages ask for
 * beforehand, in the `media` worker lane (app/jobs/lanes.server.ts): the lowest priority, one job
 * and one encode at a time.
 *
 * - Product images (Taobao import, catalogue sync, a variant image approved, any product write
 *   that adds an image through the commerce port): the storefront's card and product page widths
 *   (storefront/src/lib/image-sizes.ts) in AVIF and WebP (the `<picture>` sources every current
 *   browser takes) and in the original's format (the `<img>` fallback), and the admin lists' 160 px
 *   WebP thumbnail.
 * - Internal media (the admin's media library): its 160 and 320 px WebP thumbnails.
 *
 * Only our own stored images (`/uploads/images/…`) are warmed: Shopify's CDN sizes its own.
 */
import { z } from "zod";
import type { Db } from "~/db.server";
import type { JobQueue } from "~/jobs/queue.server";
import type { Logger } from "~/lib/logger.server";
import { DomainError } from "~/lib/domain-errors";
import type { CommercePort } from "~/providers/commerce/port";
import { CARD_IMAGE_WIDTHS, MAIN_IMAGE_WIDTHS } from "../../storefront/src/lib/image-sizes";
import type { ImageVariants, WarmTarget } from "./image-variants.server";
import { afterProductWrites } from "./commerce-write-hooks.server";

export const IMAGE_PREWARM_QUEUE = "images.prewarm";

/** An import adds a product's images one by one: one run after the last of them. */
export const PREWARM_SETTLE_MS = 10_000;

/** The admin lists' product thumbnails (app/client/images.ts thumbnailUrl: 160 px WebP). */
export const ADMIN_THUMBNAIL_WIDTH = 160;
/** The media library's grid (app/routes/app.media.tsx) and the lists' thumbnails. */
const MEDIA_THUMBNAIL_WIDTHS = [ADMIN_THUMBNAIL_WIDTH, 320] as const;

const each = (widths: readonly number[], formats: readonly WarmTarget["fm"][]): WarmTarget[] =>
  [...new Set(widths)].sort((a, b) => a - b).flatMap((w) => formats.map((fm) => ({ w, fm })));

/** What each kind of image is warmed to. */
export const PREWARM_PROFILES = {
  product: [
    ...each([...CARD_IMAGE_WIDTHS, ...MAIN_IMAGE_WIDTHS], ["avif", "webp", "original"]),
    ...each([ADMIN_THUMBNAIL_WIDTH], ["webp"]),
  ],
  media: each(MEDIA_THUMBNAIL_WIDTHS, ["webp"]),
} as const satisfies Record<string, readonly WarmTarget[]>;
export type PrewarmProfile = keyof typeof PREWARM_PROFILES;

const PrewarmPayload = z.union([
  z.object({ productIds: z.array(z.string().min(1)).min(1).max(500) }),
  z.object({ urls: z.array(z.string().min(1)).min(1).max(100), profile: z.enum(["product", "media"]) }),
]);
export type PrewarmPayload = z.infer<typeof PrewarmPayload>;

export interface PrewarmEnqueueDeps {
  queue: Pick<JobQueue, "enqueue">;
  log?: Logger;
}

async function enqueue(deps: PrewarmEnqueueDeps, payload: PrewarmPayload, dedupeKey: string, delayMs: number): Promise<void> {
  try {
    await deps.queue.enqueue(IMAGE_PREWARM_QUEUE, payload, { dedupeKey, runAt: new Date(Date.now() + delayMs), maxAttempts: 3 });
  } catch (e) {
    // The variants are still made on first request: a failed enqueue costs a slower first view, nothing more.
    deps.log?.warn({ err: e, dedupeKey }, "could not enqueue images.prewarm");
  }
}

/** Warms the images of these products (read when the job runs), one job per product. */
export async function enqueueProductImagePrewarm(deps: PrewarmEnqueueDeps, productIds: readonly string[], opts: { delayMs?: number } = {}): Promise<void> {
  for (const id of new Set(productIds)) await enqueue(deps, { productIds: [id] }, `${IMAGE_PREWARM_QUEUE}:product:${id}`, opts.delayMs ?? PREWARM_SETTLE_MS);
}

/** Warms stored images named by URL (an upload), right away. */
export async function enqueueImagePrewarm(deps: PrewarmEnqueueDeps, urls: readonly string[], profile: PrewarmProfile): Promise<void> {
  if (!urls.length) return;
  await enqueue(deps, { urls: [...new Set(urls)], profile }, `${IMAGE_PREWARM_QUEUE}:${profile}:${[...new Set(urls)].sort().join("|")}`, 0);
}

/** Commerce writes that add a product image (createProduct aside). */
const IMAGE_WRITES = ["addProductImage", "setVariantImage"] as const;

/**
 * The commerce port, with the product's images warmed after each write that can bring new ones
 * (createProduct: for the id it answers; the others: their first argument, the product id).
 */
export function withImagePrewarm(commerce: CommercePort, deps: PrewarmEnqueueDeps): CommercePort {
  return afterProductWrites(commerce, IMAGE_WRITES, (id) => enqueueProductImagePrewarm(deps, [id]));
}

// ---------------------------------------------------------------------------------------------
// The job

export interface PrewarmDeps {
  db: Db;
  variants: Pick<ImageVariants, "warm">;
  /** The storage key of one of our own file URLs (`/uploads/images/x.jpg` → `images/x.jpg`), else null. */
  ownKey(url: string): string | null;
  log?: Logger;
}

export interface PrewarmOutcome {
  images: number;
  made: number;
  cached: number;
  /** Images that are gone or not readable: their variants stay lazy (the route answers 404/415). */
  skipped: number;
}

/** The image route's path (`<key>` of `images/<key>`) of each of our stored images among these URLs. */
function routePaths(urls: readonly string[], ownKey: PrewarmDeps["ownKey"]): string[] {
  const paths = urls.flatMap((u) => {
    const key = ownKey(u);
    return key?.startsWith("images/") ? [key.slice("images/".length)] : [];
  });
  return [...new Set(paths)];
}

async function productImageUrls(db: Db, productIds: readonly string[]): Promise<string[]> {
  const [products, images, variants] = await Promise.all([
    db.product.findMany({ where: { id: { in: [...productIds] } }, select: { featuredImageUrl: true } }),
    db.productImage.findMany({ where: { product_id: { in: [...productIds] } }, select: { url: true } }),
    db.productVariant.findMany({ where: { product_id: { in: [...productIds] }, image_url: { not: null } }, select: { image_url: true } }),
  ]);
  return [...products.map((p) => p.featuredImageUrl), ...images.map((i) => i.url), ...variants.map((v) => v.image_url)].filter((u): u is string => !!u);
}

export async function runImagePrewarm(deps: PrewarmDeps, payload: unknown): Promise<PrewarmOutcome> {
  const p = PrewarmPayload.parse(payload);
  const [urls, targets] = "productIds" in p ? [await productImageUrls(deps.db, p.productIds), PREWARM_PROFILES.product] : [p.urls, PREWARM_PROFILES[p.profile]];
  const out: PrewarmOutcome = { images: 0, made: 0, cached: 0, skipped: 0 };
  for (const path of routePaths(urls, deps.ownKey)) {
    try {
      const r = await deps.variants.warm(path, targets);
      out.images++;
      out.made += r.made;
      out.cached += r.cached;
    } catch (e) {
      // A deleted or unreadable file is not worth a retry; anything else (the disk) is.
      if (!(e instanceof DomainError)) throw e;
      out.skipped++;
      deps.log?.info({ path, reason: e.message }, "images.prewarm: image left to the route");
    }
    // Between images: requests served by the same process go first.
    await new Promise((r) => setImmediate(r));
  }
  return out;
}
