/** Product, collection, store and style fixtures for the storefront unit tests. */
import type { Collection, ProductCard, Store, Style } from "~/contract";

export function card(i: number | string, over: Partial<ProductCard> = {}): ProductCard {
  return {
    id: `gid://shopify/Product/${i}`,
    title: `Product ${i}`,
    handle: `product-${i}`,
    vendor: "Atelier Nord",
    productType: "Coat",
    availableForSale: true,
    featuredImage: { url: `/uploads/images/p${i}.jpg`, altText: null },
    priceRange: { minVariantPrice: { amount: "120.00", currencyCode: "EUR" }, maxVariantPrice: { amount: "120.00", currencyCode: "EUR" } },
    target_gender: "both",
    colorHexes: [],
    storeId: null,
    ...over,
  };
}

export function collection(id: string): Collection {
  return {
    id,
    title: `Collection ${id}`,
    handle: `collection-${id}`,
    description: null,
    image_url: null,
    status: "active",
    featured: false,
    version: 1,
    view_count: 0,
    target_gender: "both",
    sort_order: 0,
    partner_id: null,
    published_at: null,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    productCount: 4,
  };
}

export function store(id: string): Store {
  return {
    id,
    name: `Store ${id}`,
    handle: `store-${id}`,
    description: null,
    logo_url: null,
    banner_url: null,
    size_recommendation: null,
    target_gender: "both",
    vendor_id: "v1",
    sort_order: 0,
    productCount: 4,
    followerCount: 0,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
}

export function style(id: string): Style {
  return {
    id,
    name: `Style ${id}`,
    handle: `style-${id}`,
    description: null,
    image_url: null,
    featured: true,
    score: 1,
    target_gender: "both",
    categorisation_status: "completed",
    product_count: 4,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
}
