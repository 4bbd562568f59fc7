/**
 * A shopper's own collections (SPEC §7 "User collections"). Every function takes the caller's id
 * and only ever reads or changes that caller's collections: another shopper's collection is
 * "Collection not found" (404), exactly as a collection that does not exist.
 *
 * `createUserCollection` is also what the personalised-collection generator (assistant area) calls
 * to store an AI-generated collection (`is_ai_generated`, `prompt`).
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import { USER_COLLECTIONS_MAX, USER_COLLECTION_PREVIEW_IMAGES, USER_COLLECTION_PRODUCTS_MAX, type UserCollection } from "~/contract/user-collections";
import { DomainError, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { lockItem, serialisedPerItem } from "~/db/item-lock.server";
import { cardSelect, decodeCursor, encodeCursor, toProductCard } from "./catalog.server";
import { visibleProductWhere } from "~/lib/visibility";
import { decodeKeyset, encodeKeyset, isVisibleRow } from "./saved.server";

export const COLLECTION_NOT_FOUND = "Collection not found";

const collectionInclude = (now: Date) =>
  ({
    _count: { select: { products: true } },
    products: {
      where: { product: { ...visibleProductWhere(now), featuredImageUrl: { not: null } } },
      orderBy: [{ position: "asc" }, { created_at: "asc" }, { product_id: "asc" }],
      take: USER_COLLECTION_PREVIEW_IMAGES,
      select: { product: { select: { title: true, featuredImageUrl: true, featuredImageAltText: true } } },
    },
  } satisfies Prisma.UserCollectionInclude);

type CollectionRow = Prisma.UserCollectionGetPayload<{ include: ReturnType<typeof collectionInclude> }>;

function toUserCollection(c: CollectionRow, containsProduct?: boolean): UserCollection {
  const previewImages = c.products.map(({ product: p }) => ({ url: p.featuredImageUrl!, altText: p.featuredImageAltText ?? p.title }));
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    image_url: c.image_url ?? previewImages[0]?.url ?? null,
    is_ai_generated: c.is_ai_generated,
    prompt: c.prompt,
    productCount: c._count.products,
    previewImages,
    ...(containsProduct === undefined ? {} : { containsProduct }),
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

/** The caller's collection, or 404 (also for someone else's). */
async function ownCollection(db: Db, userId: string, id: string): Promise<CollectionRow> {
  const c = await db.userCollection.findFirst({ where: { id, user_id: userId }, include: collectionInclude(new Date()) });
  if (!c) throw notFoundError(COLLECTION_NOT_FOUND);
  return c;
}

async function assertOwned(db: Db, userId: string, id: string): Promise<void> {
  const c = await db.userCollection.findFirst({ where: { id, user_id: userId }, select: { id: true } });
  if (!c) throw notFoundError(COLLECTION_NOT_FOUND);
}

/** Product ids that shoppers may see, in the order asked; unknown or hidden ones → 404 listing them. */
async function visibleProducts(db: Db, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = new Set((await db.product.findMany({ where: { id: { in: unique }, ...visibleProductWhere() }, select: { id: true } })).map((p) => p.id));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new DomainError("not_found", missing.length === 1 ? `Product not found: ${missing[0]}` : `Products not found: ${missing.join(", ")}`, { missing });
  }
  return unique;
}

