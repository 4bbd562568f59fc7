/**
 * Catalogue fixtures for the products, companion and similar-products tests: a product with
 * options, variants (colour hexes, inventory) and images, inserted directly into the read model.
 */
import type { Db } from "../../app/db.server";

export const pgid = (n: number) => `gid://shopify/Product/${n}`;
export const vgid = (n: number, i: number) => `gid://shopify/ProductVariant/${n}0${i}`;
export const mgid = (n: number, i: number) => `gid://shopify/MediaImage/${n}0${i}`;

export interface ProductFixture {
  n: number;
  title: string;
  productType?: string;
  vendor?: string;
  gender?: "menswear" | "womenswear" | "both";
  price?: number;
  /** Colour name → hex; one variant per colour × size. */
  colours?: Record<string, string>;
  sizes?: string[];
  status?: "active" | "draft" | "archived";
  tags?: string[];
  publishedAt?: Date | null;
  images?: number;
  inventory?: number;
  descriptionHtml?: string;
  storeId?: string | null;
  vendorId?: string | null;
  companion?: { taobao_id?: string; taobao_title?: string; status?: "draft" | "pending_review" | "active" | "archived" } | false;
  createdAt?: Date;
}

export async function createProduct(db: Db, f: ProductFixture) {
  const colours = Object.entries(f.colours ?? { Black: "#1c1c1e" });
  const sizes = f.sizes ?? ["S", "M"];
  const price = f.price ?? 50;
  const images = Array.from({ length: f.images ?? 2 }, (_, i) => ({
    id: mgid(f.n, i),
    url: `/uploads/images/test/${f.n}-${i}.jpg`,
    altText: `${f.title} ${i}`,
    width: 600,
    height: 800,
    position: i,
  }));
  const variants = colours.flatMap(([colour, hex], ci) =>
    sizes.map((size, si) => {
      const i = ci * sizes.length + si;
      const qty = f.inventory ?? 5;
      return {
        id: vgid(f.n, i),
        title: `${colour} / ${size}`,
        price: price + si,
        compareAtPrice: si === 0 ? price + 20 : null,
        sku: `SKU-${f.n}-${i}`,
        inventory_quantity: qty,
        availableForSale: qty > 0,
        selectedOptions: [
          { name: "Color", value: colour },
          { name: "Size", value: size },
        ],
        color_hex: hex,
        position: i,
        image_url: images[ci % Math.max(1, images.length)]?.url ?? null,
      };
    }),
  );
  const total = variants.reduce((s, v) => s + Math.max(0, v.inventory_quantity), 0);
  await db.product.create({
    data: {
      id: pgid(f.n),
      title: f.title,
      handle: f.title.toLowerCase().replace(/[^a-z0-9]+/g, "-") + `-${f.n}`,
      vendor: f.vendor ?? "Studio North",
      productType: f.productType ?? "Shirts",
      description: (f.descriptionHtml ?? "").replace(/<[^>]+>/g, " "),
      descriptionHtml: f.descriptionHtml ?? "",
      availableForSale: total > 0,
      totalInventory: total,
      priceMin: Math.min(...variants.map((v) => v.price)),
      priceMax: Math.max(...variants.map((v) => v.price)),
      target_gender: f.gender ?? "both",
      status: f.status ?? "active",
      tags: f.tags ?? [],
      publishedAt: f.publishedAt, // undefined → the column default (published now)
      featuredImageUrl: images[0]?.url ?? null,
      featuredImageAltText: images[0]?.altText ?? null,
      store_id: f.storeId ?? null,
      vendor_id: f.vendorId ?? null,
      ...(f.createdAt ? { created_at: f.createdAt } : {}),
      options: {
        create: [
          { id: `gid://shopify/ProductOption/${f.n}01`, name: "Color", values: colours.map(([c]) => c), position: 1 },
          { id: `gid://shopify/ProductOption/${f.n}02`, name: "Size", values: sizes, position: 2 },
        ],
      },
      variants: { create: variants },
      images: { create: images },
      ...(f.companion === false
        ? {}
        : {
            companion: {
              create: {
                taobao_id: f.companion?.taobao_id ?? null,
                taobao_title: f.companion?.taobao_title ?? null,
                status: f.companion?.status ?? "draft",
              },
            },
          }),
    },
  });
  return { id: pgid(f.n), variants: variants.map((v) => v.id), images: images.map((i) => i.id) };
}

export const enc = encodeURIComponent;
