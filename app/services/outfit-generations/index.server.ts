/**
 * Outfit generation on a clone (contract: app/contract/outfit-generations.ts; SPEC §3, §4).
 *
 * Starting one writes an `outfits` row (source "generated", the caller's) with the garments in
 * dressing order (./state.ts) and starts the image-AI try-on (`vton-flux`) of the first garment on
 * the clone's photo. Each garment is its own image-AI request, run by the image-AI worker lane
 * like a try-on (local CPU provider inside the job; fal through its queue, webhook and poll), so
 * the outfit gets fal's retries, timeouts and crash recovery for free. ./image-ai-hooks.server
 * puts the next garment on the previous one's image and moves the status per ./state.ts.
 *
 * Requests carry the target id `<outfit id>:<attempt>:<garment index>`; a retry bumps
 * `generation_attempt`, so results of a run given up cannot touch the new one.
 */
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import type { OutfitGenerationView } from "~/contract/outfit-generations";
import { conflictError, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { startImageAiRequest } from "../image-ai/requests.server";
import { CLONE_FAILED, CLONE_NOT_READY, CLONE_NO_PHOTO, personImageOf, usableClone } from "../tryons/index.server";
import { garmentSelect, garmentImageOf, tryOnCategoryOf, type GarmentRow } from "../tryons/products.server";
import { visibleProductWhere } from "~/lib/visibility";
import { dressingOrder, garmentLayer, isDone, PHASE_FIELDS, transition, type OutfitGenerationState } from "./state";

export const OUTFIT_GENERATION_NOT_FOUND = "Outfit generation not found";
export const LOOK_NOT_FOUND = "Outfit not found";
export const NOTHING_TO_WEAR = "None of these products can be tried on: choose products with try-on";
export const ONLY_FAILED_RETRY = "Only a failed outfit generation can be retried";
export const OUTFIT_TARGET = "outfit" as const;

const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** Shopper-facing failure words (the raw provider error stays on the image request). */
export function outfitErrorMessage(error: string, garmentTitle?: string): string {
  const e = error.trim() || "The image provider failed";
  const text = /cancel/i.test(e) ? "The outfit generation was cancelled" : garmentTitle ? `Could not put on ${garmentTitle}: ${e}` : e;
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

// ---- target ids -------------------------------------------------------------------------------

export function outfitTargetId(outfitId: string, attempt: number, garment: number): string {
  return `${outfitId}:${attempt}:${garment}`;
}

export function parseOutfitTargetId(targetId: string | null): { outfitId: string; attempt: number; garment: number } | null {
  const m = /^([0-9a-f-]{36}):(\d+):(\d+)$/i.exec(targetId ?? "");
  return m ? { outfitId: m[1], attempt: Number(m[2]), garment: Number(m[3]) } : null;
}

// ---- views ------------------------------------------------------------------------------------

const outfitInclude = { clone: { select: { id: true, name: true, profileImageUrl: true, isPublic: true } } } satisfies Prisma.OutfitInclude;
type OutfitRow = Prisma.OutfitGetPayload<{ include: typeof outfitInclude }>;

async function toViews(db: Db, rows: OutfitRow[]): Promise<OutfitGenerationView[]> {
  const ids = [...new Set(rows.flatMap((r) => r.product_ids))];
  const products = ids.length
    ? await db.product.findMany({ where: { id: { in: ids } }, select: { id: true, title: true, handle: true, featuredImageUrl: true, featuredImageAltText: true } })
    : [];
  const byId = new Map(products.map((p) => [p.id, p]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    user_id: r.user_id ?? "",
    clone_id: r.clone_id,
    clone: r.clone,
    source_outfit_id: r.source_outfit_id,
    product_ids: r.product_ids,
    products: r.product_ids.flatMap((id) => {
      const p = byId.get(id);
      return p ? [{ id: p.id, title: p.title, handle: p.handle, featuredImage: p.featuredImageUrl ? { url: p.featuredImageUrl, altText: p.featuredImageAltText } : null }] : [];
    }),
    image_url: r.image_url,
    processing_status: r.processing_status,
    outfit_generation_status: r.outfit_generation_status,
    processing_progress: r.processing_progress,
    error: r.error,
    completed: isDone(r),
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

const ownWhere = (userId: string, id: string): Prisma.OutfitWhereInput => ({ id, user_id: userId, source: "generated" });

async function ownRow(db: Db, userId: string, id: string): Promise<OutfitRow> {
  const row = isUuid(id) ? await db.outfit.findFirst({ where: ownWhere(userId, id), include: outfitInclude }) : null;
  if (!row) throw notFoundError(OUTFIT_GENERATION_NOT_FOUND);
  return row;
}

// ---- garments ---------------------------------------------------------------------------------

export interface Garment {
  product: GarmentRow;
  imageUrl: string;
  category: "tops" | "bottoms" | "one-pieces";
}

/** A product that can be put on a clone now (shown to shoppers, try-on active, a garment image), or null. */
function garmentOf(p: GarmentRow): Garment | null {
  if (!p.companion?.tryon_active) return null;
  const imageUrl = garmentImageOf(p);
  return imageUrl ? { product: p, imageUrl, category: tryOnCategoryOf(p) } : null;
}

export async function loadGarment(db: Db, productId: string): Promise<Garment | null> {
  const p = await db.product.findFirst({ where: { id: productId, ...visibleProductWhere() }, select: garmentSelect });
  return p ? garmentOf(p) : null;
}

/** The wearable products among `ids`, in dressing order. */
async function wearable(db: Db, ids: string[]): Promise<Garment[]> {
  const unique = [...new Set(ids)];
  const rows = await db.product.findMany({ where: { id: { in: unique }, ...visibleProductWhere() }, select: garmentSelect });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const garments = unique.flatMap((id) => {
    const p = byId.get(id);
    const g = p ? garmentOf(p) : null;
    return g ? [{ ...g, layer: garmentLayer(g.product, g.category) }] : [];
  });
  return dressingOrder(garments);
}

/** A curated look shoppers may see (published, not someone's generation). */
async function publishedLook(db: Db, outfitId: string) {
  const look = isUuid(outfitId)
    ? await db.outfit.findFirst({ where: { id: outfitId, source: { in: ["curated", "proposed"] }, status: "published" }, select: { id: true, name: true, product_ids: true } })
    : null;
  if (!look) throw notFoundError(LOOK_NOT_FOUND);
  return look;
}

// ---- start / retry ------------------------------------------------------------------------------

function readyPersonImage(clone: Awaited<ReturnType<typeof usableClone>>): string {
  if (clone.is_product_clone) throw unprocessableError("This clone is a product model: choose a person clone to try clothes on");
  if (clone.processing_status === "ERROR") throw conflictError(CLONE_FAILED);
  if (clone.processing_status !== "READY") throw conflictError(CLONE_NOT_READY);
  const person = personImageOf(clone);
  if (!person) throw unprocessableError(CLONE_NO_PHOTO);
  return person;
}

/** Starts the try-on of garment `index` of the outfit's current run onto `personImageUrl`. */
export async function startGarment(
  ctx: AppContext,
  outfit: { id: string; user_id: string | null; generation_attempt: number },
  index: number,
  garment: Garment,
  personImageUrl: string,
) {
  return startImageAiRequest(ctx, {
    operation: "vton-flux",
    input: { person_image_url: personImageUrl, garment_image_url: garment.imageUrl, category: garment.category },
    userId: outfit.user_id,
    target: { type: OUTFIT_TARGET, id: outfitTargetId(outfit.id, outfit.generation_attempt, index) },
  });
}

export async function startOutfitGeneration(
  ctx: AppContext,
  args: { userId: string; cloneId: string; outfitId?: string; productIds?: string[] },
): Promise<OutfitGenerationView> {
  const clone = await usableClone(ctx.db, args.userId, args.cloneId);
  const look = args.outfitId ? await publishedLook(ctx.db, args.outfitId) : null;
  const person = readyPersonImage(clone);
  const garments = await wearable(ctx.db, look ? look.product_ids : (args.productIds ?? []));
  if (garments.length === 0) throw unprocessableError(NOTHING_TO_WEAR);
  // A provider that cannot do try-ons is refused by startImageAiRequest (501, naming fal) below.
  const name = look?.name ?? (garments.length === 1 ? garments[0].product.title : `${garments[0].product.title} + ${garments.length - 1} more`);
  const row = await ctx.db.outfit.create({
    data: {
      name: name.slice(0, 200),
      user_id: args.userId,
      clone_id: clone.id,
      source: "generated",
      source_outfit_id: look?.id ?? null,
      product_ids: garments.map((g) => g.product.id),
      ...PHASE_FIELDS.queued,
      processing_progress: 0,
    },
  });
  try {
    await startGarment(ctx, row, 0, garments[0], person);
  } catch (e) {
    // Nothing would ever run for it: leave no queued outfit behind.
    await ctx.db.outfit.delete({ where: { id: row.id } }).catch(() => undefined);
    throw e;
  }
  ctx.log.info({ outfitId: row.id, cloneId: clone.id, garments: garments.length, look: look?.id }, "outfit generation started");
  return getOutfitGeneration(ctx.db, args.userId, row.id);
}

/** A failed generation starts again from its first garment (a new run: the old one's results are ignored). */
export async function retryOutfitGeneration(ctx: AppContext, userId: string, id: string): Promise<OutfitGenerationView> {
  const row = await ownRow(ctx.db, userId, id);
  let next: OutfitGenerationState;
  try {
    next = transition(row, { type: "retry" });
  } catch {
    throw conflictError(ONLY_FAILED_RETRY);
  }
  if (!row.clone_id) throw conflictError("The clone of this outfit was deleted: start a new outfit with another clone");
  const clone = await usableClone(ctx.db, userId, row.clone_id);
  const person = readyPersonImage(clone);
  const first = row.product_ids[0] ? await loadGarment(ctx.db, row.product_ids[0]) : null;
  if (!first) throw unprocessableError(NOTHING_TO_WEAR);
  const attempt = row.generation_attempt + 1;
  const won = await ctx.db.outfit.updateMany({
    where: { id: row.id, generation_attempt: row.generation_attempt, ...PHASE_FIELDS.failed },
    data: { ...next, generation_attempt: attempt, error: null, image_url: null },
  });
  if (won.count === 0) throw conflictError(ONLY_FAILED_RETRY);
  try {
    await startGarment(ctx, { id: row.id, user_id: row.user_id, generation_attempt: attempt }, 0, first, person);
  } catch (e) {
    await ctx.db.outfit.updateMany({
      where: { id: row.id, generation_attempt: attempt },
      data: { ...PHASE_FIELDS.failed, error: outfitErrorMessage(e instanceof Error ? e.message : String(e)) },
    });
    throw e;
  }
  return getOutfitGeneration(ctx.db, userId, row.id);
}

// ---- reads / delete ---------------------------------------------------------------------------

export async function getOutfitGeneration(db: Db, userId: string, id: string): Promise<OutfitGenerationView> {
  return (await toViews(db, [await ownRow(db, userId, id)]))[0];
}

export async function listOutfitGenerations(db: Db, userId: string, q: { skip: number; take: number }) {
  const where: Prisma.OutfitWhereInput = { user_id: userId, source: "generated" };
  const [rows, total] = await Promise.all([
    db.outfit.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: q.skip, take: q.take, include: outfitInclude }),
    db.outfit.count({ where }),
  ]);
  return { outfits: await toViews(db, rows), total };
}

export async function deleteOutfitGeneration(db: Db, userId: string, id: string) {
  const row = await ownRow(db, userId, id);
  // The hooks find no row and stop: a garment already at the provider finishes there unused.
  await db.outfit.delete({ where: { id: row.id } });
  return { deleted: true as const, id: row.id };
}

/**
 * The status of one of the caller's generations (`outfitId`), or of their newest one; null when
 * there is none or it is not theirs (SPEC §8: outfit status failure returns null).
 */
export async function outfitGenerationStatus(db: Db, userId: string, outfitId?: string) {
  if (outfitId !== undefined && !isUuid(outfitId)) return null;
  const row = await db.outfit.findFirst({
    where: { user_id: userId, source: "generated", ...(outfitId ? { id: outfitId } : {}) },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
  });
  if (!row) return null;
  return {
    processing_status: row.processing_status,
    outfit_generation_status: row.outfit_generation_status,
    processing_progress: row.processing_progress,
    outfit_id: row.id,
    image_url: row.image_url,
    error: row.error,
    completed: isDone(row),
  };
}

/**
 * GET /clones/outfit-generation-status: a generated outfit's status when `outfit_id` is given;
 * a clone's training status when `clone_id` is (unchanged); with neither, the caller's newest
 * generated outfit, else (as before issue 19) their newest clone. A failure answers null (SPEC §8).
 */
export async function outfitOrCloneStatus<T>(
  ctx: Pick<AppContext, "db" | "log">,
  query: { outfit_id?: string; clone_id?: string },
  cloneStatus: () => Promise<T>,
  userId: string,
) {
  try {
    if (query.outfit_id || !query.clone_id) {
      const own = await outfitGenerationStatus(ctx.db, userId, query.outfit_id);
      if (own || query.outfit_id) return own;
    }
    return await cloneStatus();
  } catch (e) {
    ctx.log.warn({ err: e, query }, "outfit generation status failed");
    return null;
  }
}