export async function listUserCollections(db: Db, userId: string, q: { cursor?: string; limit: number; product_id?: string }) {
  const after = decodeKeyset(q.cursor);
  const rows = await db.userCollection.findMany({
    where: {
      user_id: userId,
      ...(after ? { OR: [{ created_at: { lt: after.at } }, { created_at: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    include: collectionInclude(new Date()),
  });
  const page = rows.slice(0, q.limit);
  let containing: Set<string> | null = null;
  if (q.product_id) {
    const hits = await db.userCollectionProduct.findMany({
      where: { product_id: q.product_id, user_collection_id: { in: page.map((c) => c.id) } },
      select: { user_collection_id: true },
    });
    containing = new Set(hits.map((h) => h.user_collection_id));
  }
  const last = page[page.length - 1];
  return {
    data: page.map((c) => toUserCollection(c, containing ? containing.has(c.id) : undefined)),
    nextCursor: rows.length > q.limit && last ? encodeKeyset(last.created_at, last.id) : null,
  };
}

export async function getUserCollection(db: Db, userId: string, id: string): Promise<UserCollection> {
  return toUserCollection(await ownCollection(db, userId, id));
}

/** Creates a collection for the caller, with products (visible ones, in the order given) when asked. */
export async function createUserCollection(
  db: Db,
  userId: string,
  input: { name: string; description?: string | null; product_ids?: string[]; is_ai_generated?: boolean; prompt?: string | null; image_url?: string | null }
): Promise<UserCollection> {
  const ids = input.product_ids?.length ? await visibleProducts(db, input.product_ids) : [];
  if (ids.length > USER_COLLECTION_PRODUCTS_MAX) throw unprocessableError(`A collection holds at most ${USER_COLLECTION_PRODUCTS_MAX} products`);
  // Count and create under a lock per user: parallel creations cannot pass the cap together.
  const created = await serialisedPerItem(db, `user-collections:${userId}`, async (tx) => {
    const count = await tx.userCollection.count({ where: { user_id: userId } });
    if (count >= USER_COLLECTIONS_MAX) throw unprocessableError(`You can keep at most ${USER_COLLECTIONS_MAX} collections: delete one to make room`);
    return tx.userCollection.create({
      data: {
        user_id: userId,
        name: input.name,
        description: input.description ?? null,
        image_url: input.image_url ?? null,
        is_ai_generated: input.is_ai_generated ?? false,
        prompt: input.prompt ?? null,
        products: { create: ids.map((product_id, position) => ({ product_id, position })) },
      },
      include: collectionInclude(new Date()),
    });
  });
  return toUserCollection(created);
}

export async function updateUserCollection(db: Db, userId: string, id: string, input: { name?: string; description?: string | null }): Promise<UserCollection> {
  await assertOwned(db, userId, id);
  await db.userCollection.update({
    where: { id },
    data: { name: input.name, description: input.description === undefined ? undefined : input.description || null },
  });
  return getUserCollection(db, userId, id);
}

export async function deleteUserCollection(db: Db, userId: string, id: string): Promise<{ id: string; deleted: true }> {
  // One statement that checks ownership: another shopper's id deletes nothing and answers 404.
  const { count } = await db.userCollection.deleteMany({ where: { id, user_id: userId } });
  if (count === 0) throw notFoundError(COLLECTION_NOT_FOUND);
  return { id, deleted: true };
}

/** The collection's products in its order (offset cursor); hidden products come back as `product: null`. */
export async function listUserCollectionProducts(db: Db, userId: string, id: string, q: { cursor?: string; limit: number }) {
  await assertOwned(db, userId, id);
  const offset = decodeCursor(q.cursor);
  const rows = await db.userCollectionProduct.findMany({
    where: { user_collection_id: id },
    orderBy: [{ position: "asc" }, { created_at: "asc" }, { product_id: "asc" }],
    skip: offset,
    take: q.limit + 1,
    select: { product_id: true, created_at: true, product: { select: { ...cardSelect, status: true, publishedAt: true } } },
  });
  const now = new Date();
  const page = rows.slice(0, q.limit);
  return {
    items: page.map((r) => ({ product_id: r.product_id, addedAt: r.created_at, product: isVisibleRow(r.product, now) ? toProductCard(r.product) : null })),
    nextCursor: rows.length > q.limit ? encodeCursor(offset + q.limit) : null,
  };
}

/** Adds products at the end, in the order given; ones already in the collection stay where they are. */
export async function addUserCollectionProducts(db: Db, userId: string, id: string, productIds: string[]) {
  await assertOwned(db, userId, id);
  const ids = await visibleProducts(db, productIds);
  const added = await db.$transaction(async (tx) => {
    // One change of a collection at a time: parallel adds would all pass the cap check and take
    // the same positions.
    await lockItem(tx, `user-collection:${id}`);
    const present = new Set(
      (await tx.userCollectionProduct.findMany({ where: { user_collection_id: id, product_id: { in: ids } }, select: { product_id: true } })).map(
        (r) => r.product_id
      )
    );
    const fresh = ids.filter((p) => !present.has(p));
    if (fresh.length === 0) return [];
    const total = await tx.userCollectionProduct.count({ where: { user_collection_id: id } });
    if (total + fresh.length > USER_COLLECTION_PRODUCTS_MAX) {
      throw unprocessableError(`A collection holds at most ${USER_COLLECTION_PRODUCTS_MAX} products (this one has ${total})`);
    }
    const max = await tx.userCollectionProduct.aggregate({ where: { user_collection_id: id }, _max: { position: true } });
    const start = (max._max.position ?? -1) + 1;
    await tx.userCollectionProduct.createMany({
      data: fresh.map((product_id, i) => ({ user_collection_id: id, product_id, position: start + i })),
      skipDuplicates: true,
    });
    await tx.userCollection.update({ where: { id }, data: { updated_at: new Date() } });
    return fresh;
  });
  return { added, collection: await getUserCollection(db, userId, id) };
}

/** Removes products; ids that are not in the collection are ignored (any product id, hidden ones too). */
export async function removeUserCollectionProducts(db: Db, userId: string, id: string, productIds: string[]) {
  await assertOwned(db, userId, id);
  const ids = [...new Set(productIds)];
  const removed = await db.$transaction(async (tx) => {
    await lockItem(tx, `user-collection:${id}`);
    const present = (await tx.userCollectionProduct.findMany({ where: { user_collection_id: id, product_id: { in: ids } }, select: { product_id: true } })).map(
      (r) => r.product_id
    );
    if (present.length === 0) return [];
    await tx.userCollectionProduct.deleteMany({ where: { user_collection_id: id, product_id: { in: present } } });
    await tx.userCollection.update({ where: { id }, data: { updated_at: new Date() } });
    return present;
  });
  return { removed, collection: await getUserCollection(db, userId, id) };
}
