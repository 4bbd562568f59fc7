/**
 * Which products can be tried on, with what garment image and category; and the admin side of a
 * product's try-on preparation (flat image, mask, the companion's try-on flag).
 *
 * Garment image: the companion's flat image (the garment cut out on a plain background), else the
 * product's first image (by position), else its featured image. A product is eligible when it is
 * shown to shoppers (./visibility), its companion has try-on active, and it has a garment image.
 *
 * The flat image is made by the image-AI port (`generate-flux-product-shot` on a plain white
 * background) in the background. Its request is targeted at `{type: "tryon", id: "flat:<product>"}`
 * so the try-on hooks (./image-ai-hooks.server) store the result on the companion; try-on ids are
 * UUIDs, so the prefix cannot clash. The mask is derived from the flat image here, synchronously
 * (sharp: alpha channel when the image has one, else distance from the background colour).
 */
import sharp from "sharp";
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { conflictError as conflict, invalid as badRequest, isKnownError, notFoundError as notFound, unprocessableError as unprocessable } from "~/lib/domain-errors";
import type { TryOnCategory, TryOnProductState } from "~/contract/tryons";
import { Messages } from "~/contract/messages";
import { cardSelect, toProductCard } from "../catalog.server";
import { visibleProductWhere } from "~/lib/visibility";
import { readImageUrl, toDomainImageError } from "~/lib/image-source.server";
import { startImageAiRequest } from "../image-ai/requests.server";

export const PRODUCT_NOT_FOUND = "Product not found";
export const NOT_TRYON_ACTIVE = "This product is not available for try-on";
export const NO_GARMENT_IMAGE = "This product has no garment image for try-on: add a product image or a flat image first";
export const NO_FLAT_IMAGE = "This product has no flat image yet: process the flat image first";

/** Target ids of product-preparation requests (flat image), carried on the "tryon" image-AI target. */
export const FLAT_TARGET_PREFIX = "flat:";

const BOTTOMS = /\b(jeans?|trousers?|pants|shorts|skirts?|skorts?|leggings?|joggers?|chinos?|culottes?|sweatpants|cargos?)\b/i;
const ONE_PIECES = /\b(dress(es)?|jumpsuits?|rompers?|playsuits?|overalls?|dungarees?|gowns?|onesies?|bodysuits?|jumpers? dress)\b/i;

/** The port's garment category from the product type (then the title): bottoms, one-pieces, else tops. */
export function tryOnCategoryOf(p: { productType: string; title?: string | null }): TryOnCategory {
  for (const text of [p.productType, p.title ?? ""]) {
    if (!text) continue;
    if (ONE_PIECES.test(text)) return "one-pieces";
    if (BOTTOMS.test(text)) return "bottoms";
  }
  return "tops";
}

export const garmentSelect = {
  id: true,
  title: true,
  productType: true,
  featuredImageUrl: true,
  status: true,
  publishedAt: true,
  images: { select: { url: true }, orderBy: [{ position: "asc" }, { created_at: "asc" }], take: 1 },
  companion: { select: { id: true, tryon_active: true, flat_image_url: true, mask_image_url: true } },
} satisfies Prisma.ProductSelect;
export type GarmentRow = Prisma.ProductGetPayload<{ select: typeof garmentSelect }>;

/** The first product image (or the featured one): the source of a flat image, the garment image without one. */
export function productImageOf(p: Pick<GarmentRow, "images" | "featuredImageUrl">): string | null {
  return p.images[0]?.url ?? p.featuredImageUrl ?? null;
}

export function garmentImageOf(p: Pick<GarmentRow, "images" | "featuredImageUrl" | "companion">): string | null {
  return p.companion?.flat_image_url ?? productImageOf(p);
}

function stateOf(p: GarmentRow): TryOnProductState {
  return {
    product_id: p.id,
    tryon_active: p.companion?.tryon_active ?? false,
    flat_image_url: p.companion?.flat_image_url ?? null,
    mask_image_url: p.companion?.mask_image_url ?? null,
    garment_image_url: garmentImageOf(p),
    tryon_category: tryOnCategoryOf(p),
  };
}

