/**
 * The product read model (prisma Product + options + variants + images, in the Storefront shape)
 * kept in step with the store: webhooks and the catalogue sync hand a ProductSnapshot from the
 * commerce port to `upsertProductSnapshot`. Writes only what changed, so a repeated sync of an
 * unchanged catalogue is cheap and leaves `updated_at` alone. The product companion row and every
 * other row pointing at the product stay (the product is updated in place, never re-created).
 */
import { Prisma } from "@prisma/client";
import type { Db } from "~/db.server";
import type { ProductSnapshot } from "~/providers/commerce/port";

type Tx = Prisma.TransactionClient;
export type UpsertOutcome = "created" | "updated" | "unchanged";

const dec = (v: string) => new Prisma.Decimal(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const dateEq = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** Aggregates the listing reads, computed from the snapshot's variants and images. */
export function snapshotAggregates(s: ProductSnapshot) {
  const prices = s.variants.map((v) => Number(v.price));
  const first = [...s.images].sort((a, b) => a.position - b.position)[0];
  return {
    priceMin: (prices.length ? Math.min(...prices) : 0).toFixed(2),
    priceMax: (prices.length ? Math.max(...prices) : 0).toFixed(2),
    totalInventory: s.variants.reduce((n, v) => n + Math.max(0, v.inventoryQuantity), 0),
    availableForSale: s.variants.some((v) => v.availableForSale),
    featuredImageUrl: first?.url ?? null,
    featuredImageAltText: first?.altText ?? null,
  };
}

async function resolveStore(tx: Tx, storeId: string | undefined, existingStoreId: string | null | undefined, vendorText: string) {
  const id = storeId ?? existingStoreId ?? null;
  const store = id
    ? await tx.store.findUnique({ where: { id }, select: { id: true, vendor_id: true } })
    : vendorText
      ? await tx.store.findFirst({ where: { name: vendorText }, select: { id: true, vendor_id: true } })
      : null;
  return store ? { store_id: store.id, vendor_id: store.vendor_id } : { store_id: null, vendor_id: null };
}

/**
 * Writes one product of the store into the read model.
 * `storeId` links it to one of our stores; without it an existing link is kept, or the store
 * whose name is the product's vendor is used.
 */
export async function upsertProductSnapshot(db: Db, s: ProductSnapshot, opts: { storeId?: string } = {}): Promise<UpsertOutcome> {
  return db.$transaction(async (tx) => {
    const existing = await tx.product.findUnique({
      where: { id: s.id },
      include: { options: true, variants: true, images: true },
    });
    const link = await resolveStore(tx, opts.storeId, existing?.store_id, s.vendor);
    // A handle is unique in the shop: another row holding it is a product deleted since.
    const clash = await tx.product.findFirst({ where: { handle: s.handle, id: { not: s.id } }, select: { id: true } });
    if (clash) await tx.product.update({ where: { id: clash.id }, data: { handle: `${s.handle}--${clash.id.split("/").pop()}` } });

    const agg = snapshotAggregates(s);
    const fields = {
      title: s.title,
      handle: s.handle,
      vendor: s.vendor,
      productType: s.productType,
      description: s.description,
      descriptionHtml: s.descriptionHtml,
      status: s.status,
      tags: s.tags,
      target_gender: s.targetGender,
      currencyCode: s.currencyCode,
      publishedAt: s.publishedAt ? new Date(s.publishedAt) : null,
      ...agg,
      ...link,
    };
    let changed = false;
    if (!existing) {
      await tx.product.create({ data: { id: s.id, ...fields, priceMin: dec(agg.priceMin), priceMax: dec(agg.priceMax), created_at: new Date(s.createdAt) } });
    } else {
      const differs =
        existing.title !== fields.title ||
        existing.handle !== fields.handle ||
        existing.vendor !== fields.vendor ||
        existing.productType !== fields.productType ||
        existing.description !== fields.description ||
        existing.descriptionHtml !== fields.descriptionHtml ||
        existing.status !== fields.status ||
        !same(existing.tags, fields.tags) ||
        existing.target_gender !== fields.target_gender ||
        existing.currencyCode !== fields.currencyCode ||
        !dateEq(existing.publishedAt, fields.publishedAt) ||
        existing.priceMin.toFixed(2) !== agg.priceMin ||
        existing.priceMax.toFixed(2) !== agg.priceMax ||
        existing.totalInventory !== agg.totalInventory ||
        existing.availableForSale !== agg.availableForSale ||
        existing.featuredImageUrl !== agg.featuredImageUrl ||
        existing.featuredImageAltText !== agg.featuredImageAltText ||
        existing.store_id !== link.store_id ||
        existing.vendor_id !== link.vendor_id;
      if (differs) {
        await tx.product.update({ where: { id: s.id }, data: { ...fields, priceMin: dec(agg.priceMin), priceMax: dec(agg.priceMax) } });
        changed = true;
      }
    }

    // Options (by name: unique per product).
    const optionsNow = existing?.options ?? [];
    const wantedOptions = new Set(s.options.map((o) => o.name));
    const staleOptions = optionsNow.filter((o) => !wantedOptions.has(o.name)).map((o) => o.id);
    if (staleOptions.length) {
      await tx.productOption.deleteMany({ where: { id: { in: staleOptions } } });
      changed = true;
    }
    for (const o of s.options) {
      const cur = optionsNow.find((x) => x.name === o.name);
      if (!cur) {
        await tx.productOption.create({ data: { id: o.id, product_id: s.id, name: o.name, values: o.values, position: o.position } });
        changed = true;
      } else if (!same(cur.values, o.values) || cur.position !== o.position) {
        await tx.productOption.update({ where: { id: cur.id }, data: { values: o.values, position: o.position } });
        changed = true;
      }
    }

    // Variants (by id; updated in place so rows pointing at them stay).
    const variantsNow = new Map((existing?.variants ?? []).map((v) => [v.id, v]));
    const wantedVariants = new Set(s.variants.map((v) => v.id));
    const staleVariants = [...variantsNow.keys()].filter((id) => !wantedVariants.has(id));
    if (staleVariants.length) {
      await tx.productVariant.deleteMany({ where: { id: { in: staleVariants } } });
      changed = true;
    }
    const newVariants: Prisma.ProductVariantCreateManyInput[] = [];
    for (const v of s.variants) {
      const data = {
        title: v.title,
        sku: v.sku,
        price: dec(v.price),
        compareAtPrice: v.compareAtPrice === null ? null : dec(v.compareAtPrice),
        currencyCode: s.currencyCode,
        availableForSale: v.availableForSale,
        inventory_quantity: v.inventoryQuantity,
        image_url: v.imageUrl,
        selectedOptions: v.selectedOptions as unknown as Prisma.InputJsonValue,
        color_hex: v.colorHex,
        position: v.position,
      };
      const cur = variantsNow.get(v.id);
      if (!cur) {
        newVariants.push({ id: v.id, product_id: s.id, ...data });
        continue;
      }
      const differs =
        cur.title !== v.title ||
        cur.sku !== v.sku ||
        cur.price.toFixed(2) !== Number(v.price).toFixed(2) ||
        (cur.compareAtPrice?.toFixed(2) ?? null) !== (v.compareAtPrice === null ? null : Number(v.compareAtPrice).toFixed(2)) ||
        cur.currencyCode !== s.currencyCode ||
        cur.availableForSale !== v.availableForSale ||
        cur.inventory_quantity !== v.inventoryQuantity ||
        cur.image_url !== v.imageUrl ||
        !same(cur.selectedOptions, v.selectedOptions) ||
        cur.color_hex !== v.colorHex ||
        cur.position !== v.position ||
        cur.product_id !== s.id;
      if (differs) {
        await tx.productVariant.update({ where: { id: v.id }, data });
        changed = true;
      }
    }
    if (newVariants.length) {
      await tx.productVariant.createMany({ data: newVariants });
      changed = true;
    }

    // Images (by id).
    const imagesNow = new Map((existing?.images ?? []).map((i) => [i.id, i]));
    const wantedImages = new Set(s.images.map((i) => i.id));
    const staleImages = [...imagesNow.keys()].filter((id) => !wantedImages.has(id));
    if (staleImages.length) {
      await tx.productImage.deleteMany({ where: { id: { in: staleImages } } });
      changed = true;
    }
    const newImages: Prisma.ProductImageCreateManyInput[] = [];
    for (const i of s.images) {
      const data = { url: i.url, altText: i.altText, width: i.width, height: i.height, position: i.position };
      const cur = imagesNow.get(i.id);
      if (!cur) newImages.push({ id: i.id, product_id: s.id, ...data });
      else if (cur.url !== i.url || cur.altText !== i.altText || cur.width !== i.width || cur.height !== i.height || cur.position !== i.position) {
        await tx.productImage.update({ where: { id: i.id }, data });
        changed = true;
      }
    }
    if (newImages.length) {
      await tx.productImage.createMany({ data: newImages });
      changed = true;
    }

    if (existing && changed) await tx.product.update({ where: { id: s.id }, data: { updated_at: new Date() } });
    return !existing ? "created" : changed ? "updated" : "unchanged";
  });
}

/** Removes a product the store deleted (its companion and links go with it by cascade). */
export async function deleteProductFromReadModel(db: Db, productId: string): Promise<boolean> {
  const r = await db.product.deleteMany({ where: { id: productId } });
  return r.count > 0;
}
