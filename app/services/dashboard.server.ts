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

/** A vendor's own overview; every query is filtered by the caller's vendor id. */
export async function vendorOverview(db: Db, vendorId: string) {
  const vendor = await db.vendor.findUnique({ where: { id: vendorId } });
  if (!vendor) return null;
  const stores = await db.store.findMany({
    where: { vendor_id: vendorId },
    orderBy: { name: "asc" },
    select: { id: true, name: true, handle: true, target_gender: true, _count: { select: { products: true } } },
  });
  const recentProducts = await db.product.findMany({
    where: { vendor_id: vendorId },
    orderBy: [{ created_at: "desc" }, { id: "asc" }],
    take: 10,
    select: { id: true, title: true, status: true, priceMin: true, currencyCode: true, totalInventory: true, featuredImageUrl: true },
  });
  const productCount = await db.product.count({ where: { vendor_id: vendorId } });
  return {
    vendor: { id: vendor.id, name: vendor.name, handle: vendor.handle, commissionRate: vendor.commission_rate.toFixed(2) },
    stores: stores.map((s) => ({ id: s.id, name: s.name, handle: s.handle, target_gender: s.target_gender, products: s._count.products })),
    productCount,
    recentProducts: recentProducts.map((p) => ({ ...p, price: `${p.priceMin.toFixed(2)} ${p.currencyCode}` })),
  };
}

/** Vendors by name, for pickers (e.g. linking a new vendor user). */
export function vendorOptions(db: Db) {
  return db.vendor.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
}
