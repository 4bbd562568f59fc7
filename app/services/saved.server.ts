/**
 * A shopper's saved products, followed stores and style preferences. Every function acts on the
 * caller's rows only (`userId` comes from the authenticated caller, never from the request body).
 *
 * Toggles take an optional desired state: without it they toggle (SPEC §4 "if a favourite record
 * exists it is deleted, otherwise created"); with it they set that state, so a retried or
 * duplicated request (a double click under optimistic UI) cannot flip the state back.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { ProductCard } from "~/contract/products";
import type { StylePreferences } from "~/contract/saved";
import { Messages } from "~/contract/messages";
import { failedError, invalid, isKnownError, notFoundError } from "~/lib/domain-errors";
import { serialisedPerItem } from "~/db/item-lock.server";
import { formatInterests, genderOfInterests, interestKey, isGenderWord, parseInterests, withGender, type InterestGender } from "~/lib/interests";
import { cardSelect, toProductCard } from "./catalog.server";
import { toStore } from "./stores.server";
import { visibleProductWhere } from "~/lib/visibility";
import { mergeMetadata } from "./users.server";
import { bumpProductDay } from "./vendor-stats/daily-stats.server";

export const PRODUCT_NOT_FOUND = "Product not found";
export const STORE_NOT_FOUND = "Store not found";

// ---- shared helpers ---------------------------------------------------------------------------

/** Keyset cursor over (created time, row id), newest first. */
export function encodeKeyset(at: Date, id: string): string {
  return Buffer.from(JSON.stringify({ t: at.toISOString(), i: id })).toString("base64url");
}

export function decodeKeyset(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString()) as { t?: unknown; i?: unknown };
    if (typeof v.t === "string" && typeof v.i === "string") {
      const at = new Date(v.t);
      if (!Number.isNaN(at.getTime())) return { at, id: v.i };
    }
  } catch {
    /* fall through */
  }
  throw invalid("cursor is invalid");
}

/** Whether a product row is shown to shoppers (the rule of ./visibility.ts, on a loaded row). */
export function isVisibleRow(p: { status: string; publishedAt: Date | null }, now = new Date()): boolean {
  return p.status === "active" && !!p.publishedAt && p.publishedAt <= now;
}

/**
 * Runs a step and turns an unexpected failure (a database error) into a 500 with the spec's
 * catalogue message (SPEC §8, e.g. "Failed to create user favorite store"): a `failed` domain
 * error; known errors (404, 400…) go through unchanged. The original error stays as `cause` for the log.
 */
export async function failWith<T>(message: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (isKnownError(e)) throw e;
    throw failedError(message, e);
  }
}

const productCardWithVisibility = { ...cardSelect, status: true, publishedAt: true } satisfies Prisma.ProductSelect;

function cardIfVisible(p: Prisma.ProductGetPayload<{ select: typeof productCardWithVisibility }>, now: Date): ProductCard | null {
  return isVisibleRow(p, now) ? toProductCard(p) : null;
}

// ---- saved products ---------------------------------------------------------------------------

