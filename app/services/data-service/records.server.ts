/**
 * The data service's reads and writes: saved products, saved try-ons, favourite stores,
 * vision-search entries and clone training jobs of one user, with keyset pages (`nextToken`).
 *
 * The writes go through the shopper-facing services, so one set of rules holds for the REST API
 * and the data service: saved products and followed stores through app/services/saved.server.ts
 * (a visible product to save, an unknown store is 404, concurrent saves, the spec's favourite-store
 * failure messages), vision-search entries through app/services/vision.server.ts. The lists are
 * here: the data service pages with `nextToken` in either direction and answers the records' ids,
 * which the REST lists do not. Saved try-ons and clone training jobs have no other service yet.
 *
 * Every function takes the user's row (checked by the caller: ./graphql.server.ts) and throws
 * domain errors (~/lib/domain-errors) with clear messages; the GraphQL layer turns them into errors with codes.
 */
import type { Prisma, User } from "@prisma/client";
import type { Db } from "~/db.server";
import { invalid, notAuthenticated, notFoundError } from "~/lib/domain-errors";
import { Messages } from "~/contract/messages";
import { createEntry, updateEntry } from "~/services/vision.server";
import { checkSavedProducts, toggleFavoriteStore, toggleSavedProduct } from "~/services/saved.server";
import { getProductCards } from "~/services/catalog.server";
import type { ProductCard } from "~/contract/products";

export type SortDirection = "ASC" | "DESC";

export interface PageArgs {
  limit: number;
  nextToken?: string | null;
  sortDirection: SortDirection;
}

export interface Page<T> {
  items: T[];
  nextToken: string | null;
}

// ---------------------------------------------------------------------------------------------
// Keyset pages: the token holds the last item's (date, id); the next page starts after it.

interface Token {
  t: string;
  id: string;
}

export function encodeNextToken(date: Date, id: string): string {
  return Buffer.from(JSON.stringify({ t: date.toISOString(), id } satisfies Token)).toString("base64url");
}

export function decodeNextToken(token: string): { date: Date; id: string } {
  try {
    const v = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as Partial<Token>;
    const date = typeof v.t === "string" ? new Date(v.t) : null;
    if (date && !Number.isNaN(date.getTime()) && typeof v.id === "string" && v.id.length > 0 && v.id.length <= 100) return { date, id: v.id };
  } catch {
    /* not a token of ours */
  }
  throw invalid("nextToken is not valid: pass the nextToken of the previous page as it was answered");
}

/** `where` and `orderBy` of a keyset page over (dateField, id). */
function keyset(dateField: string, page: PageArgs) {
  const dir = page.sortDirection === "ASC" ? "asc" : "desc";
  const op = page.sortDirection === "ASC" ? "gt" : "lt";
  const after = page.nextToken ? decodeNextToken(page.nextToken) : null;
  const where = after ? { OR: [{ [dateField]: { [op]: after.date } }, { [dateField]: after.date, id: { [op]: after.id } }] } : {};
  return { where, orderBy: [{ [dateField]: dir }, { id: dir }], take: page.limit + 1 };
}

function pageOf<T extends { id: string }>(rows: T[], limit: number, dateOf: (row: T) => Date): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextToken: rows.length > limit && last ? encodeNextToken(dateOf(last), last.id) : null };
}

// ---------------------------------------------------------------------------------------------
// Users

/** The user with this id, or null. */
export function findUser(db: Db, id: string): Promise<User | null> {
  return db.user.findUnique({ where: { id } });
}

// ---------------------------------------------------------------------------------------------
// Saved products

export async function listSavedProducts(db: Db, user: User, page: PageArgs) {
  const k = keyset("createdAt", page);
  const rows = await db.savedProduct.findMany({ where: { user_id: user.id, ...k.where }, orderBy: k.orderBy as Prisma.SavedProductOrderByWithRelationInput[], take: k.take });
  return pageOf(rows, page.limit, (r) => r.createdAt);
}

export async function isProductSaved(db: Db, user: User, productId: string): Promise<boolean> {
  return (await checkSavedProducts(db, user.id, [productId])).saved.includes(productId);
}

/** Saves a visible product (the shopper-facing rule); saving it again answers the existing record. */
export async function createSavedProduct(db: Db, user: User, productId: string) {
  await toggleSavedProduct(db, user.id, productId, true);
  const row = await db.savedProduct.findUnique({ where: { user_id_product_id: { user_id: user.id, product_id: productId } } });
  if (!row) throw notFoundError("Product not found"); // unsaved again by a concurrent request
  return row;
}

