/**
 * Looks saved into a shopper's collections (issue 19): a collection holds products and, beside
 * them, published looks. Only the caller's own collections; another's answers 404 like a missing one.
 */
import type { Db } from "~/db.server";
import { USER_COLLECTION_OUTFITS_MAX, type OutfitDetail } from "~/contract/outfits";
import { conflictError, notFoundError } from "~/lib/domain-errors";
import { COLLECTION_NOT_FOUND } from "../user-collections.server";
import { getPublishedOutfit, listPublishedOutfitsByIds } from "./curated.server";

async function assertOwned(db: Db, userId: string, collectionId: string) {
  const c = await db.userCollection.findFirst({ where: { id: collectionId, user_id: userId }, select: { id: true } });
  if (!c) throw notFoundError(COLLECTION_NOT_FOUND);
}

export async function listCollectionOutfits(db: Db, userId: string, collectionId: string): Promise<{ data: { items: OutfitDetail[] } }> {
  await assertOwned(db, userId, collectionId);
  const links = await db.userCollectionOutfit.findMany({ where: { user_collection_id: collectionId }, orderBy: [{ created_at: "desc" }, { outfit_id: "asc" }], select: { outfit_id: true } });
  return { data: { items: await listPublishedOutfitsByIds(db, links.map((l) => l.outfit_id)) } };
}

export async function addCollectionOutfit(db: Db, userId: string, collectionId: string, outfitId: string) {
  await assertOwned(db, userId, collectionId);
  // Only a look shoppers can see may be saved (a draft answers 404, as it does to a read).
  await getPublishedOutfit(db, outfitId);
  const existing = await db.userCollectionOutfit.findUnique({ where: { user_collection_id_outfit_id: { user_collection_id: collectionId, outfit_id: outfitId } } });
  if (existing) return { data: { added: false } };
  const count = await db.userCollectionOutfit.count({ where: { user_collection_id: collectionId } });
  if (count >= USER_COLLECTION_OUTFITS_MAX) throw conflictError(`A collection keeps at most ${USER_COLLECTION_OUTFITS_MAX} looks`);
  await db.userCollectionOutfit.create({ data: { user_collection_id: collectionId, outfit_id: outfitId, position: count } });
  return { data: { added: true } };
}

export async function removeCollectionOutfit(db: Db, userId: string, collectionId: string, outfitId: string) {
  await assertOwned(db, userId, collectionId);
  const r = await db.userCollectionOutfit.deleteMany({ where: { user_collection_id: collectionId, outfit_id: outfitId } });
  return { data: { removed: r.count > 0 } };
}
