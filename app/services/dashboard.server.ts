import type { Db } from "~/db.server";

export async function adminOverview(db: Db) {
  const [products, activeProducts, stores, vendors, orders, shoppers, pendingReviews, collections] = await Promise.all([
    db.product.count(),
    db.product.count({ where: { status: "active" } }),
    db.store.count(),
    db.vendor.count(),
    db.order.count(),
    db.user.count({ where: { role: "SHOPPER", auth_provider: { in: ["password", "shopify"] } } }),
    db.review.count({ where: { status: "pending" } }),
    db.collection.count(),
  ]);
  const byGender = await db.product.groupBy({ by: ["target_gender"], _count: { _all: true }, where: { status: "active" } });
  return {
    counts: { products, activeProducts, stores, vendors, orders, shoppers, pendingReviews, collections },
    productsByGender: Object.fromEntries(byGender.map((g) => [g.target_gender, g._count._all])) as Record<string, number>,
  };
}

/** Vendors by name, for pickers (e.g. linking a new vendor user). */
export function vendorOptions(db: Db) {
  return db.vendor.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
}
