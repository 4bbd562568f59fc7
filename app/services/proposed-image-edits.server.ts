/**
 * Proposed image edits: an edited image (an AI tool's output, or any image) proposed in place of
 * one of a product's images, reviewed by admins. Contract: app/contract/proposed-image-edits.ts;
 * the review states: app/lib/proposed-image-edit-status.ts (pending → approved | rejected, final).
 *
 * Approval writes through the commerce port: the proposed image is added at the original's
 * position, the variants that showed the original are pointed at it, and the original is removed
 * (appended instead when the original is no longer on the product). Then the read model is brought
 * in step (with the local adapter the store IS the read model). A store failure leaves the edit
 * pending and answers 502 with the store's reason.
 *
 * Also `addProductGeneratedImage` (POST /fal/add-product-generated-image): appends an image to a
 * product through the port, no review.
 */
import crypto from "node:crypto";
import { Prisma } from "@prisma/client";
import { badGateway, conflictError, domainErrorOfStatus, invalid, isKnownError, notFoundError, unprocessableError, unsupportedMedia } from "~/lib/domain-errors";
import { toApiError } from "~/api/router.server";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import type { ProposedImageEdit } from "~/contract/proposed-image-edits";
import { toProductGid } from "~/lib/gid";
import { isEditable, transition, type EditStatus } from "~/lib/proposed-image-edit-status";
import { CommerceError, type ImageSnapshot } from "~/providers/commerce/port";
import { recomputeProductAggregates } from "~/providers/commerce/local.server";
import { IMAGE_FETCH_MAX_BYTES, ImageSourceError, fetchPublicImage, ownStorageKey, type FetchPolicy } from "~/lib/image-source.server";
import { processImage, sniffType } from "./uploaded-images.server";
import { PRODUCT_NOT_FOUND } from "./catalog.server";

export type ImageEditCtx = Pick<AppContext, "db" | "commerce" | "storage" | "config" | "log">;
type Tx = Prisma.TransactionClient;

export const IMAGE_EDIT_NOT_FOUND = "Proposed image edit not found";
export const IMAGE_EDIT_PREFIX = "images/proposed-image-edits/";
const RACE = "This edit was reviewed by someone else in the meantime; reload it";

// ---------------------------------------------------------------------------------------------
// Shapes

const include = {
  product: {
    select: {
      id: true,
      title: true,
      handle: true,
      status: true,
      featuredImageUrl: true,
      featuredImageAltText: true,
      images: { select: { url: true } },
    },
  },
} satisfies Prisma.ProposedImageEditInclude;
type Row = Prisma.ProposedImageEditGetPayload<{ include: typeof include }>;

export function toImageEdit(r: Row): ProposedImageEdit {
  return {
    id: r.id,
    product_id: r.product_id,
    image_url: r.image_url,
    proposed_image_url: r.proposed_image_url,
    prompt: r.prompt,
    operation: r.operation,
    status: r.status,
    reviewer_id: r.reviewer_id,
    reviewed_at: r.reviewed_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    original_on_product: r.product.images.some((i) => i.url === r.image_url),
    product: {
      id: r.product.id,
      title: r.product.title,
      handle: r.product.handle,
      status: r.product.status,
      featuredImage: r.product.featuredImageUrl ? { url: r.product.featuredImageUrl, altText: r.product.featuredImageAltText } : null,
    },
  };
}

async function load(db: Db | Tx, id: string): Promise<Row> {
  const row = isUuid(id) ? await db.proposedImageEdit.findUnique({ where: { id }, include }) : null;
  if (!row) throw notFoundError(IMAGE_EDIT_NOT_FOUND);
  return row;
}

const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

// ---------------------------------------------------------------------------------------------
// Reads

export interface ImageEditFilters {
  status?: EditStatus;
  product_id?: string;
  operation?: string;
}

