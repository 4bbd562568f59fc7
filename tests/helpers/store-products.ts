/**
 * Products for the stores tests: each numbered product belongs to a store (by the test's own key
 * for it), is for a gender and active unless said otherwise, priced 10+n to 20+n, and created in
 * the order of its number (product n one second after product n-1), so "newest first" is known.
 */
import type { TargetGender } from "../../app/contract/common";
import type { Db } from "../../app/db.server";

export interface StoreProduct {
  n: number;
  /** The test's key for the store: looked up in the storeIds passed along. */
  store: string;
  gender: TargetGender;
  status?: "active" | "draft" | "archived";
}

export const productGid = (n: number) => `gid://shopify/Product/${n}`;

export async function createStoreProducts(db: Db, storeIds: Record<string, string>, products: StoreProduct[]): Promise<void> {
  const base = Date.now() - 1_000_000;
  for (const p of products) {
    await db.product.create({
      data: {
        id: productGid(p.n),
        title: `Product ${p.n}`,
        handle: `product-${p.n}`,
        vendor: "Test",
        productType: "Shirts",
        availableForSale: true,
        priceMin: 10 + p.n,
        priceMax: 20 + p.n,
        target_gender: p.gender,
        status: p.status ?? "active",
        store_id: storeIds[p.store],
        created_at: new Date(base + p.n * 1000),
      },
    });
  }
}
