/**
 * "Complete the look" on a product page: the published looks that hold the product, and when there
 * is none, one proposed on the fly by the engine (not stored).
 */
import type { Db } from "~/db.server";
import { listPublishedOutfits } from "./curated.server";
import { proposeForProduct } from "./proposals.server";

export async function completeTheLook(db: Db, q: { product_id: string; take: number }) {
  const { outfits } = await listPublishedOutfits(db, { skip: 0, take: q.take, product_id: q.product_id });
  if (outfits.length > 0) return { outfits, proposal: null };
  return { outfits, proposal: await proposeForProduct(db, q.product_id) };
}