function whereOf(q: ImageEditFilters, withStatus = true): Prisma.ProposedImageEditWhereInput {
  return {
    ...(withStatus && q.status ? { status: q.status } : {}),
    ...(q.product_id ? { product_id: toProductGid(q.product_id) } : {}),
    ...(q.operation ? { operation: q.operation } : {}),
  };
}

export async function imageEditCounts(db: Db, q: ImageEditFilters = {}) {
  const groups = await db.proposedImageEdit.groupBy({ by: ["status"], where: whereOf(q, false), _count: { _all: true } });
  const counts = { pending: 0, approved: 0, rejected: 0 };
  for (const g of groups) counts[g.status] = g._count._all;
  return counts;
}

export async function listImageEdits(db: Db, q: ImageEditFilters & { page: number; limit: number; sort?: "newest" | "oldest" }) {
  const where = whereOf(q);
  const dir = q.sort === "oldest" ? "asc" : "desc";
  const [total, rows, counts] = await Promise.all([
    db.proposedImageEdit.count({ where }),
    db.proposedImageEdit.findMany({ where, include, orderBy: [{ created_at: dir }, { id: "asc" }], skip: (q.page - 1) * q.limit, take: q.limit }),
    imageEditCounts(db, q),
  ]);
  return { items: rows.map(toImageEdit), page: q.page, limit: q.limit, total, totalPages: Math.max(1, Math.ceil(total / q.limit)), counts };
}

export async function getImageEdit(db: Db, id: string) {
  return toImageEdit(await load(db, id));
}

// ---------------------------------------------------------------------------------------------
// Images

/**
 * The proposed image the edit keeps: one of our uploads (must exist and be an image), or an
 * http(s) image copied into our storage (public addresses only, 10 MB; normalised to JPEG,
 * stored by content hash under images/proposed-image-edits/).
 */
export async function intakeEditImage(ctx: Pick<AppContext, "storage" | "config">, raw: string, field = "proposed_image_url", policy: FetchPolicy = {}): Promise<string> {
  const url = raw.trim();
  const key = ownStorageKey(ctx, url);
  if (key) {
    const bytes = await ctx.storage.get(key).catch(() => null);
    if (!bytes) throw unprocessableError(`${field}: ${url} was not found in our storage`);
    const kind = sniffType(bytes);
    if (!kind || kind === "video") throw unsupportedMedia(`${field}: ${url} is not an image (JPEG, PNG or WebP)`);
    return ctx.storage.publicUrl(key);
  }
  if (url.startsWith("/")) throw invalid(`${field}: a relative URL must point to our uploads (/uploads/…)`);
  let bytes: Uint8Array;
  try {
    bytes = (await fetchPublicImage(url, { maxBytes: IMAGE_FETCH_MAX_BYTES, ...policy })).bytes;
  } catch (e) {
    if (e instanceof ImageSourceError) throw domainErrorOfStatus(e.status, `${field}: ${e.message}`);
    throw e;
  }
  const hash = crypto.createHash("sha256").update(bytes).digest("hex");
  const stored = `${IMAGE_EDIT_PREFIX}${hash}.jpg`;
  if (await ctx.storage.get(stored).catch(() => null)) return ctx.storage.publicUrl(stored);
  const image = await processImage(bytes);
  return (await ctx.storage.put(stored, image.jpeg, "image/jpeg")).url;
}

/** The URL the store can fetch: our paths become absolute under APP_URL for the Shopify adapter. */
function storeFacingUrl(ctx: ImageEditCtx, url: string): string {
  if (ctx.commerce.kind === "local" || !url.startsWith("/")) return url;
  const base = ctx.config.APP_URL ?? ctx.config.SHOPIFY_APP_URL;
  if (!base) throw unprocessableError("The store cannot fetch the image: set APP_URL (or SHOPIFY_APP_URL) to the app's public address");
  return new URL(url, base).href;
}