async function loadGarment(db: Db, productId: string): Promise<GarmentRow> {
  const p = await db.product.findUnique({ where: { id: productId }, select: garmentSelect });
  if (!p) throw notFound(PRODUCT_NOT_FOUND);
  return p;
}

export async function getTryOnProductState(db: Db, productId: string): Promise<TryOnProductState> {
  return stateOf(await loadGarment(db, productId));
}

/**
 * The product a shopper wants to try on, checked: shown to shoppers (404 otherwise, as a missing
 * one), try-on active (422), a garment image (422).
 */
export async function eligibleGarment(db: Db, productId: string): Promise<{ product: GarmentRow; garmentImageUrl: string; category: TryOnCategory }> {
  const p = await db.product.findFirst({ where: { id: productId, ...visibleProductWhere() }, select: garmentSelect });
  if (!p) throw notFound(PRODUCT_NOT_FOUND);
  if (!p.companion?.tryon_active) throw unprocessable(NOT_TRYON_ACTIVE);
  const garmentImageUrl = garmentImageOf(p);
  if (!garmentImageUrl) throw unprocessable(NO_GARMENT_IMAGE);
  return { product: p, garmentImageUrl, category: tryOnCategoryOf(p) };
}

// ---- eligible products (SPEC §7 GET eligible-products, §9 limit 40 offset 0) -------------------

function eligibleWhere(targetGender?: "both" | "menswear" | "womenswear"): Prisma.ProductWhereInput {
  return {
    ...visibleProductWhere(),
    companion: { is: { tryon_active: true } },
    OR: [{ companion: { is: { flat_image_url: { not: null } } } }, { images: { some: {} } }, { featuredImageUrl: { not: null } }],
    ...(targetGender && targetGender !== "both" ? { target_gender: { in: [targetGender, "both"] } } : {}),
  };
}

export async function listEligibleProducts(db: Db, q: { limit: number; offset: number; target_gender?: "both" | "menswear" | "womenswear" }) {
  const where = eligibleWhere(q.target_gender);
  const [rows, total] = await Promise.all([
    db.product.findMany({
      where,
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      skip: q.offset,
      take: q.limit,
      select: { ...cardSelect, images: garmentSelect.images, companion: garmentSelect.companion },
    }),
    db.product.count({ where }),
  ]);
  return {
    products: rows.map((r) => ({ ...toProductCard(r), garment_image_url: garmentImageOf(r)!, tryon_category: tryOnCategoryOf(r) })),
    total,
    limit: q.limit,
    offset: q.offset,
  };
}

// ---- admin: companion try-on flag, flat image, mask ---------------------------------------------

async function ensureCompanion(db: Db, productId: string) {
  // Not upsert: parallel first calls would race to a unique-constraint error.
  await db.productCompanion.createMany({ data: [{ shopify_product_id: productId }], skipDuplicates: true });
  return db.productCompanion.findUniqueOrThrow({ where: { shopify_product_id: productId } });
}

/** Turns try-on on or off (the companion is created when missing). On needs a garment image (422). */
export async function setTryOnActive(db: Db, productId: string, active: boolean): Promise<TryOnProductState> {
  const p = await loadGarment(db, productId);
  if (active && !garmentImageOf(p)) throw unprocessable(NO_GARMENT_IMAGE);
  await ensureCompanion(db, productId);
  await db.productCompanion.update({ where: { shopify_product_id: productId }, data: { tryon_active: active } });
  return getTryOnProductState(db, productId);
}

/** Clears the flat or the mask image. Clearing the flat image clears the mask made from it too. */
export async function removeTryOnImage(db: Db, productId: string, type: "flat" | "mask"): Promise<TryOnProductState> {
  const p = await loadGarment(db, productId);
  if (p.companion) {
    await db.productCompanion.update({
      where: { shopify_product_id: productId },
      data: type === "flat" ? { flat_image_url: null, mask_image_url: null } : { mask_image_url: null },
    });
  }
  return getTryOnProductState(db, productId);
}

/**
 * Starts the flat image of a product (the garment on a plain white background) from `imageUrl` or
 * the product's first image; the hook stores it on the companion when the request completes.
 */
