/**
 * Product reviews: public reads, writing (shoppers), reviewable orders, moderation (admins) and
 * the rating summaries.
 *
 * Rules (see app/contract/reviews.ts for the API):
 * - Shoppers see approved reviews only (`published`, an older name, counts as approved).
 * - Rating summaries per product and per store live in `review_rating_summaries`. They are
 *   recomputed from the approved reviews inside the same transaction as every change that moves a
 *   review in or out of the approved set (publish, delete of an approved review, a rating edit of
 *   an approved one, an admin review created published). The summary row is written first
 *   (INSERT … ON CONFLICT DO UPDATE), which locks it: two transactions recomputing the same
 *   product take turns, and the second counts what the first committed.
 * - Status changes go through the transition table of app/lib/review-moderation.ts; a refused one
 *   is a 409 with the table's message. The update is conditional on the status read (a concurrent
 *   moderator gets a 409 too).
 * - Photos are stored under `images/reviews/<uuid>.jpg` after the shared upload checks
 *   (uploaded-images.server.ts) and recorded as UploadedImage rows (purpose "review", the
 *   uploader's user id). A shopper can attach only photos they uploaded and that no review uses.
 */
import crypto from "node:crypto";
import { Prisma, type Review, type ReviewStatus, type User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { conflictError as conflict, failedError, invalid as badRequest, isKnownError, notFoundError as notFound } from "~/lib/domain-errors";
import { Messages } from "~/contract/messages";
import { REVIEW_MAX_IMAGES, type AdminReviewListQuery, type RatingSummary } from "~/contract/reviews";
import { toProductGid } from "~/lib/gid";
import { reviewAuthorName } from "~/lib/review-author";
import { PUBLIC_REVIEW_STATUSES, allowedActions, isPublicStatus, transition, type ModerationAction } from "~/lib/review-moderation";
import { storeUploadedImage } from "./uploaded-image-store.server";
import { visibleProductWhere } from "~/lib/visibility";

type Tx = Prisma.TransactionClient;
type Client = Db | Tx;
export type ReviewsCtx = Pick<AppContext, "db" | "storage" | "log">;

export const REVIEW_IMAGE_PURPOSE = "review";
const PUBLIC = [...PUBLIC_REVIEW_STATUSES] as ReviewStatus[];

// ---------------------------------------------------------------------------------------------
// Shapes

const productSelect = { id: true, title: true, handle: true, featuredImageUrl: true } as const;
const withProduct = { product: { select: productSelect } } as const;
type ReviewRow = Review & { product: { id: string; title: string; handle: string; featuredImageUrl: string | null } | null };

export function toPublicReview(r: ReviewRow) {
  return {
    id: r.id,
    rating: r.rating,
    title: r.title,
    body: r.body,
    name: r.name,
    images: r.images,
    verified_buyer: r.verified_buyer,
    product_id: r.product_id,
    store_id: r.store_id,
    product: r.product ? { id: r.product.id, title: r.product.title, handle: r.product.handle, image_url: r.product.featuredImageUrl } : null,
    created_at: r.created_at,
    published_at: r.published_at,
  };
}

export const toOwnReview = (r: ReviewRow) => ({ ...toPublicReview(r), status: r.status });

export function toAdminReview(r: ReviewRow) {
  return {
    ...toOwnReview(r),
    email: r.email,
    user_id: r.user_id,
    shopify_order_id: r.shopify_order_id,
    updated_at: r.updated_at,
    allowed_actions: allowedActions(r.status),
  };
}
export type AdminReviewView = ReturnType<typeof toAdminReview>;

// ---------------------------------------------------------------------------------------------
// Public reads

export interface ReviewListQuery {
  skip: number;
  take: number;
  excludeProductId?: string;
}

async function listPublic(db: Db, where: Prisma.ReviewWhereInput, q: ReviewListQuery) {
  const filter: Prisma.ReviewWhereInput = { AND: [where, { status: { in: PUBLIC } }, ...(q.excludeProductId ? [{ product_id: { not: toProductGid(q.excludeProductId) } }] : [])] };
  // One statement after another (the embedded database serves one connection).
  const rows = await db.review.findMany({ where: filter, include: withProduct, orderBy: [{ created_at: "desc" }, { id: "asc" }], skip: q.skip, take: q.take });
  const total = await db.review.count({ where: filter });
  return { reviews: rows.map(toPublicReview), total, skip: q.skip, take: q.take };
}

/** Approved reviews of a product; an unknown product has none (SPEC §8: empty list, total 0). */
export const listProductReviews = (db: Db, productId: string, q: ReviewListQuery) => listPublic(db, { product_id: toProductGid(productId) }, q);

/** Approved reviews of a store's products. */
export const listStoreReviews = (db: Db, storeId: string, q: ReviewListQuery) => listPublic(db, { store_id: storeId.trim() }, q);

const EMPTY_DISTRIBUTION = { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 };

function toSummary(row: { average: number; count: number; distribution: Prisma.JsonValue } | null): RatingSummary | null {
  if (!row || row.count <= 0) return null;
  const d = (row.distribution ?? {}) as Record<string, unknown>;
  const n = (k: string) => (typeof d[k] === "number" ? (d[k] as number) : 0);
  return { average: row.average, count: row.count, distribution: { "1": n("1"), "2": n("2"), "3": n("3"), "4": n("4"), "5": n("5") } };
}

/** SPEC §8: null when the product has no approved review (or does not exist). */
export async function productRatingSummary(db: Db, productId: string) {
  return toSummary(await db.reviewRatingSummary.findUnique({ where: { product_id: toProductGid(productId) } }));
}

export async function storeRatingSummary(db: Db, storeId: string) {
  return toSummary(await db.reviewRatingSummary.findUnique({ where: { store_id: storeId.trim() } }));
}

/** Every approved review at once (the admin screen's chart). */
export async function overallRatingSummary(db: Db): Promise<RatingSummary> {
  const groups = await db.review.groupBy({ by: ["rating"], where: { status: { in: PUBLIC } }, _count: { _all: true } });
  return summarise(groups);
}

function summarise(groups: { rating: number; _count: { _all: number } }[]): RatingSummary {
  const distribution = { ...EMPTY_DISTRIBUTION };
  let count = 0;
  let sum = 0;
  for (const g of groups) {
    const key = String(g.rating) as keyof typeof distribution;
    if (!(key in distribution)) continue;
    distribution[key] += g._count._all;
    count += g._count._all;
    sum += g.rating * g._count._all;
  }
  return { average: count ? Math.round((sum / count) * 100) / 100 : 0, count, distribution };
}

// ---------------------------------------------------------------------------------------------
// Rating summaries

async function recomputeSummary(tx: Client, column: "product_id" | "store_id", id: string) {
  // Create or touch the row first: the row lock serialises recomputations of the same summary.
  if (column === "product_id") {
    await tx.$executeRaw`INSERT INTO review_rating_summaries (id, product_id, updated_at) VALUES (${crypto.randomUUID()}, ${id}, (now() AT TIME ZONE 'UTC')) ON CONFLICT (product_id) DO UPDATE SET updated_at = EXCLUDED.updated_at`;
  } else {
    await tx.$executeRaw`INSERT INTO review_rating_summaries (id, store_id, updated_at) VALUES (${crypto.randomUUID()}, ${id}, (now() AT TIME ZONE 'UTC')) ON CONFLICT (store_id) DO UPDATE SET updated_at = EXCLUDED.updated_at`;
  }
  const groups = await tx.review.groupBy({ by: ["rating"], where: { [column]: id, status: { in: PUBLIC } }, _count: { _all: true } });
  const s = summarise(groups);
  await tx.reviewRatingSummary.update({
    where: column === "product_id" ? { product_id: id } : { store_id: id },
    data: { average: s.average, count: s.count, distribution: s.distribution },
  });
}

/** Recomputes the summaries a review counts in (its product's and its store's). Call inside the transaction that changed it. */
export async function recomputeSummariesFor(tx: Client, review: { product_id: string; store_id: string | null }) {
  await recomputeSummary(tx, "product_id", review.product_id);
  if (review.store_id) await recomputeSummary(tx, "store_id", review.store_id);
}

// ---------------------------------------------------------------------------------------------
// Photos

/** Checks, normalises and stores a review photo; records who uploaded it. */
export async function storeReviewImage(ctx: Pick<AppContext, "db" | "storage">, file: Blob, userId: string | null) {
  const image = await storeUploadedImage(ctx, { file, userId, purpose: REVIEW_IMAGE_PURPOSE, folder: "reviews" });
  // A processed upload always has its size (the record's columns are nullable for older rows).
  return { url: image.url, width: image.width ?? 0, height: image.height ?? 0 };
}

/**
 * The photo URLs a review may carry: review uploads (of `uploaderId` when given) that no review
 * uses yet. Throws 400 naming the first one that is not.
 */
async function checkImageUrls(db: Db, urls: string[], opts: { uploaderId?: string | null; exceptReviewId?: string }) {
  const unique = [...new Set(urls)];
  if (unique.length > REVIEW_MAX_IMAGES) throw badRequest(`images: at most ${REVIEW_MAX_IMAGES} photos`);
  if (!unique.length) return unique;
  const rows = await db.uploadedImage.findMany({ where: { url: { in: unique }, purpose: REVIEW_IMAGE_PURPOSE }, select: { url: true, user_id: true } });
  for (const url of unique) {
    const row = rows.find((r) => r.url === url);
    if (!row || (opts.uploaderId !== undefined && row.user_id !== opts.uploaderId)) {
      throw badRequest(`images: ${url} is not one of your uploaded review photos; upload it through POST /api/product-reviews/images first`);
    }
  }
  const used = await db.review.findFirst({ where: { images: { hasSome: unique }, ...(opts.exceptReviewId ? { id: { not: opts.exceptReviewId } } : {}) }, select: { images: true } });
  if (used) throw conflict(`images: ${unique.find((u) => used.images.includes(u))} is already used by another review`);
  return unique;
}

/**
 * The photos of a write request: URLs are checked first (nothing stored when one is refused),
 * then files are stored. Returns the URLs and the keys stored by this call (to undo on failure).
 */
async function resolveImages(ctx: Pick<AppContext, "db" | "storage">, entries: (string | Blob)[], uploaderId: string | null, checkOwner: boolean) {
  const urls = entries.filter((e): e is string => typeof e === "string");
  const files = entries.filter((e): e is Blob => typeof e !== "string");
  if (urls.length + files.length > REVIEW_MAX_IMAGES) throw badRequest(`images: at most ${REVIEW_MAX_IMAGES} photos`);
  const checked = await checkImageUrls(ctx.db, urls, checkOwner ? { uploaderId } : {});
  const stored: string[] = [];
  try {
    for (const f of files) stored.push((await storeReviewImage(ctx, f, uploaderId)).url);
  } catch (e) {
    await discardImages(ctx, stored);
    throw e;
  }
  return { urls: [...checked, ...stored], stored };
}

/** Deletes review photos (files and their UploadedImage rows) that no remaining review uses. */
export async function discardImages(ctx: Pick<AppContext, "db" | "storage">, urls: string[]) {
  if (!urls.length) return;
  const rows = await ctx.db.uploadedImage.findMany({ where: { url: { in: urls }, purpose: REVIEW_IMAGE_PURPOSE } });
  for (const row of rows) {
    if (await ctx.db.review.findFirst({ where: { images: { has: row.url } }, select: { id: true } })) continue;
    await ctx.db.uploadedImage.delete({ where: { id: row.id } }).catch(() => undefined);
    await ctx.storage.delete(row.key).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

export interface ReviewWrite {
  product_id: string;
  rating: number;
  title: string | null;
  body: string;
  images: (string | Blob)[];
}

const isUniqueViolation = (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";

/** Unexpected failures of a write answer the spec's "Failed to create review" (SPEC §8). */
async function asCreateFailure<T>(ctx: Pick<AppContext, "log">, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isKnownError(e)) throw e;
    if (isUniqueViolation(e)) throw conflict("This product was already reviewed for this order");
    ctx.log.error({ err: e }, "review creation failed");
    throw failedError(Messages.FAILED_TO_CREATE_REVIEW);
  }
}

async function findReviewableProduct(db: Db, productId: string, opts: { visibleOnly: boolean }) {
  const product = await db.product.findFirst({
    where: { id: toProductGid(productId), ...(opts.visibleOnly ? visibleProductWhere() : {}) },
    select: { id: true, title: true, store_id: true, companion: { select: { id: true } } },
  });
  if (!product) throw notFound("Product not found");
  return product;
}

/**
 * The order a shopper's review of `productId` belongs to: the given one (theirs, with the
 * product), else their newest order with the product that has no review of it yet. `null` when
 * they never ordered it (an unverified review).
 */
async function pickOrder(db: Db, user: User, productId: string, orderId: string | undefined): Promise<{ id: string; name: string } | null> {
  if (orderId) {
    const order = await db.order.findFirst({ where: { id: orderId, user_id: user.id }, select: { id: true, name: true } });
    if (!order) throw notFound("Order not found");
    const item = await db.orderItem.findFirst({ where: { order_id: order.id, product_id: productId, status: { not: "cancelled" } }, select: { id: true } });
    if (!item) throw badRequest(`This product is not in order ${order.name}`);
    if (await db.review.findFirst({ where: { shopify_order_id: order.id, product_id: productId }, select: { id: true } })) {
      throw conflict(`You have already reviewed this product from order ${order.name}`);
    }
    return order;
  }
  const items = await db.orderItem.findMany({
    where: { product_id: productId, status: { not: "cancelled" }, order: { user_id: user.id, status: { not: "cancelled" } } },
    select: { order: { select: { id: true, name: true, created_at: true } } },
  });
  const orders = [...new Map(items.map((i) => [i.order.id, i.order])).values()].sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || a.id.localeCompare(b.id));
  if (orders.length) {
    const reviewed = new Set(
      (await db.review.findMany({ where: { product_id: productId, shopify_order_id: { in: orders.map((o) => o.id) } }, select: { shopify_order_id: true } })).map((r) => r.shopify_order_id),
    );
    const open = orders.find((o) => !reviewed.has(o.id));
    if (!open) throw conflict("You have already reviewed this product");
    return { id: open.id, name: open.name };
  }
  if (await db.review.findFirst({ where: { user_id: user.id, product_id: productId, shopify_order_id: null }, select: { id: true } })) {
    throw conflict("You have already reviewed this product");
  }
  return null;
}

/** A shopper writes a review: pending, verified when the product is in one of their orders. */
export async function createReview(ctx: ReviewsCtx, user: User, input: ReviewWrite & { order_id?: string }) {
  return asCreateFailure(ctx, async () => {
    const product = await findReviewableProduct(ctx.db, input.product_id, { visibleOnly: true });
    const order = await pickOrder(ctx.db, user, product.id, input.order_id);
    const images = await resolveImages(ctx, input.images, user.id, true);
    try {
      const row = await ctx.db.review.create({
        data: {
          rating: input.rating,
          title: input.title,
          body: input.body,
          name: reviewAuthorName(user),
          email: user.email,
          images: images.urls,
          status: "pending",
          shopify_order_id: order?.id ?? null,
          shopify_product_companion_id: product.companion?.id ?? null,
          product_id: product.id,
          store_id: product.store_id,
          user_id: user.id,
          verified_buyer: !!order,
        },
        include: withProduct,
      });
      return toOwnReview(row);
    } catch (e) {
      await discardImages(ctx, images.stored);
      throw e;
    }
  });
}

/** Writes a verified review for an order (review by token). Exported for review-requests.server.ts. */
export async function createOrderReview(
  ctx: ReviewsCtx,
  input: ReviewWrite & { order: { id: string; name: string }; author: { id: string | null; first_name: string | null; email: string | null } },
) {
  return asCreateFailure(ctx, async () => {
    const product = await findReviewableProduct(ctx.db, input.product_id, { visibleOnly: false });
    if (await ctx.db.review.findFirst({ where: { shopify_order_id: input.order.id, product_id: product.id }, select: { id: true } })) {
      throw conflict(`This product was already reviewed for order ${input.order.name}`);
    }
    const images = await resolveImages(ctx, input.images, input.author.id, false);
    try {
      const row = await ctx.db.review.create({
        data: {
          rating: input.rating,
          title: input.title,
          body: input.body,
          name: reviewAuthorName(input.author),
          email: input.author.email,
          images: images.urls,
          status: "pending",
          shopify_order_id: input.order.id,
          shopify_product_companion_id: product.companion?.id ?? null,
          product_id: product.id,
          store_id: product.store_id,
          user_id: input.author.id,
          verified_buyer: true,
        },
        include: withProduct,
      });
      return toOwnReview(row);
    } catch (e) {
      await discardImages(ctx, images.stored);
      throw e;
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Reviewable orders (SPEC §6: non-guest users)

/** Delivered items of the user's orders that are not reviewed (for that order) nor dismissed, newest order first. */
export async function listReviewableOrders(db: Db, user: Pick<User, "id">) {
  const items = await db.orderItem.findMany({
    where: { status: "delivered", product_id: { not: null }, order: { user_id: user.id, status: { not: "cancelled" } } },
    select: { product_id: true, variant_title: true, image_url: true, title: true, order: { select: { id: true, name: true, created_at: true } } },
    orderBy: [{ order: { created_at: "desc" } }, { id: "asc" }],
    take: 1000,
  });
  if (!items.length) return { orders: [], total_items: 0 };
  const orderIds = [...new Set(items.map((i) => i.order.id))];
  const productIds = [...new Set(items.map((i) => i.product_id!))];
  const reviews = await db.review.findMany({ where: { shopify_order_id: { in: orderIds }, product_id: { in: productIds } }, select: { shopify_order_id: true, product_id: true } });
  const dismissals = await db.reviewDismissal.findMany({ where: { user_id: user.id, order_id: { in: orderIds } }, select: { order_id: true, product_id: true } });
  const products = await db.product.findMany({ where: { id: { in: productIds }, ...visibleProductWhere() }, select: productSelect });
  const done = new Set([...reviews.map((r) => `${r.shopify_order_id}|${r.product_id}`), ...dismissals.map((d) => `${d.order_id}|${d.product_id}`)]);
  const byId = new Map(products.map((p) => [p.id, p]));
  const orders = new Map<string, { order_id: string; name: string; created_at: Date; items: { product_id: string; title: string; handle: string; image_url: string | null; variant_title: string | null }[] }>();
  let total = 0;
  for (const i of items) {
    const key = `${i.order.id}|${i.product_id}`;
    const product = byId.get(i.product_id!);
    if (done.has(key) || !product) continue;
    done.add(key); // one entry per product, even with several variants in the order
    const entry = orders.get(i.order.id) ?? { order_id: i.order.id, name: i.order.name, created_at: i.order.created_at, items: [] };
    orders.set(i.order.id, entry);
    entry.items.push({ product_id: product.id, title: product.title, handle: product.handle, image_url: i.image_url ?? product.featuredImageUrl, variant_title: i.variant_title });
    total++;
  }
  return { orders: [...orders.values()], total_items: total };
}

/** Stops asking the user to review a product of one of their orders (idempotent). */
export async function dismissReviewable(db: Db, user: Pick<User, "id">, input: { order_id: string; product_id: string }) {
  const productId = toProductGid(input.product_id);
  const order = await db.order.findFirst({ where: { id: input.order_id, user_id: user.id }, select: { id: true, name: true } });
  if (!order) throw notFound("Order not found");
  const item = await db.orderItem.findFirst({ where: { order_id: order.id, product_id: productId }, select: { id: true } });
  if (!item) throw notFound(`This product is not in order ${order.name}`);
  // INSERT … ON CONFLICT DO NOTHING: Prisma's upsert reads then writes, so parallel dismissals raced to a 409.
  await db.reviewDismissal.createMany({ data: [{ user_id: user.id, order_id: order.id, product_id: productId }], skipDuplicates: true });
  return { ok: true as const };
}

// ---------------------------------------------------------------------------------------------
// Moderation

function adminWhere(q: Partial<AdminReviewListQuery>): Prisma.ReviewWhereInput {
  const and: Prisma.ReviewWhereInput[] = [];
  if (q.product_id) and.push({ product_id: toProductGid(q.product_id) });
  if (q.store_id) and.push({ store_id: q.store_id });
  if (q.q) {
    const contains = { contains: q.q, mode: "insensitive" as const };
    and.push({ OR: [{ title: contains }, { body: contains }, { name: contains }, { email: contains }] });
  }
  return { AND: and };
}

const statusWhere = (status: AdminReviewListQuery["status"]): Prisma.ReviewWhereInput =>
  status === "all" ? {} : status === "approved" ? { status: { in: PUBLIC } } : { status };

export async function adminListReviews(db: Db, q: AdminReviewListQuery) {
  const base = adminWhere(q);
  const where: Prisma.ReviewWhereInput = { AND: [base, statusWhere(q.status)] };
  const rows = await db.review.findMany({ where, include: withProduct, orderBy: [{ created_at: "desc" }, { id: "asc" }], skip: q.skip, take: q.take });
  const total = await db.review.count({ where });
  const groups = await db.review.groupBy({ by: ["status"], where: base, _count: { _all: true } });
  const n = (s: ReviewStatus) => groups.find((g) => g.status === s)?._count._all ?? 0;
  const counts = { pending: n("pending"), approved: n("approved") + n("published"), rejected: n("rejected"), all: groups.reduce((a, g) => a + g._count._all, 0) };
  return { reviews: rows.map(toAdminReview), total, skip: q.skip, take: q.take, counts };
}

async function findReview(db: Client, id: string) {
  const row = await db.review.findUnique({ where: { id }, include: withProduct });
  if (!row) throw notFound("Review not found");
  return row;
}

export async function adminGetReview(db: Db, id: string) {
  return toAdminReview(await findReview(db, id));
}

export interface AdminReviewCreate {
  product_id: string;
  rating: number;
  title: string | null;
  body: string;
  name?: string;
  email?: string | null;
  images: (string | Blob)[];
  publish: boolean;
}

/** An admin writes a review (pending, or published at once). */
export async function adminCreateReview(ctx: ReviewsCtx, input: AdminReviewCreate) {
  return asCreateFailure(ctx, async () => {
    const product = await findReviewableProduct(ctx.db, input.product_id, { visibleOnly: false });
    const images = await resolveImages(ctx, input.images, null, false);
    try {
      const row = await ctx.db.$transaction(async (tx) => {
        const created = await tx.review.create({
          data: {
            rating: input.rating,
            title: input.title,
            body: input.body,
            name: input.name?.trim() || reviewAuthorName({ email: input.email ?? null }),
            email: input.email ?? null,
            images: images.urls,
            status: "pending",
            shopify_product_companion_id: product.companion?.id ?? null,
            product_id: product.id,
            store_id: product.store_id,
            verified_buyer: false,
          },
        });
        if (!input.publish) return findReview(tx, created.id);
        return applyTransition(tx, created, "publish");
      });
      return toAdminReview(row);
    } catch (e) {
      await discardImages(ctx, images.stored);
      throw e;
    }
  });
}

export async function adminUpdateReview(ctx: ReviewsCtx, id: string, patch: { rating?: number; title?: string | null; body?: string; name?: string; email?: string | null }) {
  const row = await ctx.db.$transaction(async (tx) => {
    const current = await findReview(tx, id);
    const updated = await tx.review.update({
      where: { id },
      data: {
        rating: patch.rating,
        title: patch.title,
        body: patch.body,
        name: patch.name,
        email: patch.email,
      },
      include: withProduct,
    });
    if (isPublicStatus(current.status) && patch.rating !== undefined && patch.rating !== current.rating) await recomputeSummariesFor(tx, updated);
    return updated;
  });
  return toAdminReview(row);
}

/** Applies a status change allowed by the table; refused ones are 409s with the table's message. */
async function applyTransition(tx: Tx, review: Review, action: Exclude<ModerationAction, "delete">) {
  const t = transition(review.status, action);
  if (!t.ok) throw conflict(t.message);
  const to = t.to as "approved" | "rejected";
  const changed = await tx.review.updateMany({
    where: { id: review.id, status: review.status },
    data: { status: to, ...(to === "approved" ? { published_at: new Date() } : {}) },
  });
  if (changed.count !== 1) throw conflict("This review was changed by someone else; reload and try again");
  if (isPublicStatus(to) !== isPublicStatus(review.status)) await recomputeSummariesFor(tx, review);
  return findReview(tx, review.id);
}

/** Publish or reject; an unknown review answers null (SPEC §8 "review moderation return null"). */
export async function moderateReview(ctx: ReviewsCtx, id: string, action: "publish" | "reject") {
  const row = await ctx.db.$transaction(async (tx) => {
    const review = await tx.review.findUnique({ where: { id } });
    if (!review) return null;
    return applyTransition(tx, review, action);
  });
  return row ? toAdminReview(row) : null;
}

/** Deletes a review in any status; false when there is none (SPEC §8). */
export async function adminDeleteReview(ctx: ReviewsCtx, id: string): Promise<boolean> {
  const deleted = await ctx.db.$transaction(async (tx) => {
    const review = await tx.review.findUnique({ where: { id } });
    if (!review) return null;
    const t = transition(review.status, "delete");
    if (!t.ok) throw conflict(t.message);
    await tx.review.delete({ where: { id } });
    if (isPublicStatus(review.status)) await recomputeSummariesFor(tx, review);
    return review;
  });
  if (!deleted) return false;
  await discardImages(ctx, deleted.images);
  return true;
}

export async function adminAddImage(ctx: ReviewsCtx, id: string, input: { image?: Blob; url?: string }) {
  const review = await findReview(ctx.db, id);
  if (review.images.length >= REVIEW_MAX_IMAGES) throw conflict(`A review has at most ${REVIEW_MAX_IMAGES} photos: remove one first`);
  let url: string;
  let stored: string | null = null;
  if (input.image) {
    url = (await storeReviewImage(ctx, input.image, null)).url;
    stored = url;
  } else {
    url = input.url!.trim();
    if (review.images.includes(url)) throw conflict("This photo is already on the review");
    await checkImageUrls(ctx.db, [url], { exceptReviewId: id });
  }
  try {
    const changed = await ctx.db.review.updateMany({ where: { id, updated_at: review.updated_at }, data: { images: { push: url } } });
    if (changed.count !== 1) throw conflict("This review was changed by someone else; reload and try again");
  } catch (e) {
    if (stored) await discardImages(ctx, [stored]);
    throw e;
  }
  return toAdminReview(await findReview(ctx.db, id));
}

export async function adminRemoveImage(ctx: ReviewsCtx, id: string, url: string) {
  const review = await findReview(ctx.db, id);
  if (!review.images.includes(url)) throw notFound("This photo is not on the review");
  const changed = await ctx.db.review.updateMany({ where: { id, updated_at: review.updated_at }, data: { images: review.images.filter((u) => u !== url) } });
  if (changed.count !== 1) throw conflict("This review was changed by someone else; reload and try again");
  await discardImages(ctx, [url]);
  return toAdminReview(await findReview(ctx.db, id));
}