/** Deletes an image this area stored once nothing uses it (no edit, product image or variant). */
async function releaseImage(ctx: ImageEditCtx, url: string) {
  const key = ownStorageKey(ctx, url);
  if (!key || !key.startsWith(IMAGE_EDIT_PREFIX)) return;
  const [edits, images, variants] = await Promise.all([
    ctx.db.proposedImageEdit.count({ where: { proposed_image_url: url } }),
    ctx.db.productImage.count({ where: { url } }),
    ctx.db.productVariant.count({ where: { image_url: url } }),
  ]);
  if (edits + images + variants > 0) return;
  await ctx.storage.delete(key).catch((e: unknown) => ctx.log.warn({ err: e, key }, "could not delete a proposed edit image"));
}

/** A commerce failure as the 502 the caller sees (refusals meant for the caller, e.g. a missing APP_URL, pass as they are). */
function storeFailure(e: unknown, what: string): never {
  if (isKnownError(e)) throw e;
  const reason = e instanceof Error ? e.message : String(e);
  const userErrors = e instanceof CommerceError ? e.userErrors : [];
  throw badGateway(`The store could not ${what}: ${reason}`, { reason, userErrors });
}

// ---------------------------------------------------------------------------------------------
// Writes

export async function createImageEdit(
  ctx: ImageEditCtx,
  body: { product_id: string; image_url: string; proposed_image_url: string; prompt?: string | null; operation: string },
  opts: { fetchPolicy?: FetchPolicy } = {},
) {
  const productId = toProductGid(body.product_id);
  const product = await ctx.db.product.findUnique({ where: { id: productId }, select: { id: true } });
  if (!product) throw notFoundError(PRODUCT_NOT_FOUND);
  const original = body.image_url.trim();
  const proposed = await intakeEditImage(ctx, body.proposed_image_url, "proposed_image_url", opts.fetchPolicy);
  if (proposed === original) throw unprocessableError("The proposed image is the original image: nothing to change");
  const dup = await ctx.db.proposedImageEdit.findFirst({
    where: { product_id: productId, image_url: original, proposed_image_url: proposed, status: "pending" },
    select: { id: true },
  });
  if (dup) throw conflictError(`This edit is already proposed for this image (pending edit ${dup.id})`);
  const row = await ctx.db.proposedImageEdit.create({
    data: { product_id: productId, image_url: original, proposed_image_url: proposed, prompt: body.prompt?.trim() || null, operation: body.operation },
    include,
  });
  return toImageEdit(row);
}

export async function rejectImageEdit(ctx: Pick<AppContext, "db">, id: string, reviewerId: string | null) {
  const row = await load(ctx.db, id);
  const t = transition(row.status, { via: "patch", to: "rejected" });
  if (!t.ok) throw conflictError(t.message);
  const r = await ctx.db.proposedImageEdit.updateMany({ where: { id, status: row.status }, data: { status: t.to, reviewer_id: reviewerId, reviewed_at: new Date() } });
  if (!r.count) throw conflictError(RACE);
  return toImageEdit(await load(ctx.db, id));
}

export async function updateImageEdit(
  ctx: ImageEditCtx,
  id: string,
  body: { status?: EditStatus; prompt?: string | null; proposed_image_url?: string },
  reviewerId: string | null,
  opts: { fetchPolicy?: FetchPolicy } = {},
) {
  const row = await load(ctx.db, id);
  if (body.status !== undefined) {
    const t = transition(row.status, { via: "patch", to: body.status });
    if (!t.ok) throw conflictError(t.message);
  }
  const changesFields = body.prompt !== undefined || body.proposed_image_url !== undefined;
  if (changesFields && !isEditable(row.status)) throw conflictError(`This edit is ${row.status}: only a pending edit can be changed`);
  const data: Prisma.ProposedImageEditUncheckedUpdateInput = {};
  let replaced: string | null = null;
  if (body.proposed_image_url !== undefined) {
    const url = await intakeEditImage(ctx, body.proposed_image_url, "proposed_image_url", opts.fetchPolicy);
    if (url !== row.proposed_image_url) {
      if (url === row.image_url) throw unprocessableError("The proposed image is the original image: nothing to change");
      data.proposed_image_url = url;
      replaced = row.proposed_image_url;
    }
  }
  if (body.prompt !== undefined) data.prompt = body.prompt?.trim() || null;
  if (body.status === "rejected") Object.assign(data, { status: "rejected", reviewer_id: reviewerId, reviewed_at: new Date() });
  if (Object.keys(data).length) {
    const r = await ctx.db.proposedImageEdit.updateMany({ where: { id, status: row.status }, data });
    if (!r.count) throw conflictError(RACE);
  }
  if (replaced) await releaseImage(ctx, replaced);
  return toImageEdit(await load(ctx.db, id));
}

