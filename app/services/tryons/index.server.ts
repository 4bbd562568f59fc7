/**
 * Try-ons (SPEC §3 Try-on, Virtual try-on request; §7 Try-ons, Virtual try-on, /clones/{id}/tryons).
 *
 * A try-on is one product (its garment image, ./products.server) on one clone (the caller's own or
 * a public house model, ready). Starting one creates the TryOn row (queued) and an image-AI
 * request `vton-flux` targeted at it; ./image-ai-hooks.server moves the row through processing →
 * completed (GeneratedImage rows) or failed.
 *
 * get-or-generate: the same inputs (clone, product, enable_add_details, prompt_strength; hashed
 * into `input_hash`) give back the caller's latest try-on unless it failed; `force` always starts
 * a new one. Identical calls at the same instant are serialised (a transaction-scoped advisory
 * lock on caller + input hash), so they start one try-on and all answer it. Every read is scoped
 * to the caller: another shopper's try-on is 404 like a missing one.
 */
import { createHash } from "node:crypto";
import type { Clone, Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import { ApiError, badRequest, conflict, notFound, unprocessable } from "~/api/errors.server";
import { TRYONS_DEFAULT_PROMPT_STRENGTH, type TryOnView } from "~/contract/tryons";
import { ownStorageKey } from "~/lib/image-source.server";
import { startImageAiRequest, supportsOperation } from "../image-ai/requests.server";
import { eligibleGarment } from "./products.server";
import { bumpProductDay } from "../vendor-stats/daily-stats.server";

export type { TryOnView };

export const TRYON_NOT_FOUND = "Try-on not found";
export const CLONE_NOT_FOUND = "Clone not found";
export const CLONE_NOT_READY = "This clone is still being prepared";
export const CLONE_FAILED = "This clone's training failed: train it again or choose another clone";
export const CLONE_NO_PHOTO = "This clone has no photo to try clothes on";
export const TRYON_IMAGE_NOT_FOUND = "Try-on image not found";

// ---- views ---------------------------------------------------------------------------------

export const tryOnInclude = {
  generated_images: { select: { id: true, image_url: true, width: true, height: true }, orderBy: [{ created_at: "asc" }, { id: "asc" }] },
  product: { select: { id: true, title: true, handle: true, productType: true, featuredImageUrl: true, featuredImageAltText: true } },
  clone: { select: { id: true, name: true, profileImageUrl: true, isPublic: true } },
} satisfies Prisma.TryOnInclude;
export type TryOnRow = Prisma.TryOnGetPayload<{ include: typeof tryOnInclude }>;

export function toTryOnView(t: TryOnRow, requestId?: string | null): TryOnView {
  return {
    id: t.id,
    user_id: t.user_id,
    clone_id: t.clone_id,
    product_id: t.product_id,
    status: t.status,
    progress: t.progress,
    error: t.error,
    enable_add_details: t.enable_add_details,
    prompt_strength: t.prompt_strength,
    generated_images: t.generated_images,
    created_at: t.created_at,
    updated_at: t.updated_at,
    completed_at: t.completed_at,
    product: t.product
      ? {
          id: t.product.id,
          title: t.product.title,
          handle: t.product.handle,
          productType: t.product.productType,
          featuredImage: t.product.featuredImageUrl ? { url: t.product.featuredImageUrl, altText: t.product.featuredImageAltText } : null,
        }
      : null,
    clone: t.clone,
    request_id: requestId ?? null,
  };
}

/** The image request of a try-on's latest attempt. */
const REQUEST_WAIT_STEP_MS = 50;
const REQUEST_WAIT_MAX_MS = 2000;

async function latestRequestId(db: Db, tryonId: string): Promise<string | null> {
  const r = await db.imageAiRequest.findFirst({
    where: { target_type: "tryon", target_id: tryonId },
    orderBy: { created_at: "desc" },
    select: { id: true },
  });
  return r?.id ?? null;
}

const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

// ---- clones ---------------------------------------------------------------------------------

/** A clone the user may try clothes on: their own or a public one (404 otherwise, never 403). */
export async function usableClone(db: Db, userId: string, cloneId: string): Promise<Clone> {
  const clone = isUuid(cloneId)
    ? await db.clone.findFirst({ where: { id: cloneId, OR: [{ user_id: userId }, { isPublic: true }] } })
    : null;
  if (!clone) throw notFound(CLONE_NOT_FOUND);
  return clone;
}

function stringsOf(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.length > 0) : [];
}