/** Unsaves a product: the deleted record, or null when it was not saved. */
export async function deleteSavedProduct(db: Db, user: User, productId: string) {
  const row = await db.savedProduct.findUnique({ where: { user_id_product_id: { user_id: user.id, product_id: productId } } });
  if (!row) return null;
  await toggleSavedProduct(db, user.id, productId, false);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Saved try-ons

export async function listSavedTryOns(db: Db, user: User, page: PageArgs) {
  const k = keyset("createdAt", page);
  const rows = await db.savedTryOn.findMany({ where: { user_id: user.id, ...k.where }, orderBy: k.orderBy as Prisma.SavedTryOnOrderByWithRelationInput[], take: k.take });
  return pageOf(rows, page.limit, (r) => r.createdAt);
}

export async function isTryOnSaved(db: Db, user: User, tryonId: string): Promise<boolean> {
  return !!(await db.savedTryOn.findUnique({ where: { user_id_tryon_id: { user_id: user.id, tryon_id: tryonId } }, select: { id: true } }));
}

/** Saves one of the user's own try-ons (another user's answers "not found"); idempotent. */
export async function createSavedTryOn(db: Db, user: User, tryonId: string) {
  const tryon = await db.tryOn.findFirst({ where: { id: tryonId, user_id: user.id }, select: { id: true } });
  if (!tryon) throw notFoundError("Try-on not found");
  // Not upsert: parallel saves would race to a unique-constraint error.
  await db.savedTryOn.createMany({ data: [{ user_id: user.id, tryon_id: tryonId }], skipDuplicates: true });
  return db.savedTryOn.findUniqueOrThrow({ where: { user_id_tryon_id: { user_id: user.id, tryon_id: tryonId } } });
}

export async function deleteSavedTryOn(db: Db, user: User, tryonId: string) {
  const row = await db.savedTryOn.findUnique({ where: { user_id_tryon_id: { user_id: user.id, tryon_id: tryonId } } });
  if (!row) return null;
  const { count } = await db.savedTryOn.deleteMany({ where: { id: row.id } });
  return count ? row : null;
}

// ---------------------------------------------------------------------------------------------
// Favourite stores

export async function listFavoriteStores(db: Db, user: User, page: PageArgs) {
  const k = keyset("created_at", page);
  const rows = await db.userFavoriteStore.findMany({ where: { user_id: user.id, ...k.where }, orderBy: k.orderBy as Prisma.UserFavoriteStoreOrderByWithRelationInput[], take: k.take });
  return pageOf(rows, page.limit, (r) => r.created_at);
}

export function getFavoriteStore(db: Db, user: User, storeId: string) {
  return db.userFavoriteStore.findUnique({ where: { user_id_store_id: { user_id: user.id, store_id: storeId } } });
}

/** Follows a store (the shopper-facing rule: an unknown store is 404); following it again answers the existing record. */
export async function createFavoriteStore(db: Db, user: User, storeId: string) {
  await toggleFavoriteStore(db, user.id, storeId, true);
  const row = await getFavoriteStore(db, user, storeId);
  if (!row) throw notFoundError("Store not found"); // unfollowed again by a concurrent request
  return row;
}

/** Unfollows a store: the deleted record, or null when the user did not follow it. */
export async function deleteFavoriteStore(db: Db, user: User, storeId: string) {
  const row = await getFavoriteStore(db, user, storeId);
  if (!row) return null;
  await toggleFavoriteStore(db, user.id, storeId, false);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Vision-search entries (writes through the vision service: same rules as the REST endpoints)

export async function listVisionEntries(db: Db, user: User, page: PageArgs) {
  const k = keyset("created_at", page);
  const rows = await db.visionSearchEntry.findMany({ where: { user_id: user.id, ...k.where }, orderBy: k.orderBy as Prisma.VisionSearchEntryOrderByWithRelationInput[], take: k.take });
  return pageOf(rows, page.limit, (r) => r.created_at);
}

export function getVisionEntry(db: Db, user: User, id: string) {
  return db.visionSearchEntry.findFirst({ where: { id, user_id: user.id } });
}

/** SPEC §5: creating or updating a search entry requires login (a guest is refused with §8's message). */
export async function createVisionEntry(db: Db, user: User, input: { image_url: string; result?: unknown }) {
  if (user.auth_provider === "guest") throw notAuthenticated(Messages.SEARCH_ENTRY_CREATE_LOGIN);
  return createEntry({ db }, user, input);
}

export async function updateVisionEntry(db: Db, user: User, id: string, input: { image_url?: string; result?: unknown }) {
  if (user.auth_provider === "guest") throw notAuthenticated(Messages.SEARCH_ENTRY_UPDATE_LOGIN);
  return updateEntry({ db }, user, id, input);
}

// ---------------------------------------------------------------------------------------------
// Clone training jobs

export async function listCloneTrainingJobs(db: Db, user: User, page: PageArgs) {
  const k = keyset("created_at", page);
  const rows = await db.cloneTrainingJob.findMany({ where: { user_id: user.id, ...k.where }, orderBy: k.orderBy as Prisma.CloneTrainingJobOrderByWithRelationInput[], take: k.take });
  return pageOf(rows, page.limit, (r) => r.created_at);
}

export function getCloneTrainingJob(db: Db, user: User, id: string) {
  return db.cloneTrainingJob.findFirst({ where: { id, user_id: user.id } });
}

// ---------------------------------------------------------------------------------------------
// Related objects, by ids (the GraphQL layer batches the ids of one request)

/** Visible products as cards, by id (hidden or unknown ids are absent). */
export async function productCardsByIds(db: Db, ids: string[]): Promise<Map<string, ProductCard>> {
  const cards = await getProductCards(db, ids);
  return new Map(cards.map((c) => [c.id, c]));
}

export async function storesByIds(db: Db, ids: string[]) {
  const rows = await db.store.findMany({ where: { id: { in: ids } } });
  return new Map(rows.map((r) => [r.id, r]));
}

export async function tryOnsByIds(db: Db, ids: string[]) {
  const rows = await db.tryOn.findMany({
    where: { id: { in: ids } },
    include: { generated_images: { select: { id: true, image_url: true }, orderBy: [{ created_at: "asc" }, { id: "asc" }] } },
  });
  return new Map(rows.map((r) => [r.id, r]));
}
