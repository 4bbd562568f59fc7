/**
 * Proposed variant images: proposals of a new image for one product variant, reviewed by admins.
 * Approval writes the image to the variant through the commerce port (`setVariantImage`: the
 * store's product media), then brings the read model in step. Contract:
 * app/contract/proposed-variant-images.ts; decisions: docs/proposed-variant-images.md.
 */
import crypto from "node:crypto";
import { Prisma, type ProposalStatus } from "@prisma/client";
import { conflictError, domainErrorOfStatus, invalid, notFoundError, unprocessableError, unsupportedMedia } from "~/lib/domain-errors";
import { toApiError } from "~/api/router.server";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { Messages } from "~/contract/messages";
import type { ProposedVariantImage } from "~/contract/proposed-variant-images";
import { toProductGid, toVariantGid } from "~/lib/gid";
import { recomputeProductAggregates } from "~/providers/commerce/local.server";
import { IMAGE_FETCH_MAX_BYTES, ImageSourceError, fetchPublicImage, ownStorageKey, type FetchPolicy } from "~/lib/image-source.server";
import { processImage, sniffType } from "./uploaded-images.server";
import { PRODUCT_NOT_FOUND, commerceFailure } from "./catalog.server";

export type ProposalCtx = Pick<AppContext, "db" | "commerce" | "storage" | "config" | "log">;
type Tx = Prisma.TransactionClient;

export const PROPOSAL_NOT_FOUND = "Proposed variant image not found";
export const PROPOSAL_IMAGE_PREFIX = "images/proposed-variant-images/";
const APPROVED_IS_FINAL = "This proposal is approved: its image is on the variant. Propose another image instead";

// ---------------------------------------------------------------------------------------------
// Shapes

const include = {
  product: { select: { id: true, title: true, handle: true, status: true, featuredImageUrl: true, featuredImageAltText: true } },
  variant: { select: { id: true, title: true, image_url: true, selectedOptions: true, color_hex: true, position: true } },
} satisfies Prisma.ProposedVariantImageInclude;
type Row = Prisma.ProposedVariantImageGetPayload<{ include: typeof include }>;
type BareRow = Prisma.ProposedVariantImageGetPayload<object>;

const asOptions = (v: Prisma.JsonValue): { name: string; value: string }[] =>
  Array.isArray(v) ? v.filter((o): o is { name: string; value: string } => !!o && typeof o === "object" && "name" in o && "value" in o).map((o) => ({ name: String(o.name), value: String(o.value) })) : [];

type ProductPick = Row["product"];
type VariantPick = Row["variant"];

export const toProposalProduct = (p: ProductPick) => ({
  id: p.id,
  title: p.title,
  handle: p.handle,
  status: p.status,
  featuredImage: p.featuredImageUrl ? { url: p.featuredImageUrl, altText: p.featuredImageAltText } : null,
});

export const toProposalVariant = (v: VariantPick) => ({
  id: v.id,
  title: v.title,
  image_url: v.image_url,
  selectedOptions: asOptions(v.selectedOptions),
  color_hex: v.color_hex,
  position: v.position,
});