export async function deleteImageEdit(ctx: ImageEditCtx, id: string) {
  const row = isUuid(id) ? await ctx.db.proposedImageEdit.findUnique({ where: { id }, select: { id: true, proposed_image_url: true } }) : null;
  if (!row) throw notFoundError(IMAGE_EDIT_NOT_FOUND);
  await ctx.db.proposedImageEdit.deleteMany({ where: { id } });
  await releaseImage(ctx, row.proposed_image_url);
  return { ok: true as const };
}

/**
 * Puts an image on a product through the commerce port, in place of `replace` (same position; the
 * variants that showed it show the new image; then `replace` is removed) or appended. Then the
 * read model follows. Commerce failures: 502 (an image added before a failed removal is taken
 * back, so the product is as before).
 */
async function writeProductImage(ctx: ImageEditCtx, productId: string, image: { url: string; altText?: string | null }, replaceUrl: string | null, what: string) {
  let added: ImageSnapshot;
  let original: ImageSnapshot | undefined;
  let reattached: string[] = [];
  try {
    const product = await ctx.commerce.getProduct(productId);
    if (!product) throw new CommerceError(`Product ${productId} is not in the store`, [], 404);
    const index = replaceUrl ? product.images.findIndex((i) => i.url === replaceUrl) : -1;
    original = index >= 0 ? product.images[index] : undefined;
    const url = storeFacingUrl(ctx, image.url);
    added = await ctx.commerce.addProductImage(productId, { url, altText: image.altText ?? original?.altText ?? product.title, ...(original ? { position: index } : {}) });
    if (original) {
      const variants = product.variants.filter((v) => v.imageUrl === original!.url).map((v) => v.id);
      try {
        await ctx.commerce.deleteProductMedia(productId, [original.id]);
      } catch (e) {
        await ctx.commerce.deleteProductMedia(productId, [added.id]).catch((undo: unknown) => ctx.log.warn({ err: undo, productId, mediaId: added.id }, "could not take back the added image"));
        throw e;
      }
      if (variants.length) {
        // Best effort: a store still processing the new image may refuse; the variants then show no image.
        await ctx.commerce
          .appendVariantMedia(productId, variants.map((variantId) => ({ variantId, mediaId: added.id })))
          .then(() => (reattached = variants))
          .catch((e: unknown) => ctx.log.warn({ err: e, productId, variants }, "could not show the new image on the variants that showed the original"));
      }
    }
  } catch (e) {
    storeFailure(e, what);
  }

  // The read model: with the local adapter these writes find everything done already.
  await ctx.db.$transaction(async (tx) => {
    const known = await tx.productImage.findUnique({ where: { id: added.id }, select: { id: true } });
    if (!known) {
      const orig = original ? await tx.productImage.findUnique({ where: { id: original.id }, select: { position: true, product_id: true } }) : null;
      let position: number;
      if (orig && orig.product_id === productId) position = orig.position;
      else {
        const last = await tx.productImage.aggregate({ where: { product_id: productId }, _max: { position: true } });
        position = (last._max.position ?? -1) + 1;
      }
      await tx.productImage.create({ data: { id: added.id, product_id: productId, url: added.url, altText: added.altText, position } });
    }
    if (original) {
      await tx.productImage.deleteMany({ where: { id: original.id, product_id: productId } });
      if (original.url !== added.url) {
        await tx.productVariant.updateMany({ where: { product_id: productId, image_url: original.url }, data: { image_url: null } });
        if (reattached.length) await tx.productVariant.updateMany({ where: { id: { in: reattached } }, data: { image_url: added.url } });
      }
    }
    await recomputeProductAggregates(tx, productId);
  });
  return { added: added!, replaced: original ?? null };
}