/**
 * The photo of the clone a garment goes onto: the first photo training accepted (attributes
 * `prepared` [{image_url, ok}], or `usableImageUrls`), else the first base image, else the profile
 * image.
 */
export function personImageOf(clone: Pick<Clone, "attributes" | "baseImageUrls" | "profileImageUrl">): string | null {
  const attrs = clone.attributes && typeof clone.attributes === "object" && !Array.isArray(clone.attributes) ? (clone.attributes as Record<string, unknown>) : {};
  if (typeof attrs.person_image_url === "string" && attrs.person_image_url) return attrs.person_image_url;
  const prepared = Array.isArray(attrs.prepared) ? (attrs.prepared as unknown[]) : [];
  for (const p of prepared) {
    if (p && typeof p === "object" && (p as { ok?: unknown }).ok === true && typeof (p as { image_url?: unknown }).image_url === "string") {
      return (p as { image_url: string }).image_url;
    }
  }
  const usable = stringsOf(attrs.usableImageUrls);
  if (usable[0]) return usable[0];
  return clone.baseImageUrls[0] ?? clone.profileImageUrl ?? null;
}

function assertCloneReady(clone: Clone): string {
  if (clone.is_product_clone) throw unprocessable("This clone is a product model: choose a person clone to try clothes on");
  if (clone.processing_status === "ERROR") throw conflict(CLONE_FAILED);
  if (clone.processing_status !== "READY") throw conflict(CLONE_NOT_READY);
  const person = personImageOf(clone);
  if (!person) throw unprocessable(CLONE_NO_PHOTO);
  return person;
}

// ---- start (get-or-generate / generate) -------------------------------------------------------

export function tryOnInputHash(a: { cloneId: string; productId: string; enableAddDetails: boolean; promptStrength: number }): string {
  return createHash("sha256")
    .update(JSON.stringify(["tryon.v1", a.cloneId, a.productId, a.enableAddDetails, Number(a.promptStrength.toFixed(4))]))
    .digest("hex");
}

/**
 * Starts a try-on, or (without `force`) answers the caller's latest one for the same inputs unless
 * it failed. Checks: the clone is usable (404) and ready (409), the product eligible (404/422), the
 * provider can do try-ons (501, before anything is written).
 */