function bare(r: BareRow) {
  return {
    id: r.id,
    product_id: r.product_id,
    variant_id: r.variant_id,
    current_image_url: r.current_image_url,
    proposed_image_url: r.proposed_image_url,
    source: r.source,
    status: r.status,
    reviewer_id: r.reviewer_id,
    reviewed_at: r.reviewed_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function toProposal(r: Row): ProposedVariantImage {
  return { ...bare(r), reviewed_at: r.reviewed_at?.toISOString() ?? null, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString(), product: toProposalProduct(r.product), variant: toProposalVariant(r.variant) };
}

async function load(db: Db | Tx, id: string): Promise<Row> {
  const row = await db.proposedVariantImage.findUnique({ where: { id }, include });
  if (!row) throw notFoundError(PROPOSAL_NOT_FOUND);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Reads

export interface ProposalListFilters {
  status?: ProposalStatus;
  source?: string;
  product_id?: string;
  q?: string;
}

function whereOf(f: ProposalListFilters): Prisma.ProposedVariantImageWhereInput {
  const and: Prisma.ProposedVariantImageWhereInput[] = [];
  if (f.status) and.push({ status: f.status });
  if (f.source) and.push({ source: f.source });
  if (f.product_id) and.push({ product_id: toProductGid(f.product_id) });
  if (f.q) {
    const contains = { contains: f.q, mode: "insensitive" as const };
    and.push({ OR: [{ product: { title: contains } }, { product: { handle: contains } }, { variant: { title: contains } }, { product_id: f.q }] });
  }
  return { AND: and };
}

export async function listProposals(db: Db, q: ProposalListFilters & { page: number; limit: number; sort: "newest" | "oldest" }) {
  const where = whereOf(q);
  const dir = q.sort === "oldest" ? "asc" : "desc";
  const [total, rows] = await Promise.all([
    db.proposedVariantImage.count({ where }),
    db.proposedVariantImage.findMany({ where, include, orderBy: [{ created_at: dir }, { id: "asc" }], skip: (q.page - 1) * q.limit, take: q.limit }),
  ]);
  return { items: rows.map(toProposal), page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) };
}

export async function getProposal(db: Db, id: string) {
  return toProposal(await load(db, id));
}

const zeroCounts = () => ({ pending: 0, approved: 0, rejected: 0 });

export async function proposalsByProduct(db: Db, rawProductId: string, status?: ProposalStatus) {
  const id = toProductGid(rawProductId);
  const product = await db.product.findUnique({
    where: { id },
    select: {
      ...include.product.select,
      variants: { select: include.variant.select, orderBy: [{ position: "asc" }, { id: "asc" }] },
    },
  });
  if (!product) throw notFoundError(PRODUCT_NOT_FOUND);
  const [rows, grouped] = await Promise.all([
    db.proposedVariantImage.findMany({ where: { product_id: id, ...(status ? { status } : {}) }, orderBy: [{ created_at: "desc" }, { id: "asc" }] }),
    db.proposedVariantImage.groupBy({ by: ["status"], where: { product_id: id }, _count: { _all: true } }),
  ]);
  const counts = zeroCounts();
  for (const g of grouped) counts[g.status] = g._count._all;
  return {
    product: toProposalProduct(product),
    counts,
    variants: product.variants.map((v) => ({
      ...toProposalVariant(v),
      proposals: rows.filter((r) => r.variant_id === v.id).map(bare),
    })),
  };
}

const dayKey = (d: Date) => d.toISOString().slice(0, 10);
/** A UTC instant as the `timestamp` (without time zone) text Prisma stores. */
const pgTimestamp = (d: Date) => d.toISOString().slice(0, 23).replace("T", " ");

export async function proposalStats(db: Db, days: number) {
  const today = new Date();
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (days - 1)));
  const since = pgTimestamp(start);
  const [bySourceStatus, pendingProducts, created, reviewed] = await Promise.all([
    db.proposedVariantImage.groupBy({ by: ["source", "status"], _count: { _all: true } }),
    db.$queryRaw<{ n: number }[]>`SELECT count(DISTINCT product_id)::int AS n FROM proposed_variant_images WHERE status = 'pending'`,
    db.$queryRaw<{ day: string; n: number }[]>`
      SELECT to_char(created_at, 'YYYY-MM-DD') AS day, count(*)::int AS n
      FROM proposed_variant_images WHERE created_at >= ${since}::timestamp GROUP BY 1`,
    db.$queryRaw<{ day: string; status: string; n: number }[]>`
      SELECT to_char(reviewed_at, 'YYYY-MM-DD') AS day, status::text AS status, count(*)::int AS n
      FROM proposed_variant_images WHERE reviewed_at >= ${since}::timestamp AND status <> 'pending' GROUP BY 1, 2`,
  ]);
  const byStatus = zeroCounts();
  const sources = new Map<string, ReturnType<typeof zeroCounts>>();
  for (const g of bySourceStatus) {
    byStatus[g.status] += g._count._all;
    const s = sources.get(g.source) ?? zeroCounts();
    s[g.status] += g._count._all;
    sources.set(g.source, s);
  }
  const total = byStatus.pending + byStatus.approved + byStatus.rejected;
  const reviewedTotal = byStatus.approved + byStatus.rejected;
  const daily = Array.from({ length: days }, (_, i) => {
    const date = dayKey(new Date(start.getTime() + i * 86_400_000));
    return {
      date,
      proposed: created.find((c) => c.day === date)?.n ?? 0,
      approved: reviewed.find((r) => r.day === date && r.status === "approved")?.n ?? 0,
      rejected: reviewed.find((r) => r.day === date && r.status === "rejected")?.n ?? 0,
    };
  });
  return {
    total,
    byStatus,
    bySource: [...sources]
      .map(([source, c]) => ({ source, ...c, total: c.pending + c.approved + c.rejected }))
      .sort((a, b) => b.total - a.total || a.source.localeCompare(b.source)),
    productsWithPending: pendingProducts[0]?.n ?? 0,
    approvalRate: reviewedTotal ? Math.round((byStatus.approved / reviewedTotal) * 1000) / 1000 : null,
    days,
    daily,
  };
}

