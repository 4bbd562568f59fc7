/**
 * Collections: curated, ordered product lists with a status (draft → active → archived), a
 * featured flag, a version (optimistic concurrency) and a view count. The public sees active
 * collections only; catalogue editors see every status. Partner collections belong to a vendor.
 */
import { Prisma, type User } from "@prisma/client";
import type { Db } from "~/db.server";
import type { TargetGender } from "~/contract/common";
import type { CollectionStatus } from "~/contract/collections";
import { Messages } from "~/contract/messages";
import { conflictError, invalid, notAllowed, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { hasPermission } from "~/api/auth.server";
import { toProductCard } from "./catalog.server";
import { freeHandle, genderWhere, productCardSelect, slugify, visibleProduct } from "./stores.server";
import { rankForPrompt } from "./search/rank-for-prompt.server";

export const COLLECTION_NOT_FOUND = "Collection not found";
export const PUBLISH_NEEDS_PRODUCTS = "A collection needs at least one product before it can be published";

const collectionInclude = { _count: { select: { products: true } } } satisfies Prisma.CollectionInclude;
type CollectionRow = Prisma.CollectionGetPayload<{ include: typeof collectionInclude }>;

export function toCollection(c: CollectionRow) {
  return {
    id: c.id,
    title: c.title,
    handle: c.handle,
    description: c.description,
    image_url: c.image_url,
    status: c.status,
    featured: c.featured,
    version: c.version,
    view_count: c.view_count,
    target_gender: c.target_gender,
    sort_order: c.sort_order,
    partner_id: c.partner_id,
    published_at: c.published_at,
    created_at: c.created_at,
    updated_at: c.updated_at,
    productCount: c._count.products,
  };
}
export type CollectionOut = ReturnType<typeof toCollection>;

/** Who may see drafts and archived collections. */
export const isCatalogEditor = (user: Pick<User, "role" | "permissions"> | null | undefined) => !!user && hasPermission(user, "catalog.edit");

const collectionOrder: Prisma.CollectionOrderByWithRelationInput[] = [{ sort_order: "asc" }, { created_at: "desc" }, { id: "asc" }];
const memberOrder: Prisma.CollectionProductOrderByWithRelationInput[] = [{ position: "asc" }, { created_at: "asc" }, { product_id: "asc" }];

async function findCollection(db: Db, where: Prisma.CollectionWhereUniqueInput, opts: { editor: boolean }): Promise<CollectionRow> {
  const c = await db.collection.findUnique({ where, include: collectionInclude });
  if (!c || (!opts.editor && c.status !== "active")) throw notFoundError(COLLECTION_NOT_FOUND);
  return c;
}

async function collectionHandle(db: Db, wanted: string | undefined, title: string, exceptId?: string): Promise<string> {
  if (wanted) {
    const other = await db.collection.findUnique({ where: { handle: wanted }, select: { id: true } });
    if (other && other.id !== exceptId) throw conflictError(`A collection with the handle "${wanted}" already exists`);
    return wanted;
  }
  const base = slugify(title, "collection");
  const taken = await db.collection.findMany({
    where: { handle: { startsWith: base }, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { handle: true },
  });
  return freeHandle(
    base,
    taken.map((t) => t.handle)
  );
}

async function assertVendor(db: Db, vendorId: string, message = "Vendor not found") {
  const v = await db.vendor.findUnique({ where: { id: vendorId }, select: { id: true } });
  if (!v) throw notFoundError(message);
}

const emptyToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === "" ? null : v);

function dedupe(ids: string[]): string[] {
  return [...new Set(ids)];
}

async function assertProductsExist(db: Db, ids: string[]) {
  const found = await db.product.findMany({ where: { id: { in: ids } }, select: { id: true } });
  const known = new Set(found.map((p) => p.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw invalid(`Unknown product ids: ${unknown.join(", ")}`, { unknown });
}

function versionConflict(current: number, sent: number) {
  return conflictError(`This collection was changed by someone else (it is at version ${current}, you sent ${sent}): reload it and try again`);
}

/** Applies `data` and increments the version; with `expectedVersion`, only if the collection is still at it. */
async function updateVersioned(db: Db, id: string, data: Prisma.CollectionUncheckedUpdateManyInput, expectedVersion?: number): Promise<CollectionOut> {
  const r = await db.collection.updateMany({
    where: { id, ...(expectedVersion !== undefined ? { version: expectedVersion } : {}) },
    data: { ...data, version: { increment: 1 } },
  });
  if (r.count === 0) {
    const c = await db.collection.findUnique({ where: { id }, select: { version: true } });
    if (!c) throw notFoundError(COLLECTION_NOT_FOUND);
    throw versionConflict(c.version, expectedVersion ?? c.version);
  }
  return toCollection(await db.collection.findUniqueOrThrow({ where: { id }, include: collectionInclude }));
}

// --- Public and admin reads ------------------------------------------------------------------

export interface CollectionListQuery {
  skip: number;
  take: number;
  status?: CollectionStatus | "all";
  target_gender?: TargetGender;
  featured?: boolean;
  q?: string;
  partner_id?: string;
}

export async function listCollections(db: Db, q: CollectionListQuery, opts: { editor: boolean }) {
  const status = q.status ?? "active";
  if (status !== "active" && !opts.editor) throw notAllowed("Only catalogue editors can list draft or archived collections");
  const where: Prisma.CollectionWhereInput = {
    ...(status === "all" ? {} : { status }),
    ...genderWhere(q.target_gender),
    ...(q.featured !== undefined ? { featured: q.featured } : {}),
    ...(q.partner_id ? { partner_id: q.partner_id } : {}),
    ...(q.q ? { OR: [{ title: { contains: q.q, mode: "insensitive" } }, { handle: { contains: q.q, mode: "insensitive" } }] } : {}),
  };
  const [rows, total] = await Promise.all([
    db.collection.findMany({ where, include: collectionInclude, orderBy: collectionOrder, skip: q.skip, take: q.take }),
    db.collection.count({ where }),
  ]);
  return { collections: rows.map(toCollection), total, skip: q.skip, take: q.take };
}

export async function getCollection(db: Db, id: string, opts: { editor: boolean }) {
  return toCollection(await findCollection(db, { id }, opts));
}

export async function getCollectionByHandle(db: Db, handle: string, opts: { editor: boolean }) {
  return toCollection(await findCollection(db, { handle: handle.toLowerCase() }, opts));
}

export async function getCollectionByName(db: Db, name: string) {
  const c = await db.collection.findFirst({
    where: { title: { equals: name, mode: "insensitive" }, status: "active" },
    include: collectionInclude,
    orderBy: collectionOrder,
  });
  if (!c) throw notFoundError(COLLECTION_NOT_FOUND);
  return toCollection(c);
}

export async function featuredCollections(db: Db, q: { take: number; target_gender?: TargetGender }) {
  const rows = await db.collection.findMany({
    where: { status: "active", featured: true, ...genderWhere(q.target_gender) },
    include: collectionInclude,
    orderBy: collectionOrder,
    take: q.take,
  });
  return { collections: rows.map(toCollection) };
}

/** A collection's products in collection order: active ones for shoppers, every status for editors' tools. */
async function collectionProductsPage(
  db: Db,
  collectionId: string,
  q: { skip: number; take: number; target_gender?: TargetGender; q?: string; anyStatus?: boolean }
) {
  const productWhere: Prisma.ProductWhereInput = {
    ...(q.anyStatus ? {} : visibleProduct(q.target_gender)),
    ...(q.q ? { AND: searchWords(q.q).map(wordWhere) } : {}),
  };
  const where: Prisma.CollectionProductWhereInput = { collection_id: collectionId, product: productWhere };
  const [rows, total] = await Promise.all([
    db.collectionProduct.findMany({ where, orderBy: memberOrder, skip: q.skip, take: q.take, select: { product: { select: productCardSelect } } }),
    db.collectionProduct.count({ where }),
  ]);
  return { products: rows.map((r) => toProductCard(r.product)), total, skip: q.skip, take: q.take };
}

function searchWords(q: string): string[] {
  return dedupe(
    q
      .toLowerCase()
      .split(/\s+/)
      .map((w) => w.trim())
      .filter(Boolean)
  ).slice(0, 8);
}

function wordWhere(w: string): Prisma.ProductWhereInput {
  return {
    OR: [
      { title: { contains: w, mode: "insensitive" } },
      { productType: { contains: w, mode: "insensitive" } },
      { vendor: { contains: w, mode: "insensitive" } },
      { description: { contains: w, mode: "insensitive" } },
      { tags: { has: w } },
    ],
  };
}

export async function collectionWithProductsByHandle(db: Db, handle: string, q: { take: number; target_gender?: TargetGender }) {
  const c = await findCollection(db, { handle: handle.toLowerCase() }, { editor: false });
  const page = await collectionProductsPage(db, c.id, { skip: 0, take: q.take, target_gender: q.target_gender });
  return { collection: toCollection(c), products: page.products, total: page.total };
}

export async function adminCollectionByHandle(db: Db, handle: string) {
  const c = await findCollection(db, { handle: handle.toLowerCase() }, { editor: true });
  const page = await collectionProductsPage(db, c.id, { skip: 0, take: 5000, anyStatus: true });
  return { collection: toCollection(c), products: page.products, total: page.total };
}

/** For the admin detail screen: a collection of any status with every product (and its status). */
export async function adminCollectionDetail(db: Db, id: string) {
  const c = await findCollection(db, { id }, { editor: true });
  const rows = await db.collectionProduct.findMany({
    where: { collection_id: id },
    orderBy: memberOrder,
    select: { product: { select: { ...productCardSelect, status: true } } },
  });
  return { collection: toCollection(c), products: rows.map((r) => ({ ...toProductCard(r.product), status: r.product.status })) };
}

export async function collectionProducts(
  db: Db,
  id: string,
  q: { skip: number; take: number; target_gender?: TargetGender; q?: string },
  opts: { editor: boolean }
) {
  await findCollection(db, { id }, opts);
  return collectionProductsPage(db, id, q);
}

export async function collectionsByTargetGender(db: Db, gender: TargetGender, q: { skip: number; take: number }) {
  return listCollections(db, { ...q, status: "active", target_gender: gender }, { editor: false });
}

/**
 * Collections to interleave in feeds (SPEC §9: the feed inserts a few on each page): active
 * collections with products for the gender, in their curated order, each with its first 4.
 */
export async function collectionInsertions(
  db: Db,
  q: { skip: number; take: number; target_gender?: TargetGender },
  opts: { featuredOnly: boolean; productsPerCollection: number }
) {
  const rows = await db.collection.findMany({
    where: {
      status: "active",
      ...(opts.featuredOnly ? { featured: true } : {}),
      ...genderWhere(q.target_gender),
      products: { some: { product: visibleProduct(q.target_gender) } },
    },
    include: collectionInclude,
    orderBy: opts.featuredOnly ? collectionOrder : [{ featured: "desc" }, ...collectionOrder],
    skip: q.skip,
    take: q.take,
  });
  const collections = [];
  for (const c of rows) {
    const page = await collectionProductsPage(db, c.id, { skip: 0, take: opts.productsPerCollection, target_gender: q.target_gender });
    collections.push({ ...toCollection(c), products: page.products });
  }
  return { collections };
}

/** Counts a view of an active collection in one statement (concurrent views all count). */
export async function incrementView(db: Db, id: string) {
  try {
    return await db.collection.update({ where: { id, status: "active" }, data: { view_count: { increment: 1 } }, select: { id: true, view_count: true } });
  } catch (e) {
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2025") throw notFoundError(COLLECTION_NOT_FOUND);
    throw e;
  }
}

// --- Writes ----------------------------------------------------------------------------------

export interface CollectionCreateInput {
  title: string;
  handle?: string;
  description?: string | null;
  image_url?: string | null;
  target_gender: TargetGender;
  featured: boolean;
  status: "draft" | "archived";
  partner_id?: string | null;
  products?: string[];
}

export async function createCollection(db: Db, input: CollectionCreateInput) {
  if (input.partner_id) await assertVendor(db, input.partner_id);
  const products = dedupe(input.products ?? []);
  if (products.length) await assertProductsExist(db, products);
  const handle = await collectionHandle(db, input.handle, input.title);
  const sort_order = ((await db.collection.aggregate({ _max: { sort_order: true } }))._max.sort_order ?? -1) + 1;
  const c = await db.collection.create({
    data: {
      title: input.title,
      handle,
      description: emptyToNull(input.description) ?? null,
      image_url: emptyToNull(input.image_url) ?? null,
      target_gender: input.target_gender,
      featured: input.featured,
      status: input.status,
      partner_id: input.partner_id ?? null,
      sort_order,
      products: { create: products.map((product_id, position) => ({ product_id, position })) },
    },
    include: collectionInclude,
  });
  return toCollection(c);
}

export interface CollectionUpdateInput {
  title?: string;
  handle?: string;
  description?: string | null;
  image_url?: string | null;
  target_gender?: TargetGender;
  featured?: boolean;
  partner_id?: string | null;
  version?: number;
}

export async function updateCollection(db: Db, id: string, input: CollectionUpdateInput) {
  const current = await findCollection(db, { id }, { editor: true });
  if (input.partner_id) await assertVendor(db, input.partner_id);
  const handle = input.handle && input.handle !== current.handle ? await collectionHandle(db, input.handle, current.title, id) : undefined;
  return updateVersioned(
    db,
    id,
    {
      title: input.title,
      handle,
      description: emptyToNull(input.description),
      image_url: emptyToNull(input.image_url),
      target_gender: input.target_gender,
      featured: input.featured,
      partner_id: input.partner_id,
    },
    input.version
  );
}

export async function deleteCollection(db: Db, id: string) {
  const r = await db.collection.deleteMany({ where: { id } });
  if (r.count === 0) throw notFoundError(COLLECTION_NOT_FOUND);
  return { ok: true as const };
}

/** Sets the status; making a collection active needs products and stamps published_at. */
export async function setStatus(db: Db, id: string, status: CollectionStatus) {
  const c = await findCollection(db, { id }, { editor: true });
  if (c.status === status) return toCollection(c);
  if (status === "active") {
    if (c._count.products === 0) throw unprocessableError(PUBLISH_NEEDS_PRODUCTS);
    return toCollection(await db.collection.update({ where: { id }, data: { status, published_at: new Date() }, include: collectionInclude }));
  }
  return toCollection(await db.collection.update({ where: { id }, data: { status }, include: collectionInclude }));
}

export const publishCollection = (db: Db, id: string) => setStatus(db, id, "active");

export async function setFeatured(db: Db, id: string, featured: boolean) {
  await findCollection(db, { id }, { editor: true });
  return toCollection(await db.collection.update({ where: { id }, data: { featured }, include: collectionInclude }));
}

/** Optimistic version bump: the caller sends the version they have. */
export async function bumpVersion(db: Db, id: string, version: number) {
  return updateVersioned(db, id, {}, version);
}

/** Appends products (idempotent: members stay where they are). */
export async function addProducts(db: Db, id: string, productIds: string[]) {
  await findCollection(db, { id }, { editor: true });
  const ids = dedupe(productIds);
  if (ids.length === 0) throw invalid("products must list at least one product id");
  await assertProductsExist(db, ids);
  const existing = await db.collectionProduct.findMany({ where: { collection_id: id }, select: { product_id: true, position: true } });
  const members = new Set(existing.map((e) => e.product_id));
  const fresh = ids.filter((p) => !members.has(p));
  let next = existing.reduce((m, e) => Math.max(m, e.position), -1) + 1;
  if (fresh.length) {
    await db.collectionProduct.createMany({ data: fresh.map((product_id) => ({ collection_id: id, product_id, position: next++ })), skipDuplicates: true });
    return { collection: await updateVersioned(db, id, {}), changed: fresh.length };
  }
  return { collection: await getCollection(db, id, { editor: true }), changed: 0 };
}

/** Removes products (idempotent: products not in the collection are ignored). */
export async function removeProducts(db: Db, id: string, productIds: string[]) {
  await findCollection(db, { id }, { editor: true });
  const ids = dedupe(productIds);
  if (ids.length === 0) throw invalid("products must list at least one product id");
  await assertProductsExist(db, ids);
  const r = await db.collectionProduct.deleteMany({ where: { collection_id: id, product_id: { in: ids } } });
  if (r.count > 0) return { collection: await updateVersioned(db, id, {}), changed: r.count };
  return { collection: await getCollection(db, id, { editor: true }), changed: 0 };
}

/** Sets the order of a collection's products: `productIds` lists every member in the new order. */
export async function reorderProducts(db: Db, id: string, productIds: string[]) {
  await findCollection(db, { id }, { editor: true });
  const dupes = dedupe(productIds.filter((p, i) => productIds.indexOf(p) !== i));
  if (dupes.length) throw invalid(`products lists a product more than once: ${dupes.join(", ")}`, { duplicates: dupes });
  const members = (await db.collectionProduct.findMany({ where: { collection_id: id }, select: { product_id: true } })).map((m) => m.product_id);
  const memberSet = new Set(members);
  const given = new Set(productIds);
  const extra = productIds.filter((p) => !memberSet.has(p));
  if (extra.length) throw invalid(`These products are not in the collection: ${extra.join(", ")}`, { notInCollection: extra });
  const missing = members.filter((p) => !given.has(p));
  if (missing.length) throw invalid(`The order must list every product of the collection; missing: ${missing.join(", ")}`, { missing });
  if (productIds.length) {
    await db.$executeRaw`
      UPDATE collection_products AS cp SET position = (v.ord - 1)::int
      FROM unnest(${productIds}::text[]) WITH ORDINALITY AS v(pid, ord)
      WHERE cp.collection_id = ${id} AND cp.product_id = v.pid`;
  }
  return { collection: await updateVersioned(db, id, {}), products: productIds };
}

/**
 * Sets the order of collections: the ids given come first in that order; collections not
 * listed follow in their current order.
 */
export async function orderCollections(db: Db, ids: string[]) {
  const dupes = dedupe(ids.filter((p, i) => ids.indexOf(p) !== i));
  if (dupes.length) throw invalid(`ids lists a collection more than once: ${dupes.join(", ")}`, { duplicates: dupes });
  const all = (await db.collection.findMany({ select: { id: true }, orderBy: collectionOrder })).map((c) => c.id);
  const known = new Set(all);
  const unknown = ids.filter((i) => !known.has(i));
  if (unknown.length) throw invalid(`Unknown collection ids: ${unknown.join(", ")}`, { unknown });
  const listed = new Set(ids);
  const order = [...ids, ...all.filter((i) => !listed.has(i))];
  await db.$executeRaw`
    UPDATE collections AS c SET sort_order = (v.ord - 1)::int
    FROM unnest(${order}::text[]) WITH ORDINALITY AS v(cid, ord)
    WHERE c.id = v.cid`;
  return { ok: true as const, ids: order };
}

// --- Partner (vendor) collections --------------------------------------------------------------

/** A vendor may act only on their own partner id; admins on any (writes need catalog.edit). */
async function assertPartner(db: Db, caller: User, partnerId: string, write: boolean) {
  await assertVendor(db, partnerId, "Partner not found");
  if (caller.role === "VENDOR" && caller.vendor_id !== partnerId) throw notAllowed("Vendors may only manage their own collections");
  if (caller.role === "ADMIN" && write && !hasPermission(caller, "catalog.edit")) throw notAllowed(Messages.FORBIDDEN);
}

async function findPartnerCollection(db: Db, partnerId: string, id: string) {
  const c = await db.collection.findFirst({ where: { id, partner_id: partnerId }, select: { id: true } });
  if (!c) throw notFoundError(COLLECTION_NOT_FOUND);
}

export async function listPartnerCollections(db: Db, caller: User, partnerId: string, q: { skip: number; take: number; status?: CollectionStatus }) {
  await assertPartner(db, caller, partnerId, false);
  return listCollections(db, { skip: q.skip, take: q.take, status: q.status ?? "all", partner_id: partnerId }, { editor: true });
}

export async function updatePartnerCollection(
  db: Db,
  caller: User,
  partnerId: string,
  id: string,
  input: { title?: string; description?: string | null; image_url?: string | null; target_gender?: TargetGender; version?: number }
) {
  await assertPartner(db, caller, partnerId, true);
  await findPartnerCollection(db, partnerId, id);
  return updateVersioned(
    db,
    id,
    { title: input.title, description: emptyToNull(input.description), image_url: emptyToNull(input.image_url), target_gender: input.target_gender },
    input.version
  );
}

export async function deletePartnerCollection(db: Db, caller: User, partnerId: string, id: string) {
  await assertPartner(db, caller, partnerId, true);
  await findPartnerCollection(db, partnerId, id);
  return deleteCollection(db, id);
}

// --- Suggestions -------------------------------------------------------------------------------

const STOP_WORDS = new Set(
  (
    "a an the and or but for with without of in on to from by at as into over under my our your their his her its some any all " +
    "that this these those is are be been was were it its me we you they i want need like looking look looks something things " +
    "thing perfect great best new cool nice good collection collections edit edits items item products product pieces piece " +
    "clothes clothing outfit outfits wear wardrobe styles"
  ).split(" ")
);
const MEN_WORDS = new Set([
  "men",
  "mens",
  "man",
  "male",
  "males",
  "menswear",
  "guy",
  "guys",
  "gentleman",
  "gentlemen",
  "boy",
  "boys",
  "him",
  "his",
  "masculine",
]);
const WOMEN_WORDS = new Set(["women", "womens", "woman", "female", "females", "womenswear", "lady", "ladies", "girl", "girls", "her", "hers", "feminine"]);
const SMALL_WORDS = new Set(["a", "an", "the", "and", "or", "for", "with", "of", "in", "on", "to", "by", "at"]);

/** A light plural stemmer: "dresses" → "dress", "shirts" → "shirt", "glasses" → "glass". */
export function stem(w: string): string {
  if (w.length > 4 && /(ses|xes|ches|shes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) return w.slice(0, -1);
  return w;
}

/** Prompt → search words and the gender it names (both or none named: no gender filter). */
export function parsePrompt(prompt: string): { words: string[]; gender: TargetGender | null; tokens: string[] } {
  const tokens = prompt
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]s\b/g, "s")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const men = tokens.some((t) => MEN_WORDS.has(t));
  const women = tokens.some((t) => WOMEN_WORDS.has(t));
  const unisex = tokens.includes("unisex");
  const gender: TargetGender | null = unisex || (men && women) ? null : men ? "menswear" : women ? "womenswear" : null;
  const words = dedupe(tokens.filter((t) => t.length >= 2 && !STOP_WORDS.has(t) && !MEN_WORDS.has(t) && !WOMEN_WORDS.has(t) && t !== "unisex").map(stem)).slice(
    0,
    12
  );
  return { words, gender, tokens };
}

function titleCase(prompt: string): string {
  const words = prompt
    .replace(/\s+/g, " ")
    .replace(/[.!?,;:]+$/g, "")
    .trim()
    .split(" ");
  const t = words.map((w, i) => (i > 0 && SMALL_WORDS.has(w.toLowerCase()) ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
  return t.length > 80 ? `${t.slice(0, 79).trimEnd()}…` : t;
}

type Ranked = { id: string; score: number };

/**
 * Ranks visible products for a prompt with the search engine (app/services/search/rank-for-prompt):
 * the prompt's gender restricts; its colours, materials and garment types, and its other words
 * (typos corrected, word-vector synonyms), rank: 2 per prompt word matched, then ts_rank over the
 * weighted product text, type/colour/material bonuses and the text-vector similarity.
 */
async function rankProducts(db: Db, prompt: string, gender: TargetGender | null, limit: number): Promise<Ranked[]> {
  const { ranked } = await rankForPrompt({ db }, prompt, { limit, gender });
  return ranked;
}

export interface SuggestionInput {
  prompt: string;
  productCount: number;
  topKProducts: number;
}

/**
 * Collection suggestions for a prompt: the whole prompt's top products, and when the ranked
 * products span several product types, one focused suggestion for each of the two largest.
 */
export async function generateSuggestions(db: Db, input: SuggestionInput) {
  const { words, gender } = parsePrompt(input.prompt);
  if (words.length === 0 && !gender) throw invalid('prompt needs at least one descriptive word (e.g. "linen summer shirts")');

  let ranked: Ranked[];
  if (words.length === 0) {
    // Only a gender: the newest products for it.
    const rows = await db.product.findMany({
      where: visibleProduct(gender!),
      select: { id: true },
      orderBy: [{ created_at: "desc" }, { id: "asc" }],
      take: input.productCount * 3,
    });
    ranked = rows.map((r) => ({ id: r.id, score: 0 }));
  } else {
    ranked = await rankProducts(db, input.prompt, gender, input.productCount * 3);
  }
  if (ranked.length === 0) return { suggestions: [] };

  const cards = await db.product.findMany({ where: { id: { in: ranked.map((r) => r.id) } }, select: productCardSelect });
  const byId = new Map(cards.map((c) => [c.id, toProductCard(c)]));
  const scored = ranked.flatMap((r) => (byId.has(r.id) ? [{ ...byId.get(r.id)!, score: r.score }] : []));

  const taken = new Set((await db.collection.findMany({ select: { handle: true } })).map((c) => c.handle));
  const suggestion = (title: string, items: typeof scored) => {
    const products = items.slice(0, input.productCount);
    const handle = freeHandle(slugify(title, "collection"), taken);
    taken.add(handle);
    return {
      title,
      handle,
      target_gender: gender ?? dominantGender(products.map((p) => p.target_gender)),
      keywords: words,
      products,
      topProducts: products.slice(0, input.topKProducts),
    };
  };

  const mainTitle = titleCase(input.prompt);
  const suggestions = [suggestion(mainTitle, scored)];
  const byType = new Map<string, typeof scored>();
  for (const p of scored) if (p.productType) byType.set(p.productType, [...(byType.get(p.productType) ?? []), p]);
  if (byType.size >= 2) {
    const minSize = Math.min(input.topKProducts, 3);
    const largest = [...byType.entries()].filter(([, items]) => items.length >= minSize).sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
    for (const [type, items] of largest.slice(0, 2)) suggestions.push(suggestion(`${mainTitle}: ${type}`, items));
  }
  return { suggestions };
}

function dominantGender(gs: TargetGender[]): TargetGender {
  if (gs.length === 0) return "both";
  const men = gs.filter((g) => g === "menswear").length;
  const women = gs.filter((g) => g === "womenswear").length;
  if (men / gs.length >= 0.8) return "menswear";
  if (women / gs.length >= 0.8) return "womenswear";
  return "both";
}