/** SPEC §9: 20 a page, newest first. A product no longer shown comes back with `product: null`. */
export async function listSavedProducts(db: Db, userId: string, q: { cursor?: string; limit: number }) {
  const after = decodeKeyset(q.cursor);
  const rows = await db.savedProduct.findMany({
    where: {
      user_id: userId,
      ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    select: { id: true, product_id: true, createdAt: true, product: { select: productCardWithVisibility } },
  });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const now = new Date();
  return {
    items: page.map((r) => ({ product_id: r.product_id, createdAt: r.createdAt, product: cardIfVisible(r.product, now) })),
    nextCursor: rows.length > q.limit && last ? encodeKeyset(last.createdAt, last.id) : null,
  };
}

/**
 * Saves or unsaves a product. Saving needs a product shoppers can see (404 otherwise); unsaving
 * works for any product the caller saved, so one that was taken down can still be removed.
 */
export async function toggleSavedProduct(db: Db, userId: string, productId: string, desired?: boolean): Promise<{ product_id: string; saved: boolean }> {
  // Read and write under a lock on (user, product): parallel toggles alternate rather than all
  // reading "not saved" and all answering "saved".
  return serialisedPerItem(db, `saved-product:${userId}:${productId}`, async (tx) => {
    const where = { user_id: userId, product_id: productId };
    const existing = await tx.savedProduct.findFirst({ where, select: { id: true } });
    const want = desired ?? !existing;
    if (!want) {
      if (existing) await tx.savedProduct.deleteMany({ where });
      return { product_id: productId, saved: false };
    }
    if (existing) return { product_id: productId, saved: true };
    const product = await tx.product.findFirst({ where: { id: productId, ...visibleProductWhere() }, select: { id: true } });
    if (!product) throw notFoundError(PRODUCT_NOT_FOUND);
    // skipDuplicates: a row written outside this lock (none today) still leaves the state asked for.
    // The save's own time dates its day in the vendor stats (the same instant as the row's).
    const at = new Date();
    const created = await tx.savedProduct.createMany({ data: [{ ...where, createdAt: at }], skipDuplicates: true });
    if (created.count > 0) await bumpProductDay(tx, { productId, at, delta: { saves: 1 } });
    return { product_id: productId, saved: true };
  });
}

export async function checkSavedProducts(db: Db, userId: string, productIds: string[]): Promise<{ saved: string[] }> {
  if (productIds.length === 0) return { saved: [] };
  const rows = await db.savedProduct.findMany({ where: { user_id: userId, product_id: { in: productIds } }, select: { product_id: true } });
  const saved = new Set(rows.map((r) => r.product_id));
  return { saved: [...new Set(productIds)].filter((id) => saved.has(id)) };
}

// ---- followed stores (SPEC §3 UserFavoriteStore) ----------------------------------------------

const storeInclude = {
  _count: { select: { products: { where: { status: "active" } }, favorited_by: true } },
} satisfies Prisma.StoreInclude;

/** SPEC §9: 20 a page, newest first. Failures answer "Failed to fetch user favorite stores" (SPEC §8). */
export async function listFavoriteStores(db: Db, userId: string, q: { cursor?: string; limit: number }) {
  const after = decodeKeyset(q.cursor);
  return failWith(Messages.FAILED_TO_FETCH_FAVORITE_STORES, async () => {
    const rows = await db.userFavoriteStore.findMany({
      where: {
        user_id: userId,
        ...(after ? { OR: [{ created_at: { lt: after.at } }, { created_at: after.at, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      take: q.limit + 1,
      select: { id: true, store_id: true, created_at: true, store: { include: storeInclude } },
    });
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => ({ store_id: r.store_id, createdAt: r.created_at, store: toStore(r.store) })),
      nextCursor: rows.length > q.limit && last ? encodeKeyset(last.created_at, last.id) : null,
    };
  });
}

/**
 * SPEC §4: if a favourite record exists it is deleted, otherwise created (or, with `desired`, set
 * to that state). An unknown store is 404; database failures answer the spec's messages.
 */
export async function toggleFavoriteStore(
  db: Db,
  userId: string,
  storeId: string,
  desired?: boolean
): Promise<{ store_id: string; following: boolean; followerCount: number }> {
  // Serialised per (user, store), like saved products: parallel toggles alternate.
  return serialisedPerItem(db, `favorite-store:${userId}:${storeId}`, async (tx) => {
    const where = { user_id: userId, store_id: storeId };
    const existing = await failWith(Messages.FAILED_TO_FETCH_FAVORITE_STORE, () => tx.userFavoriteStore.findFirst({ where, select: { id: true } }));
    const want = desired ?? !existing;
    if (!want && existing) {
      await failWith(Messages.FAILED_TO_DELETE_FAVORITE_STORE, () => tx.userFavoriteStore.deleteMany({ where }));
    }
    if (want && !existing) {
      const store = await failWith(Messages.FAILED_TO_CREATE_FAVORITE_STORE, () => tx.store.findUnique({ where: { id: storeId }, select: { id: true } }));
      if (!store) throw notFoundError(STORE_NOT_FOUND);
      await failWith(Messages.FAILED_TO_CREATE_FAVORITE_STORE, () => tx.userFavoriteStore.createMany({ data: [where], skipDuplicates: true }));
    }
    const followerCount = await failWith(Messages.FAILED_TO_FETCH_FAVORITE_STORE, () => tx.userFavoriteStore.count({ where: { store_id: storeId } }));
    return { store_id: storeId, following: want, followerCount };
  });
}

/** Which of these stores the caller follows. Failures answer "Failed to fetch user favorite store" (SPEC §8). */
export async function checkFavoriteStores(db: Db, userId: string, storeIds: string[]): Promise<{ following: string[] }> {
  if (storeIds.length === 0) return { following: [] };
  const rows = await failWith(Messages.FAILED_TO_FETCH_FAVORITE_STORE, () =>
    db.userFavoriteStore.findMany({ where: { user_id: userId, store_id: { in: storeIds } }, select: { store_id: true } })
  );
  const following = new Set(rows.map((r) => r.store_id));
  return { following: [...new Set(storeIds)].filter((id) => following.has(id)) };
}

// ---- style preferences (SPEC §3 metadata.interests, §4 gender preference) ---------------------

const SUGGESTIONS_MAX = 24;
const SUGGESTIONS_TTL_MS = 10 * 60_000;
const suggestionCache = new WeakMap<object, { at: number; tags: string[] }>();

/**
 * Interests worth offering: the tags most used by the products shoppers see (each matches
 * products, which is what the for-you feed's interest signal looks for), gender words left out.
 * Cached per database for 10 minutes.
 */
export async function interestSuggestions(db: Db, now = Date.now()): Promise<string[]> {
  const hit = suggestionCache.get(db);
  if (hit && now - hit.at < SUGGESTIONS_TTL_MS) return hit.tags;
  const rows = await db.$queryRaw<{ tag: string; n: number }[]>`
    SELECT lower(t) AS tag, count(*)::int AS n
    FROM products p, unnest(p.tags) AS t
    WHERE p.status = 'active' AND p."publishedAt" IS NOT NULL AND p."publishedAt" <= now() AND length(t) BETWEEN 2 AND 40
    GROUP BY lower(t) ORDER BY n DESC, tag ASC LIMIT ${SUGGESTIONS_MAX * 2}`;
  // One suggestion per interest: "t-shirt" and "t-shirts" are one, in the spelling most used.
  const groups = new Map<string, { n: number; best: string; bestN: number; first: number }>();
  rows.forEach((r, i) => {
    if (isGenderWord(r.tag)) return;
    const key = interestKey(r.tag);
    const g = groups.get(key) ?? { n: 0, best: r.tag, bestN: -1, first: i };
    g.n += Number(r.n);
    if (Number(r.n) > g.bestN) {
      g.best = r.tag;
      g.bestN = Number(r.n);
    }
    groups.set(key, g);
  });
  const tags = [...groups.values()]
    .sort((a, b) => b.n - a.n || a.first - b.first)
    .map((g) => g.best)
    .slice(0, SUGGESTIONS_MAX);
  suggestionCache.set(db, { at: now, tags });
  return tags;
}

function metadataOf(v: Prisma.JsonValue): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function preferencesOf(metadata: Prisma.JsonValue, suggestions: string[]): StylePreferences {
  const m = metadataOf(metadata);
  const interests = typeof m.interests === "string" ? m.interests : "";
  const list = parseInterests(interests);
  const style = Array.isArray(m.stylePreferences) ? m.stylePreferences.filter((s): s is string => typeof s === "string") : [];
  // A suggestion the shopper already has in another spelling is offered in theirs (no "t-shirt" beside "t-shirts").
  const chosen = new Map(list.map((t) => [interestKey(t), t]));
  const offered = [...new Set(suggestions.map((s) => chosen.get(interestKey(s)) ?? s))];
  return { interests: formatInterests(list), interestList: list, gender: genderOfInterests(list), stylePreferences: style, suggestions: offered };
}

export async function getStylePreferences(db: Db, userId: string): Promise<StylePreferences> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { metadata: true } });
  if (!user) throw notFoundError("User not found");
  return preferencesOf(user.metadata, await interestSuggestions(db));
}

/**
 * Replaces the interests (when given) and/or sets the gender they carry (SPEC §4), keeping the
 * other metadata. The result is what the storefront's gender preference and the for-you feed read.
 */
export async function updateStylePreferences(
  db: Db,
  userId: string,
  input: { interests?: string[]; gender?: InterestGender; stylePreferences?: string[] }
): Promise<StylePreferences> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { metadata: true } });
  if (!user) throw notFoundError("User not found");
  const current = metadataOf(user.metadata);
  let list = input.interests ?? parseInterests(typeof current.interests === "string" ? current.interests : "");
  if (input.gender) list = withGender(list, input.gender);
  const patch: Record<string, unknown> = { interests: formatInterests(list) };
  if (input.stylePreferences) patch.stylePreferences = [...new Set(input.stylePreferences)];
  const updated = await db.user.update({ where: { id: userId }, data: { metadata: mergeMetadata(user.metadata, patch) }, select: { metadata: true } });
  return preferencesOf(updated.metadata, await interestSuggestions(db));
}