/**
 * The review screen's page: products that have proposals matching the filters (the product with
 * the newest matching proposal first), each with those proposals in variant order.
 */
export async function listProposalGroups(db: Db, q: ProposalListFilters & { page: number; pageSize: number }) {
  const where = whereOf(q);
  const [groupCount, groups] = await Promise.all([
    db.proposedVariantImage.groupBy({ by: ["product_id"], where }).then((g) => g.length),
    db.proposedVariantImage.groupBy({
      by: ["product_id"],
      where,
      _max: { created_at: true },
      orderBy: [{ _max: { created_at: "desc" } }, { product_id: "asc" }],
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
    }),
  ]);
  const ids = groups.map((g) => g.product_id);
  const rows = ids.length ? await db.proposedVariantImage.findMany({ where: { AND: [where, { product_id: { in: ids } }] }, include, orderBy: [{ created_at: "desc" }, { id: "asc" }] }) : [];
  return {
    page: q.page,
    pageSize: q.pageSize,
    totalProducts: groupCount,
    pages: Math.max(1, Math.ceil(groupCount / q.pageSize)),
    groups: ids.map((id) => {
      const mine = rows.filter((r) => r.product_id === id).sort((a, b) => a.variant.position - b.variant.position || b.created_at.getTime() - a.created_at.getTime());
      return { product: toProposalProduct(mine[0].product), proposals: mine.map(toProposal) };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// The proposed image: ours, or copied into our storage

/**
 * Checks a proposed image URL and answers the URL the proposal keeps:
 * - one of our uploads (`/uploads/<key>` or that path under APP_URL) must exist and be an image;
 * - an http(s) URL elsewhere is downloaded (public addresses only, 10 MB, 10 s), checked and
 *   normalised (JPEG, metadata dropped) and stored as `images/proposed-variant-images/<sha256>.jpg`,
 *   so the same picture proposed twice is one file.
 */
export async function intakeProposedImage(ctx: Pick<AppContext, "storage" | "config">, raw: string, policy: FetchPolicy = {}): Promise<string> {
  const url = raw.trim();
  const key = ownStorageKey(ctx, url);
  if (key) {
    const bytes = await ctx.storage.get(key).catch(() => null);
    if (!bytes) throw unprocessableError(`proposed_image_url: ${url} was not found in our storage`);
    const kind = sniffType(bytes);
    if (!kind || kind === "video") throw unsupportedMedia(`proposed_image_url: ${url} is not an image (JPEG, PNG or WebP)`);
    return ctx.storage.publicUrl(key);
  }
  if (url.startsWith("/")) throw invalid("proposed_image_url: a relative URL must point to our uploads (/uploads/…)");
  let bytes: Uint8Array;
  try {
    bytes = (await fetchPublicImage(url, { maxBytes: IMAGE_FETCH_MAX_BYTES, ...policy })).bytes;
  } catch (e) {
    if (e instanceof ImageSourceError) throw domainErrorOfStatus(e.status, `proposed_image_url: ${e.message}`);
    throw e;
  }
  return storeImageBytes(ctx, bytes);
}

/** Checks image bytes (type, size, pixels), normalises them to JPEG and stores them by content hash. */
export async function storeImageBytes(ctx: Pick<AppContext, "storage">, bytes: Uint8Array): Promise<string> {
  const hash = crypto.createHash("sha256").update(bytes).digest("hex");
  const key = `${PROPOSAL_IMAGE_PREFIX}${hash}.jpg`;
  if (await ctx.storage.get(key).catch(() => null)) return ctx.storage.publicUrl(key);
  const image = await processImage(bytes);
  const stored = await ctx.storage.put(key, image.jpeg, "image/jpeg");
  return stored.url;
}

/** The URL the store can fetch: our paths become absolute under APP_URL for the Shopify adapter. */
function storeFacingUrl(ctx: ProposalCtx, url: string): string {
  if (ctx.commerce.kind === "local" || !url.startsWith("/")) return url;
  const base = ctx.config.APP_URL ?? ctx.config.SHOPIFY_APP_URL;
  if (!base) throw unprocessableError("The store cannot fetch the image: set APP_URL (or SHOPIFY_APP_URL) to the app's public address");
  return new URL(url, base).href;
}

/** Deletes a stored proposal image when nothing uses it any more (no proposal, variant or product image). */
async function releaseImage(ctx: Pick<AppContext, "db" | "storage" | "config" | "log">, url: string) {
  const key = ownStorageKey(ctx, url);
  if (!key || !key.startsWith(PROPOSAL_IMAGE_PREFIX)) return;
  const [proposals, variants, images] = await Promise.all([
    ctx.db.proposedVariantImage.count({ where: { proposed_image_url: url } }),
    ctx.db.productVariant.count({ where: { image_url: url } }),
    ctx.db.productImage.count({ where: { url } }),
  ]);
  if (proposals + variants + images > 0) return;
  await ctx.storage.delete(key).catch((e: unknown) => ctx.log.warn({ err: e, key }, "could not delete a proposal image"));
}

// ---------------------------------------------------------------------------------------------
// Writes

async function assertNotDuplicate(db: Db, variantId: string, url: string, exceptId?: string) {
  const dup = await db.proposedVariantImage.findFirst({ where: { variant_id: variantId, proposed_image_url: url, status: "pending", ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { id: true } });
  if (dup) throw conflictError(`This image is already proposed for this variant (pending proposal ${dup.id})`);
}

export async function createProposal(ctx: ProposalCtx, body: { product_id: string; variant_id: string; proposed_image_url: string; source: string }, opts: { fetchPolicy?: FetchPolicy } = {}) {
  const productId = toProductGid(body.product_id);
  const variantId = toVariantGid(body.variant_id);
  const product = await ctx.db.product.findUnique({ where: { id: productId }, select: { id: true } });
  if (!product) throw notFoundError(PRODUCT_NOT_FOUND);
  const variant = await ctx.db.productVariant.findUnique({ where: { id: variantId }, select: { id: true, product_id: true, image_url: true } });
  if (!variant) throw notFoundError(`Variant ${variantId} not found`);
  if (variant.product_id !== productId) throw unprocessableError(`Variant ${variantId} is not a variant of this product`);
  const url = await intakeProposedImage(ctx, body.proposed_image_url, opts.fetchPolicy);
  if (url === variant.image_url) throw unprocessableError("This image is already the variant's image");
  await assertNotDuplicate(ctx.db, variantId, url);
  const row = await ctx.db.proposedVariantImage.create({
    data: { product_id: productId, variant_id: variantId, current_image_url: variant.image_url, proposed_image_url: url, source: body.source },
    include,
  });
  return toProposal(row);
}

export async function rejectProposal(ctx: Pick<AppContext, "db">, id: string, reviewerId: string | null) {
  const row = await load(ctx.db, id);
  if (row.status === "approved") throw conflictError(APPROVED_IS_FINAL);
  if (row.status === "rejected") return toProposal(row); // already rejected: nothing to do
  const r = await ctx.db.proposedVariantImage.updateMany({ where: { id, status: "pending" }, data: { status: "rejected", reviewer_id: reviewerId, reviewed_at: new Date() } });
  if (!r.count) throw conflictError("This proposal was reviewed by someone else in the meantime; reload it");
  return toProposal(await load(ctx.db, id));
}

/**
 * Approves a proposal: claims it (pending or rejected → approved, so two reviewers cannot both
 * write), writes the image to the variant through the commerce port, brings the read model in
 * step, and rejects the variant's other pending proposals. If the store refuses, the claim is
 * undone and the store's reason is answered ("Failed to append media to variant").
 */
export async function approveProposal(ctx: ProposalCtx, id: string, reviewerId: string | null) {
  const row = await load(ctx.db, id);
  if (row.status === "approved") throw conflictError("This proposal is already approved");
  const before = { status: row.status, reviewer_id: row.reviewer_id, reviewed_at: row.reviewed_at, current_image_url: row.current_image_url };
  const claimed = await ctx.db.proposedVariantImage.updateMany({
    where: { id, status: row.status },
    data: { status: "approved", reviewer_id: reviewerId, reviewed_at: new Date(), current_image_url: row.variant.image_url },
  });
  if (!claimed.count) throw conflictError("This proposal was reviewed by someone else in the meantime; reload it");

  let result: { mediaId: string; imageUrl: string };
  try {
    const url = storeFacingUrl(ctx, row.proposed_image_url);
    const altText = row.variant.title && row.variant.title !== "Default Title" ? `${row.product.title} – ${row.variant.title}` : row.product.title;
    result = await ctx.commerce.setVariantImage(row.product_id, row.variant_id, { url, altText });
  } catch (e) {
    await ctx.db.proposedVariantImage.update({ where: { id }, data: before }).catch(() => undefined);
    ctx.log.warn({ err: e, proposalId: id }, "approving a proposed variant image failed");
    commerceFailure(e, Messages.FAILED_TO_APPEND_VARIANT_MEDIA);
  }

  // The read model: with the local adapter the store IS the read model (these writes change
  // nothing); with Shopify the variant now shows the new media, which the product webhook would
  // bring later — write it now so the screens show it at once.
  await ctx.db.$transaction(async (tx) => {
    const media = await tx.productImage.findUnique({ where: { id: result.mediaId }, select: { id: true } });
    if (!media) {
      const last = await tx.productImage.aggregate({ where: { product_id: row.product_id }, _max: { position: true } });
      await tx.productImage.create({ data: { id: result.mediaId, product_id: row.product_id, url: result.imageUrl, altText: row.product.title, position: (last._max.position ?? -1) + 1 } });
    }
    await tx.productVariant.update({ where: { id: row.variant_id }, data: { image_url: result.imageUrl } });
    await recomputeProductAggregates(tx, row.product_id);
  });
  await ctx.db.proposedVariantImage.updateMany({
    where: { variant_id: row.variant_id, status: "pending", id: { not: id } },
    data: { status: "rejected", reviewer_id: reviewerId, reviewed_at: new Date() },
  });
  return toProposal(await load(ctx.db, id));
}

export async function updateProposal(
  ctx: ProposalCtx,
  id: string,
  body: { proposed_image_url?: string; status?: ProposalStatus; source?: string },
  reviewerId: string | null,
  opts: { fetchPolicy?: FetchPolicy } = {},
) {
  const row = await load(ctx.db, id);
  if (row.status === "approved") throw conflictError(body.status === "approved" ? "This proposal is already approved" : APPROVED_IS_FINAL);
  const data: Prisma.ProposedVariantImageUncheckedUpdateInput = {};
  let replacedUrl: string | null = null;
  if (body.proposed_image_url !== undefined) {
    const url = await intakeProposedImage(ctx, body.proposed_image_url, opts.fetchPolicy);
    if (url !== row.proposed_image_url) {
      if (url === row.variant.image_url) throw unprocessableError("This image is already the variant's image");
      await assertNotDuplicate(ctx.db, row.variant_id, url, id);
      data.proposed_image_url = url;
      replacedUrl = row.proposed_image_url;
    }
  }
  if (body.source !== undefined) data.source = body.source;
  if (body.status === "rejected" && row.status !== "rejected") Object.assign(data, { status: "rejected", reviewer_id: reviewerId, reviewed_at: new Date() });
  if (body.status === "pending" && row.status !== "pending") {
    await assertNotDuplicate(ctx.db, row.variant_id, (data.proposed_image_url as string | undefined) ?? row.proposed_image_url, id);
    Object.assign(data, { status: "pending", reviewer_id: null, reviewed_at: null, current_image_url: row.variant.image_url });
  }
  if (Object.keys(data).length) {
    const r = await ctx.db.proposedVariantImage.updateMany({ where: { id, status: row.status }, data });
    if (!r.count) throw conflictError("This proposal was reviewed by someone else in the meantime; reload it");
  }
  if (replacedUrl) await releaseImage(ctx, replacedUrl);
  if (body.status === "approved") return approveProposal(ctx, id, reviewerId);
  return toProposal(await load(ctx.db, id));
}

export async function deleteProposal(ctx: ProposalCtx, id: string) {
  const row = await ctx.db.proposedVariantImage.findUnique({ where: { id }, select: { id: true, proposed_image_url: true } });
  if (!row) throw notFoundError(PROPOSAL_NOT_FOUND);
  await ctx.db.proposedVariantImage.deleteMany({ where: { id } });
  await releaseImage(ctx, row.proposed_image_url);
  return { ok: true as const };
}

/**
 * Approves or rejects several proposals, one after another (approvals of one product must not
 * race in the store), answering per id. Two proposals for the same variant in one approval: the
 * first is approved, the later ones fail (a variant shows one image).
 */
export async function bulkReview(ctx: ProposalCtx, action: "approve" | "reject", rawIds: string[], reviewerId: string | null) {
  const ids = [...new Set(rawIds)];
  const variantOf = new Map((await ctx.db.proposedVariantImage.findMany({ where: { id: { in: ids } }, select: { id: true, variant_id: true } })).map((r) => [r.id, r.variant_id]));
  const approvedVariants = new Set<string>();
  const results: { id: string; ok: boolean; status: ProposalStatus | null; error: { status: number; message: string } | null }[] = [];
  for (const id of ids) {
    try {
      const variantId = variantOf.get(id);
      if (action === "approve" && variantId && approvedVariants.has(variantId)) {
        throw conflictError("Another proposal for the same variant was approved in this request");
      }
      const r = action === "approve" ? await approveProposal(ctx, id, reviewerId) : await rejectProposal(ctx, id, reviewerId);
      if (action === "approve" && variantId) approvedVariants.add(variantId);
      results.push({ id, ok: true, status: r.status, error: null });
    } catch (e) {
      const err = toApiError(e);
      if (err.status >= 500 && err.status !== 503) ctx.log.error({ err: e, proposalId: id }, "bulk review failed");
      const current = await ctx.db.proposedVariantImage.findUnique({ where: { id }, select: { status: true } });
      results.push({ id, ok: false, status: current?.status ?? null, error: { status: err.status, message: err.message } });
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { action, succeeded, failed: results.length - succeeded, results };
}