/**
 * Approves a pending edit: claims it (pending → approved, so two reviewers cannot both write),
 * writes the image to the product, and records the reviewer. If the store fails, the claim is
 * undone (the edit stays pending) and 502 carries the store's reason.
 */
export async function approveImageEdit(ctx: ImageEditCtx, id: string, reviewerId: string | null) {
  const row = await load(ctx.db, id);
  const t = transition(row.status, { via: "approve" });
  if (!t.ok) throw conflictError(t.message);
  const claimed = await ctx.db.proposedImageEdit.updateMany({ where: { id, status: "pending" }, data: { status: t.to, reviewer_id: reviewerId, reviewed_at: new Date() } });
  if (!claimed.count) throw conflictError(RACE);
  try {
    await writeProductImage(ctx, row.product_id, { url: row.proposed_image_url }, row.image_url, "update the product's images");
  } catch (e) {
    await ctx.db.proposedImageEdit.update({ where: { id }, data: { status: "pending", reviewer_id: null, reviewed_at: null } }).catch(() => undefined);
    ctx.log.warn({ err: e, editId: id }, "approving a proposed image edit failed");
    throw e;
  }
  return toImageEdit(await load(ctx.db, id));
}

/**
 * Approves or rejects several edits one after another (approvals of one product must not race in
 * the store), answering per id.
 */
export async function bulkReviewImageEdits(ctx: ImageEditCtx, action: "approve" | "reject", rawIds: string[], reviewerId: string | null) {
  const ids = [...new Set(rawIds)];
  const results: { id: string; ok: boolean; status: EditStatus | null; error: { status: number; message: string } | null }[] = [];
  for (const id of ids) {
    try {
      const r = action === "approve" ? await approveImageEdit(ctx, id, reviewerId) : await rejectImageEdit(ctx, id, reviewerId);
      results.push({ id, ok: true, status: r.status, error: null });
    } catch (e) {
      const err = toApiError(e);
      if (err.status === 500) ctx.log.error({ err: e, editId: id }, "bulk review of image edits failed");
      const current = isUuid(id) ? await ctx.db.proposedImageEdit.findUnique({ where: { id }, select: { status: true } }) : null;
      results.push({ id, ok: false, status: current?.status ?? null, error: { status: err.status, message: err.message } });
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { action, succeeded, failed: results.length - succeeded, results };
}

// ---------------------------------------------------------------------------------------------
// POST /fal/add-product-generated-image

/**
 * Appends an image (a generated one: our upload path or an http(s) URL, copied into our storage)
 * to a product through the commerce port. 404 for an unknown product; 502 when the store fails.
 */
export async function addProductGeneratedImage(
  ctx: ImageEditCtx,
  args: { productId: string; imageUrl: string; userId: string | null; altText?: string | null },
  opts: { fetchPolicy?: FetchPolicy } = {},
) {
  const productId = toProductGid(args.productId);
  const product = await ctx.db.product.findUnique({ where: { id: productId }, select: { id: true, title: true } });
  if (!product) throw notFoundError(PRODUCT_NOT_FOUND);
  const url = await intakeEditImage(ctx, args.imageUrl, "image_url", opts.fetchPolicy);
  const { added } = await writeProductImage(ctx, productId, { url, altText: args.altText?.trim() || product.title }, null, "add the image to the product");
  const stored = await ctx.db.productImage.findUnique({ where: { id: added.id }, select: { position: true } });
  ctx.log.info({ productId, mediaId: added.id, userId: args.userId }, "generated image added to a product");
  return {
    product_id: productId,
    image: { id: added.id, url: added.url, altText: added.altText, position: stored?.position ?? added.position },
  };
}