export async function startTryOn(
  ctx: AppContext,
  args: { userId: string; cloneId: string; productId: string; enableAddDetails?: boolean; promptStrength?: number; force?: boolean },
): Promise<TryOnView> {
  const enableAddDetails = args.enableAddDetails ?? true;
  const promptStrength = args.promptStrength ?? TRYONS_DEFAULT_PROMPT_STRENGTH;
  if (!(promptStrength >= 0 && promptStrength <= 1)) throw badRequest("prompt_strength is between 0 and 1");
  const clone = await usableClone(ctx.db, args.userId, args.cloneId);
  const inputHash = tryOnInputHash({ cloneId: clone.id, productId: args.productId, enableAddDetails, promptStrength });

  const reusable = { user_id: args.userId, input_hash: inputHash, status: { not: "failed" as const } };
  const newest = [{ created_at: "desc" as const }, { id: "desc" as const }];
  const answer = async (id: string) => {
    // A concurrent identical call created the row and starts its image request just after its
    // transaction: wait that moment (at most ~2 s) so this answer names the request too.
    for (let waited = 0; ; waited += REQUEST_WAIT_STEP_MS) {
      const row = await ctx.db.tryOn.findUnique({ where: { id }, include: tryOnInclude });
      // The concurrent call that created it could not queue its image request and removed it.
      if (!row) throw conflict("An identical try-on could not be started just now; please try again");
      const requestId = await latestRequestId(ctx.db, row.id);
      if (requestId || row.status !== "queued" || waited >= REQUEST_WAIT_MAX_MS) return toTryOnView(row, requestId);
      await new Promise((r) => setTimeout(r, REQUEST_WAIT_STEP_MS));
    }
  };

  if (!args.force) {
    const existing = await ctx.db.tryOn.findFirst({ where: reusable, orderBy: newest, select: { id: true } });
    if (existing) return answer(existing.id);
  }

  const personImageUrl = assertCloneReady(clone);
  const garment = await eligibleGarment(ctx.db, args.productId);
  const support = supportsOperation(ctx, "vton-flux");
  if (!support.supported) throw new ApiError(501, support.message ?? "Virtual try-on is not available with the configured image provider");

  // Look again and create under a lock on (caller, inputs): a concurrent identical call waits here
  // and then finds this one's row. An advisory lock rather than a unique index, because `force`
  // may legitimately add a second live try-on with the same inputs. The lock ends with the
  // transaction; the image request is started after it (it writes through ctx.db, which must not
  // run inside a transaction on the one-connection embedded database).
  const claim = await ctx.db.$transaction(async (tx) => {
    if (!args.force) {
      await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`tryon:${args.userId}:${inputHash}`}, 0))`;
      const existing = await tx.tryOn.findFirst({ where: reusable, orderBy: newest, select: { id: true } });
      if (existing) return { reused: true, id: existing.id };
    }
    const created = await tx.tryOn.create({
      data: {
        user_id: args.userId,
        clone_id: clone.id,
        product_id: garment.product.id,
        status: "queued",
        progress: 0,
        enable_add_details: enableAddDetails,
        prompt_strength: promptStrength,
        input_hash: inputHash,
      },
      select: { id: true },
    });
    return { reused: false, id: created.id };
  });
  if (claim.reused) return answer(claim.id);
  const tryon = { id: claim.id };
  let requestId: string;
  try {
    const request = await startImageAiRequest(ctx, {
      operation: "vton-flux",
      input: {
        person_image_url: personImageUrl,
        garment_image_url: garment.garmentImageUrl,
        category: garment.category,
        enable_add_details: enableAddDetails,
        prompt_strength: promptStrength,
      },
      userId: args.userId,
      target: { type: "tryon", id: tryon.id },
    });
    requestId = request.id;
  } catch (e) {
    // Nothing will ever run for it: leave no queued try-on behind.
    await ctx.db.tryOn.delete({ where: { id: tryon.id } }).catch(() => undefined);
    throw e;
  }
  ctx.log.info({ tryonId: tryon.id, requestId, cloneId: clone.id, productId: garment.product.id }, "try-on started");
  const row = await ctx.db.tryOn.findUniqueOrThrow({ where: { id: tryon.id }, include: tryOnInclude });
  // A try-on request of the product (a reused result above is not a new one), dated as its row.
  await bumpProductDay(ctx.db, { productId: row.product_id, at: row.created_at, delta: { tryOns: 1 } });
  return toTryOnView(row, requestId);
}

// ---- reads ------------------------------------------------------------------------------------

export async function getTryOn(db: Db, userId: string, id: string): Promise<TryOnView> {
  const row = isUuid(id) ? await db.tryOn.findFirst({ where: { id, user_id: userId }, include: tryOnInclude }) : null;
  if (!row) throw notFound(TRYON_NOT_FOUND);
  return toTryOnView(row, await latestRequestId(db, row.id));
}

/** The caller's try-ons among `ids`, in the order asked (others' and unknown ids left out). */
export async function batchTryOns(db: Db, userId: string, ids: string[]): Promise<TryOnView[]> {
  const wanted = [...new Set(ids.filter(isUuid))];
  if (wanted.length === 0) return [];
  const rows = await db.tryOn.findMany({ where: { id: { in: wanted }, user_id: userId }, include: tryOnInclude });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return wanted.flatMap((id) => {
    const r = byId.get(id);
    return r ? [toTryOnView(r)] : [];
  });
}

/** SPEC §9: skip 0, take 10, newest first. */
export async function listUserTryOns(db: Db, userId: string, q: { skip: number; take: number }) {
  const where = { user_id: userId };
  const [rows, total] = await Promise.all([
    db.tryOn.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: q.skip, take: q.take, include: tryOnInclude }),
    db.tryOn.count({ where }),
  ]);
  return { tryons: rows.map((r) => toTryOnView(r)), total };
}

/** The caller's latest try-on of this product on this clone (any options), or null. */
export async function latestTryOn(db: Db, userId: string, cloneId: string, productId: string): Promise<TryOnView | null> {
  if (!isUuid(cloneId)) return null;
  const row = await db.tryOn.findFirst({
    where: { user_id: userId, clone_id: cloneId, product_id: productId },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    include: tryOnInclude,
  });
  return row ? toTryOnView(row, await latestRequestId(db, row.id)) : null;
}

// ---- clone try-ons ---------------------------------------------------------------------------

export async function listCloneTryOns(db: Db, userId: string, cloneId: string, q: { skip: number; take: number }) {
  const clone = await usableClone(db, userId, cloneId);
  const where = { user_id: userId, clone_id: clone.id };
  const [rows, total] = await Promise.all([
    db.tryOn.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: q.skip, take: q.take, include: tryOnInclude }),
    db.tryOn.count({ where }),
  ]);
  return { tryons: rows.map((r) => toTryOnView(r)), total };
}

/**
 * Deletes one generated image of the caller's try-ons on a clone; a try-on left without images is
 * deleted too (its saved entries go with it). The file is removed from storage when it is ours and
 * nothing else names it.
 */
export async function deleteCloneTryOnImage(ctx: AppContext, userId: string, cloneId: string, imageUrl: string | undefined) {
  if (!imageUrl) throw badRequest("imageUrl is required");
  const clone = await usableClone(ctx.db, userId, cloneId);
  const image = await ctx.db.generatedImage.findFirst({
    where: { image_url: imageUrl, tryon: { is: { user_id: userId, clone_id: clone.id } } },
    select: { id: true, tryon_id: true },
  });
  if (!image || !image.tryon_id) throw notFound(TRYON_IMAGE_NOT_FOUND);
  const tryonId = image.tryon_id;
  const tryonDeleted = await ctx.db.$transaction(async (tx) => {
    await tx.generatedImage.delete({ where: { id: image.id } });
    const left = await tx.generatedImage.count({ where: { tryon_id: tryonId } });
    if (left > 0) return false;
    await tx.tryOn.delete({ where: { id: tryonId } });
    return true;
  });
  const others = await ctx.db.generatedImage.count({ where: { image_url: imageUrl } });
  const key = others === 0 ? ownStorageKey(ctx, imageUrl) : null;
  if (key) await ctx.storage.delete(key).catch((e: unknown) => ctx.log.warn({ err: e, key }, "try-on image file not deleted"));
  return { deleted: true as const, image_url: imageUrl, tryon_id: tryonId, tryon_deleted: tryonDeleted };
}

// ---- basic clones (public house models) -------------------------------------------------------

export async function listBasicClones(db: Db, q: { gender?: string; limit: number }) {
  const rows = await db.clone.findMany({
    where: {
      isPublic: true,
      is_product_clone: false,
      processing_status: "READY",
      ...(q.gender ? { gender: { equals: q.gender, mode: "insensitive" as const } } : {}),
    },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: q.limit,
  });
  return {
    clones: rows.map((c) => ({
      id: c.id,
      name: c.name,
      gender: c.gender,
      profileImageUrl: c.profileImageUrl,
      previewImageUrl: personImageOf(c),
      isPublic: true as const,
    })),
  };
}