export async function processFlatImage(ctx: AppContext, args: { productId: string; imageUrl?: string; userId: string }) {
  const p = await loadGarment(ctx.db, args.productId);
  const source = args.imageUrl ?? productImageOf(p);
  if (!source) throw unprocessable("This product has no image to make a flat image from: send image_url");
  await ensureCompanion(ctx.db, p.id);
  const request = await startImageAiRequest(ctx, {
    operation: "generate-flux-product-shot",
    input: { image_url: source, scene: "flat lay, garment only, plain white background, no shadow", background_color: "#FFFFFF", image_size: "portrait_4_3" },
    userId: args.userId,
    target: { type: "tryon", id: `${FLAT_TARGET_PREFIX}${p.id}` },
  });
  return { ...(await getTryOnProductState(ctx.db, p.id)), request_id: request.id, request_status: request.status };
}

/** Stores the finished flat image on the companion (called by the try-on hooks). */
export async function storeFlatImage(db: Db, productId: string, url: string): Promise<void> {
  await db.productCompanion.upsert({
    where: { shopify_product_id: productId },
    create: { shopify_product_id: productId, flat_image_url: url },
    // A new flat image makes the old mask stale.
    update: { flat_image_url: url, mask_image_url: null },
  });
}

/** A mask: white where the garment is, black elsewhere (PNG, same size as the image). */
export async function garmentMask(bytes: Uint8Array): Promise<Buffer> {
  const img = sharp(bytes, { failOn: "none" }).rotate();
  const { data, info } = await img.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const n = width * height;
  const mask = Buffer.alloc(n);
  let transparent = 0;
  for (let i = 0; i < n; i++) if (data[i * channels + 3] < 250) transparent++;
  if (transparent > n * 0.01) {
    for (let i = 0; i < n; i++) mask[i] = data[i * channels + 3] >= 128 ? 255 : 0;
  } else {
    // Background colour: the median of the border pixels (a flat image is on a plain background).
    const border: [number, number, number][] = [];
    const at = (x: number, y: number) => {
      const o = (y * width + x) * channels;
      border.push([data[o], data[o + 1], data[o + 2]]);
    };
    for (let x = 0; x < width; x++) (at(x, 0), at(x, height - 1));
    for (let y = 0; y < height; y++) (at(0, y), at(width - 1, y));
    const median = (k: 0 | 1 | 2) => border.map((b) => b[k]).sort((a, b) => a - b)[border.length >> 1];
    const bg = [median(0), median(1), median(2)];
    for (let i = 0; i < n; i++) {
      const o = i * channels;
      const d = Math.max(Math.abs(data[o] - bg[0]), Math.abs(data[o + 1] - bg[1]), Math.abs(data[o + 2] - bg[2]));
      mask[i] = d > 24 ? 255 : 0;
    }
  }
  // Smooth speckles away, then back to a hard mask.
  return sharp(mask, { raw: { width, height, channels: 1 } }).median(5).threshold(128).png().toBuffer();
}

/** Derives the garment mask from the flat image and stores it on the companion (409 without a flat image). */
export async function processMaskImage(ctx: AppContext, productId: string): Promise<TryOnProductState> {
  const p = await loadGarment(ctx.db, productId);
  const flat = p.companion?.flat_image_url;
  if (!flat) throw conflict(NO_FLAT_IMAGE);
  const bytes = await readImageUrl(ctx, flat).catch(toDomainImageError);
  let png: Buffer;
  try {
    png = await garmentMask(bytes);
  } catch (e) {
    if (isKnownError(e)) throw e;
    throw unprocessable("The flat image could not be read as an image");
  }
  const key = `images/tryon/masks/${p.id.replace(/\D+/g, "") || "product"}-${Date.now().toString(36)}.png`;
  const { url } = await ctx.storage.put(key, new Uint8Array(png), "image/png");
  await ctx.db.productCompanion.update({ where: { shopify_product_id: p.id }, data: { mask_image_url: url } });
  return getTryOnProductState(ctx.db, p.id);
}

export function requireProductAndType(q: { product_id?: string; type?: "flat" | "mask" }, b: { product_id?: string; type?: "flat" | "mask" }) {
  const productId = b.product_id ?? q.product_id;
  const type = b.type ?? q.type;
  if (!productId) throw badRequest(Messages.NO_PRODUCT_ID);
  if (!type) throw badRequest("type is required (flat or mask)");
  return { productId, type };
}
