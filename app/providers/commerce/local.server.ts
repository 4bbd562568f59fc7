/**
 * The local commerce adapter (the embedded default): every operation of the commerce port on the
 * app's own tables, so local mode has a full working store. The product rows ARE the read model,
 * so every write keeps the product's aggregates (price range, total inventory, availability,
 * featured image) consistent with its variants and images.
 */
import crypto from "node:crypto";
import { Prisma, type ReturnReason } from "@prisma/client";
import type { Db } from "~/db.server";
import type { Logger } from "~/lib/logger.server";
import {
  CommerceError,
  type CommercePort,
  type ExportOptions,
  type ImageSnapshot,
  type InventoryLevel,
  type OrderSnapshot,
  type Page,
  type ProductInput,
  type ProductSnapshot,
  type SelectedOption,
} from "./port";
import { planVariantChanges } from "./variant-changes";
import { sentQuantity, unsentQuantity } from "~/lib/order-quantities";

type Tx = Prisma.TransactionClient;

const productInclude = {
  options: { orderBy: { position: "asc" } },
  variants: { orderBy: [{ position: "asc" }, { id: "asc" }] },
  images: { orderBy: [{ position: "asc" }, { id: "asc" }] },
} satisfies Prisma.ProductInclude;
type ProductRow = Prisma.ProductGetPayload<{ include: typeof productInclude }>;

const orderInclude = { items: { orderBy: [{ created_at: "asc" }, { id: "asc" }], include: { fulfillments: { select: { quantity: true } } } } } satisfies Prisma.OrderInclude;
type OrderRow = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

let seq = 0;
/** Numeric ids in Shopify's GID shape, unique within the process and across restarts. */
export function newGid(type: string): string {
  seq = (seq + 1) % 1000;
  return `gid://shopify/${type}/${Date.now() * 1000 + seq}${crypto.randomInt(0, 10)}`;
}

export function slugify(s: string): string {
  return (
    s
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "product"
  );
}

export function htmlToText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6])\s*\/?>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n")
    .trim();
}

const money = (v: Prisma.Decimal | null) => (v === null ? null : v.toFixed(2));
const variantTitle = (opts: SelectedOption[]) => (opts.length ? opts.map((o) => o.value).join(" / ") : "Default Title");
const asOptions = (v: Prisma.JsonValue): SelectedOption[] =>
  Array.isArray(v) ? v.filter((o): o is { name: string; value: string } => !!o && typeof o === "object" && "name" in o && "value" in o).map((o) => ({ name: String(o.name), value: String(o.value) })) : [];

export function toProductSnapshot(p: ProductRow): ProductSnapshot {
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    vendor: p.vendor,
    productType: p.productType,
    description: p.description,
    descriptionHtml: p.descriptionHtml,
    status: p.status,
    tags: p.tags,
    targetGender: p.target_gender,
    currencyCode: p.currencyCode,
    publishedAt: p.publishedAt?.toISOString() ?? null,
    createdAt: p.created_at.toISOString(),
    updatedAt: p.updated_at.toISOString(),
    options: p.options.map((o) => ({ id: o.id, name: o.name, values: o.values, position: o.position })),
    variants: p.variants.map((v) => ({
      id: v.id,
      title: v.title,
      sku: v.sku,
      price: v.price.toFixed(2),
      compareAtPrice: money(v.compareAtPrice),
      availableForSale: v.availableForSale,
      inventoryQuantity: v.inventory_quantity,
      selectedOptions: asOptions(v.selectedOptions),
      imageUrl: v.image_url,
      colorHex: v.color_hex,
      position: v.position,
    })),
    images: p.images.map(toImageSnapshot),
  };
}

const toImageSnapshot = (i: { id: string; url: string; altText: string | null; width: number | null; height: number | null; position: number }): ImageSnapshot => ({
  id: i.id,
  url: i.url,
  altText: i.altText,
  width: i.width,
  height: i.height,
  position: i.position,
});

function toOrderSnapshot(o: OrderRow): OrderSnapshot {
  return {
    id: o.id,
    name: o.name,
    email: o.email,
    customerId: o.shopify_customer_id ?? o.user_id,
    createdAt: o.created_at.toISOString(),
    cancelledAt: o.cancelled_at?.toISOString() ?? null,
    cancelReason: o.cancel_reason,
    financialStatus: o.financial_status,
    fulfillmentStatus: o.fulfillment_status,
    totalPrice: o.total_price.toFixed(2),
    currencyCode: o.currencyCode,
    lines: o.items.map((i) => ({
      id: i.id,
      productId: i.product_id,
      variantId: i.variant_id,
      title: i.title,
      variantTitle: i.variant_title,
      quantity: i.quantity,
      price: i.price.toFixed(2),
    })),
  };
}

/**
 * Recomputes a product's aggregates from its variants and images: price range, total inventory,
 * availability and featured image (the first image by position). Shared with the read model.
 */
export async function recomputeProductAggregates(tx: Tx | Db, productId: string): Promise<void> {
  // Sequential on purpose: inside an interactive transaction the queries share one connection.
  const variants = await tx.productVariant.findMany({ where: { product_id: productId }, select: { price: true, inventory_quantity: true, availableForSale: true } });
  const first = await tx.productImage.findFirst({ where: { product_id: productId }, orderBy: [{ position: "asc" }, { id: "asc" }], select: { url: true, altText: true } });
  const prices = variants.map((v) => v.price);
  const min = prices.reduce<Prisma.Decimal | null>((m, p) => (m === null || p.lessThan(m) ? p : m), null);
  const max = prices.reduce<Prisma.Decimal | null>((m, p) => (m === null || p.greaterThan(m) ? p : m), null);
  await tx.product.update({
    where: { id: productId },
    data: {
      priceMin: min ?? new Prisma.Decimal(0),
      priceMax: max ?? new Prisma.Decimal(0),
      totalInventory: variants.reduce((s, v) => s + Math.max(0, v.inventory_quantity), 0),
      availableForSale: variants.some((v) => v.availableForSale),
      featuredImageUrl: first?.url ?? null,
      featuredImageAltText: first?.altText ?? null,
    },
  });
}

const RETURN_REASONS = new Set<string>(["COLOR", "DEFECTIVE", "NOT_AS_DESCRIBED", "OTHER", "SIZE_TOO_LARGE", "SIZE_TOO_SMALL", "STYLE", "UNKNOWN", "UNWANTED", "WRONG_ITEM"]);
export const toReturnReason = (r: string): ReturnReason => {
  const up = r.trim().toUpperCase().replace(/[\s-]+/g, "_");
  return (RETURN_REASONS.has(up) ? up : "OTHER") as ReturnReason;
};

const encodeCursor = (id: string) => Buffer.from(id).toString("base64url");
const decodeCursor = (c: string | null | undefined) => (c ? Buffer.from(c, "base64url").toString() : null);

/**
 * A local fulfilment has no table of its own: its id names the order and the order items it covers,
 * and a nonce, since one line may be sent in several parcels (order_item_fulfillments).
 */
const fulfillmentGid = (orderId: string, itemIds: string[]) =>
  `gid://local/Fulfillment/${Buffer.from(JSON.stringify({ o: orderId, i: itemIds, n: crypto.randomUUID().slice(0, 8) })).toString("base64url")}`;
function parseFulfillmentGid(id: string): { o: string; i: string[] } | null {
  const m = /^gid:\/\/local\/Fulfillment\/(.+)$/.exec(id);
  if (!m) return null;
  try {
    const v = JSON.parse(Buffer.from(m[1], "base64url").toString()) as { o?: unknown; i?: unknown };
    if (typeof v.o === "string" && Array.isArray(v.i)) return { o: v.o, i: v.i.map(String) };
  } catch {
    /* fall through */
  }
  return null;
}

export function createLocalCommerce(db: Db, log?: Logger): CommercePort {
  const load = (id: string, tx: Tx | Db = db) => tx.product.findUnique({ where: { id }, include: productInclude });
  async function mustLoad(id: string, tx: Tx | Db = db): Promise<ProductRow> {
    const p = await load(id, tx);
    if (!p) throw new CommerceError(`Product ${id} not found`, [{ field: ["id"], message: "Product does not exist" }], 404);
    return p;
  }
  async function uniqueHandle(tx: Tx, wanted: string, exceptId?: string): Promise<string> {
    const base = slugify(wanted);
    for (let n = 1; ; n++) {
      const handle = n === 1 ? base : `${base}-${n}`;
      const clash = await tx.product.findUnique({ where: { handle }, select: { id: true } });
      if (!clash || clash.id === exceptId) return handle;
    }
  }
  async function storeLink(tx: Tx, storeId: string | null | undefined, vendorText: string) {
    const store = storeId
      ? await tx.store.findUnique({ where: { id: storeId }, select: { id: true, vendor_id: true } })
      : await tx.store.findFirst({ where: { name: vendorText }, select: { id: true, vendor_id: true } });
    if (storeId && !store) throw new CommerceError(`Store ${storeId} not found`, [{ field: ["storeId"], message: "Store does not exist" }], 404);
    return store ? { store_id: store.id, vendor_id: store.vendor_id } : {};
  }
  async function touch(tx: Tx | Db, productId: string) {
    await recomputeProductAggregates(tx, productId);
  }

  const port: CommercePort = {
    kind: "local",

    async getProduct(id) {
      const p = await load(id);
      return p ? toProductSnapshot(p) : null;
    },

    async listProducts({ cursor, limit, updatedSince }) {
      const after = decodeCursor(cursor);
      const rows = await db.product.findMany({
        where: { ...(after ? { id: { gt: after } } : {}), ...(updatedSince ? { updated_at: { gte: updatedSince } } : {}) },
        include: productInclude,
        orderBy: { id: "asc" },
        take: limit + 1,
      });
      const items = rows.slice(0, limit).map(toProductSnapshot);
      return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1].id) : null };
    },

    async *exportAllProducts(onProgress, opts: ExportOptions = {}) {
      const where: Prisma.ProductWhereInput = opts.storeId ? { store_id: opts.storeId } : opts.vendor ? { OR: [{ vendor: opts.vendor }, { store: { name: opts.vendor } }] } : {};
      const total = await db.product.count({ where });
      let done = 0;
      let after: string | null = null;
      onProgress?.(0);
      for (;;) {
        const rows: ProductRow[] = await db.product.findMany({ where: { AND: [where, after ? { id: { gt: after } } : {}] }, include: productInclude, orderBy: { id: "asc" }, take: 100 });
        if (rows.length === 0) break;
        for (const row of rows) {
          yield toProductSnapshot(row);
          done++;
          onProgress?.(total ? Math.min(1, done / total) : 1);
        }
        after = rows[rows.length - 1].id;
      }
      onProgress?.(1);
    },

    async createProduct(input: ProductInput) {
      if (!input.title.trim()) throw new CommerceError("Title can't be blank", [{ field: ["title"], message: "Title can't be blank" }]);
      const id = newGid("Product");
      await db.$transaction(async (tx) => {
        const handle = await uniqueHandle(tx, input.handle || input.title);
        await tx.product.create({
          data: {
            id,
            title: input.title,
            handle,
            vendor: input.vendor,
            productType: input.productType,
            descriptionHtml: input.descriptionHtml,
            description: htmlToText(input.descriptionHtml),
            status: input.status,
            tags: input.tags,
            target_gender: input.targetGender,
            ...(await storeLink(tx, input.storeId, input.vendor)),
          },
        });
        if (input.options.length) {
          await tx.productOption.createMany({
            data: input.options.map((o, i) => ({ id: newGid("ProductOption"), product_id: id, name: o.name, values: [...new Set(o.values)], position: i + 1 })),
          });
        }
        const variants = input.variants.length ? input.variants : [{ price: "0.00", inventoryQuantity: 0, selectedOptions: [] as SelectedOption[] }];
        for (const [i, v] of variants.entries()) {
          for (const so of v.selectedOptions) {
            const opt = input.options.find((o) => o.name === so.name);
            if (!opt || !opt.values.includes(so.value)) {
              throw new CommerceError(`Variant option ${so.name}: ${so.value} is not one of the product's option values`, [{ field: ["variants", String(i), "selectedOptions"], message: "Option value does not exist" }]);
            }
          }
        }
        await tx.productVariant.createMany({
          data: variants.map((v, i) => ({
            id: newGid("ProductVariant"),
            product_id: id,
            title: variantTitle(v.selectedOptions),
            sku: "sku" in v ? (v.sku ?? null) : null,
            price: new Prisma.Decimal(v.price),
            compareAtPrice: "compareAtPrice" in v && v.compareAtPrice ? new Prisma.Decimal(v.compareAtPrice) : null,
            inventory_quantity: v.inventoryQuantity,
            availableForSale: v.inventoryQuantity > 0,
            selectedOptions: v.selectedOptions as unknown as Prisma.InputJsonValue,
            color_hex: "colorHex" in v ? (v.colorHex ?? null) : null,
            image_url: "imageUrl" in v ? (v.imageUrl ?? null) : null,
            position: i,
          })),
        });
        if (input.images.length) {
          await tx.productImage.createMany({
            data: input.images.map((im, i) => ({ id: newGid("MediaImage"), product_id: id, url: im.url, altText: im.altText ?? null, position: i })),
          });
        }
        await touch(tx, id);
      });
      log?.debug({ productId: id }, "local product created");
      return toProductSnapshot(await mustLoad(id));
    },

    async updateProduct(id, patch) {
      await db.$transaction(async (tx) => {
        const current = await mustLoad(id, tx);
        const data: Prisma.ProductUncheckedUpdateInput = {};
        if (patch.title !== undefined) {
          if (!patch.title.trim()) throw new CommerceError("Title can't be blank", [{ field: ["title"], message: "Title can't be blank" }]);
          data.title = patch.title;
        }
        if (patch.handle !== undefined && patch.handle !== current.handle) data.handle = await uniqueHandle(tx, patch.handle, id);
        if (patch.vendor !== undefined) data.vendor = patch.vendor;
        if (patch.productType !== undefined) data.productType = patch.productType;
        if (patch.descriptionHtml !== undefined) {
          data.descriptionHtml = patch.descriptionHtml;
          data.description = htmlToText(patch.descriptionHtml);
        }
        if (patch.status !== undefined) data.status = patch.status;
        if (patch.tags !== undefined) data.tags = patch.tags;
        if (patch.targetGender !== undefined) data.target_gender = patch.targetGender;
        if (patch.storeId !== undefined) {
          if (patch.storeId === null) Object.assign(data, { store_id: null, vendor_id: null });
          else Object.assign(data, await storeLink(tx, patch.storeId, current.vendor));
        }
        await tx.product.update({ where: { id }, data });
      });
      return toProductSnapshot(await mustLoad(id));
    },

    async deleteProduct(id) {
      const r = await db.product.deleteMany({ where: { id } });
      if (r.count === 0) throw new CommerceError(`Product ${id} not found`, [{ field: ["id"], message: "Product does not exist" }], 404);
    },

    async setProductStatus(id, status) {
      await mustLoad(id);
      await db.product.update({ where: { id }, data: { status } });
    },

    async setTargetGender(id, gender) {
      await mustLoad(id);
      await db.product.update({ where: { id }, data: { target_gender: gender } });
    },

    async setVariantColorHex(productId, values) {
      await db.$transaction(async (tx) => {
        await mustLoad(productId, tx);
        for (const v of values) {
          if (v.hex !== null && !/^#[0-9a-fA-F]{6}$/.test(v.hex)) throw new CommerceError(`${v.hex} is not a colour hex (#rrggbb)`, [{ field: ["colorHex"], message: "Invalid colour" }]);
          const r = await tx.productVariant.updateMany({ where: { id: v.variantId, product_id: productId }, data: { color_hex: v.hex?.toLowerCase() ?? null } });
          if (r.count === 0) throw new CommerceError(`Variant ${v.variantId} not found on product ${productId}`, [{ field: ["variantId"], message: "Variant does not exist" }], 404);
        }
      });
    },

    async updateOptionValue(productId, optionName, from, to) {
      if (!to.trim()) throw new CommerceError("Option value can't be blank", [{ field: ["value"], message: "Option value can't be blank" }]);
      await db.$transaction(async (tx) => {
        const p = await mustLoad(productId, tx);
        const option = p.options.find((o) => o.name === optionName);
        if (!option) throw new CommerceError(`Option ${optionName} not found`, [{ field: ["optionName"], message: "Option does not exist" }], 404);
        if (!option.values.includes(from)) throw new CommerceError(`Option value ${from} not found`, [{ field: ["value"], message: "Option value does not exist" }], 404);
        if (from === to) return;
        if (option.values.includes(to)) throw new CommerceError(`Option value ${to} already exists`, [{ field: ["value"], message: "Option value already exists" }], 409);
        await tx.productOption.update({ where: { id: option.id }, data: { values: option.values.map((v) => (v === from ? to : v)) } });
        for (const v of p.variants) {
          const opts = asOptions(v.selectedOptions);
          if (!opts.some((o) => o.name === optionName && o.value === from)) continue;
          const next = opts.map((o) => (o.name === optionName && o.value === from ? { name: o.name, value: to } : o));
          await tx.productVariant.update({ where: { id: v.id }, data: { selectedOptions: next as unknown as Prisma.InputJsonValue, title: variantTitle(next) } });
        }
        await tx.product.update({ where: { id: productId }, data: { updated_at: new Date() } });
      });
      return toProductSnapshot(await mustLoad(productId));
    },

    async deleteOptionValue(productId, optionName, value) {
      await db.$transaction(async (tx) => {
        const p = await mustLoad(productId, tx);
        const option = p.options.find((o) => o.name === optionName);
        if (!option) throw new CommerceError(`Option ${optionName} not found`, [{ field: ["optionName"], message: "Option does not exist" }], 404);
        if (!option.values.includes(value)) throw new CommerceError(`Option value ${value} not found`, [{ field: ["value"], message: "Option value does not exist" }], 404);
        if (option.values.length === 1) throw new CommerceError(`Option ${optionName} must keep at least one value`, [{ field: ["value"], message: "An option must have at least one value" }]);
        const doomed = p.variants.filter((v) => asOptions(v.selectedOptions).some((o) => o.name === optionName && o.value === value)).map((v) => v.id);
        if (doomed.length === p.variants.length) throw new CommerceError("A product must keep at least one variant", [{ field: ["value"], message: "Deleting this value would remove every variant" }]);
        await tx.productOption.update({ where: { id: option.id }, data: { values: option.values.filter((v) => v !== value) } });
        await tx.productVariant.deleteMany({ where: { id: { in: doomed } } });
        await touch(tx, productId);
      });
      return toProductSnapshot(await mustLoad(productId));
    },

    async updateProductVariants(productId, changes) {
      await db.$transaction(async (tx) => {
        const p = await mustLoad(productId, tx);
        const plan = planVariantChanges({ options: p.options, variants: p.variants.map((v) => ({ id: v.id, selectedOptions: asOptions(v.selectedOptions) })) }, changes);
        for (const option of p.options) {
          const unused = plan.unusedValues.get(option.name) ?? [];
          const values = [...option.values, ...(plan.addedValues.get(option.name) ?? [])].filter((v) => !unused.includes(v));
          if (values.join("\u0000") !== option.values.join("\u0000")) await tx.productOption.update({ where: { id: option.id }, data: { values } });
        }
        let position = p.variants.reduce((m, v) => Math.max(m, v.position), -1);
        if (plan.create.length) {
          await tx.productVariant.createMany({
            data: plan.create.map((v) => ({
              id: newGid("ProductVariant"),
              product_id: productId,
              title: variantTitle(v.selectedOptions),
              sku: v.sku ?? null,
              price: new Prisma.Decimal(v.price),
              compareAtPrice: v.compareAtPrice ? new Prisma.Decimal(v.compareAtPrice) : null,
              inventory_quantity: v.inventoryQuantity,
              availableForSale: v.inventoryQuantity > 0,
              selectedOptions: v.selectedOptions as unknown as Prisma.InputJsonValue,
              color_hex: v.colorHex?.toLowerCase() ?? null,
              position: ++position,
            })),
          });
        }
        for (const u of plan.update) {
          const data: Prisma.ProductVariantUpdateInput = {};
          if (u.price !== undefined) data.price = new Prisma.Decimal(u.price);
          if (u.compareAtPrice !== undefined) data.compareAtPrice = u.compareAtPrice ? new Prisma.Decimal(u.compareAtPrice) : null;
          if (u.sku !== undefined) data.sku = u.sku;
          await tx.productVariant.update({ where: { id: u.id }, data });
        }
        if (plan.delete.length) await tx.productVariant.deleteMany({ where: { id: { in: plan.delete }, product_id: productId } });
        await tx.product.update({ where: { id: productId }, data: { updated_at: new Date() } });
        await touch(tx, productId);
      });
      return toProductSnapshot(await mustLoad(productId));
    },

    async reorderMedia(productId, mediaIdsInOrder) {
      await db.$transaction(async (tx) => {
        const p = await mustLoad(productId, tx);
        const known = new Set(p.images.map((i) => i.id));
        const unknown = mediaIdsInOrder.filter((id) => !known.has(id));
        if (unknown.length) throw new CommerceError(`Media not found on product: ${unknown.join(", ")}`, unknown.map((id) => ({ field: ["mediaIds"], message: `Media ${id} does not exist` })), 404);
        const listed = [...new Set(mediaIdsInOrder)];
        const order = [...listed, ...p.images.map((i) => i.id).filter((id) => !listed.includes(id))];
        for (const [position, id] of order.entries()) await tx.productImage.update({ where: { id }, data: { position } });
        await touch(tx, productId);
      });
    },

    async appendVariantMedia(productId, pairs) {
      await db.$transaction(async (tx) => {
        const p = await mustLoad(productId, tx);
        for (const pair of pairs) {
          const image = p.images.find((i) => i.id === pair.mediaId);
          if (!image) throw new CommerceError(`Media ${pair.mediaId} not found on product`, [{ field: ["mediaId"], message: "Media does not exist" }], 404);
          if (!p.variants.some((v) => v.id === pair.variantId)) throw new CommerceError(`Variant ${pair.variantId} not found on product`, [{ field: ["variantId"], message: "Variant does not exist" }], 404);
          await tx.productVariant.update({ where: { id: pair.variantId }, data: { image_url: image.url } });
        }
      });
    },

    async addProductImage(productId, image) {
      if (!image.url.trim()) throw new CommerceError("The image URL is blank", [{ field: ["image", "url"], message: "Image URL can't be blank" }]);
      return db.$transaction(async (tx) => {
        const p = await mustLoad(productId, tx);
        if (image.position === undefined || image.position >= p.images.length) {
          const last = await tx.productImage.aggregate({ where: { product_id: productId }, _max: { position: true } });
          const row = await tx.productImage.create({
            data: { id: newGid("MediaImage"), product_id: productId, url: image.url, altText: image.altText ?? null, position: (last._max.position ?? -1) + 1 },
          });
          await touch(tx, productId);
          return toImageSnapshot(row);
        }
        // Inserted at `position`: the images from there on move one place down (positions renumbered 0…n).
        const at = Math.max(0, Math.floor(image.position));
        const id = newGid("MediaImage");
        const order = p.images.map((i) => i.id);
        order.splice(at, 0, id);
        await tx.productImage.create({ data: { id, product_id: productId, url: image.url, altText: image.altText ?? null, position: at } });
        for (const [position, imageId] of order.entries()) {
          if (imageId !== id) await tx.productImage.update({ where: { id: imageId }, data: { position } });
        }
        await touch(tx, productId);
        return toImageSnapshot(await tx.productImage.findUniqueOrThrow({ where: { id } }));
      });
    },

    async deleteProductMedia(productId, mediaIds) {
      const ids = [...new Set(mediaIds)];
      if (!ids.length) return;
      await db.$transaction(async (tx) => {
        const p = await mustLoad(productId, tx);
        const known = new Set(p.images.map((i) => i.id));
        const unknown = ids.filter((id) => !known.has(id));
        if (unknown.length) throw new CommerceError(`Media not found on product: ${unknown.join(", ")}`, unknown.map((id) => ({ field: ["mediaIds"], message: `Media ${id} does not exist` })), 404);
        const doomed = p.images.filter((i) => ids.includes(i.id));
        await tx.productImage.deleteMany({ where: { id: { in: ids }, product_id: productId } });
        const kept = p.images.filter((i) => !ids.includes(i.id));
        for (const [position, img] of kept.entries()) if (img.position !== position) await tx.productImage.update({ where: { id: img.id }, data: { position } });
        // Variants showing a removed image lose it (as in Shopify), unless another image has the same URL.
        const goneUrls = doomed.map((i) => i.url).filter((url) => !kept.some((k) => k.url === url));
        if (goneUrls.length) await tx.productVariant.updateMany({ where: { product_id: productId, image_url: { in: goneUrls } }, data: { image_url: null } });
        await touch(tx, productId);
      });
    },

    async setVariantImage(productId, variantId, image) {
      if (!image.url.trim()) throw new CommerceError("The image URL is blank", [{ field: ["image", "url"], message: "Image URL can't be blank" }]);
      return db.$transaction(async (tx) => {
        const p = await mustLoad(productId, tx);
        if (!p.variants.some((v) => v.id === variantId)) throw new CommerceError(`Variant ${variantId} not found on product`, [{ field: ["variantId"], message: "Variant does not exist" }], 404);
        // The same picture already among the product's images is reused rather than added twice.
        let media = p.images.find((i) => i.url === image.url);
        if (!media) {
          const last = await tx.productImage.aggregate({ where: { product_id: productId }, _max: { position: true } });
          media = await tx.productImage.create({
            data: { id: newGid("MediaImage"), product_id: productId, url: image.url, altText: image.altText ?? null, position: (last._max.position ?? -1) + 1 },
          });
        }
        await tx.productVariant.update({ where: { id: variantId }, data: { image_url: media.url } });
        await touch(tx, productId);
        return { mediaId: media.id, imageUrl: media.url };
      });
    },

    async inventoryLevels({ productIds, outOfStockOnly }): Promise<InventoryLevel[]> {
      const rows = await db.productVariant.findMany({
        where: { ...(productIds ? { product_id: { in: productIds } } : {}), ...(outOfStockOnly ? { inventory_quantity: { lte: 0 } } : {}) },
        select: { id: true, product_id: true, inventory_quantity: true },
        orderBy: [{ product_id: "asc" }, { position: "asc" }],
      });
      return rows.map((r) => ({ productId: r.product_id, variantId: r.id, available: r.inventory_quantity }));
    },

    async setInventory(levels) {
      await db.$transaction(async (tx) => {
        const products = new Set<string>();
        for (const l of levels) {
          if (!Number.isInteger(l.available)) throw new CommerceError("Inventory must be a whole number", [{ field: ["available"], message: "Not an integer" }]);
          const v = await tx.productVariant.findUnique({ where: { id: l.variantId }, select: { product_id: true } });
          if (!v) throw new CommerceError(`Variant ${l.variantId} not found`, [{ field: ["variantId"], message: "Variant does not exist" }], 404);
          await tx.productVariant.update({ where: { id: l.variantId }, data: { inventory_quantity: l.available, availableForSale: l.available > 0 } });
          products.add(v.product_id);
        }
        for (const id of products) await touch(tx, id);
      });
    },

    async publishProduct(productId, opts = {}) {
      await mustLoad(productId);
      // A future date is a scheduled publication: the listing hides products whose publishedAt
      // has not come yet, so the product appears by itself when the date passes.
      await db.product.update({ where: { id: productId }, data: { publishedAt: opts.publishDate ?? new Date() } });
    },

    async unpublishProduct(productId) {
      await mustLoad(productId);
      await db.product.update({ where: { id: productId }, data: { publishedAt: null } });
    },

    async getOrder(id) {
      const o = await db.order.findUnique({ where: { id }, include: orderInclude });
      return o ? toOrderSnapshot(o) : null;
    },

    async listOrders({ cursor, limit, customerId, query }): Promise<Page<OrderSnapshot>> {
      const after = decodeCursor(cursor);
      const and: Prisma.OrderWhereInput[] = [];
      if (customerId) and.push({ OR: [{ shopify_customer_id: customerId }, { user_id: customerId }] });
      if (query) and.push({ OR: [{ name: { contains: query, mode: "insensitive" } }, { email: { contains: query, mode: "insensitive" } }] });
      if (after) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(after);
        } catch {
          parsed = null;
        }
        if (!Array.isArray(parsed) || parsed.length !== 2) throw new CommerceError("cursor is invalid", [{ field: ["cursor"], message: "Invalid cursor" }], 400);
        const [createdIso, id] = parsed as [string, string];
        const created = new Date(createdIso);
        and.push({ OR: [{ created_at: { lt: created } }, { created_at: created, id: { gt: id } }] });
      }
      const rows = await db.order.findMany({ where: { AND: and }, include: orderInclude, orderBy: [{ created_at: "desc" }, { id: "asc" }], take: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return { items: page.map(toOrderSnapshot), nextCursor: rows.length > limit && last ? encodeCursor(JSON.stringify([last.created_at.toISOString(), last.id])) : null };
    },

    async cancelOrder(id, opts) {
      await db.$transaction(async (tx) => {
        const o = await tx.order.findUnique({ where: { id }, include: orderInclude });
        if (!o) throw new CommerceError(`Order ${id} not found`, [{ field: ["orderId"], message: "Order does not exist" }], 404);
        if (o.status === "cancelled") throw new CommerceError("Order has already been cancelled", [{ field: ["orderId"], message: "Order has already been cancelled" }], 409);
        if (o.items.some((i) => ["fulfilled", "shipped", "delivered", "returned"].includes(i.status))) {
          throw new CommerceError("Cannot cancel an order with fulfilled items", [{ field: ["orderId"], message: "Order has fulfilled items" }], 409);
        }
        const now = new Date();
        await tx.order.update({
          where: { id },
          data: {
            status: "cancelled",
            cancel_reason: opts.reason.toLowerCase(),
            cancelled_at: now,
            ...(opts.refund ? { financial_status: "REFUNDED" } : {}),
            ...(opts.staffNote ? { note: o.note ? `${o.note}\n${opts.staffNote}` : opts.staffNote } : {}),
          },
        });
        await tx.orderItem.updateMany({ where: { order_id: id }, data: { status: "cancelled" } });
        if (opts.restock) {
          const touched = new Set<string>();
          for (const item of o.items) {
            if (!item.variant_id) continue;
            const v = await tx.productVariant.findUnique({ where: { id: item.variant_id }, select: { product_id: true, inventory_quantity: true } });
            if (!v) continue;
            const available = v.inventory_quantity + item.quantity;
            await tx.productVariant.update({ where: { id: item.variant_id }, data: { inventory_quantity: available, availableForSale: available > 0 } });
            touched.add(v.product_id);
          }
          for (const pid of touched) await touch(tx, pid);
        }
      });
    },

    async fulfillOrderLines(orderId, opts) {
      return db.$transaction(async (tx) => {
        // Two fulfilments of the same lines at once: the second waits, then sees them fulfilled (409).
        await tx.$queryRaw`SELECT id FROM orders WHERE id = ${orderId} FOR UPDATE`;
        const o = await tx.order.findUnique({ where: { id: orderId }, include: orderInclude });
        if (!o) throw new CommerceError(`Order ${orderId} not found`, [{ field: ["orderId"], message: "Order does not exist" }], 404);
        if (o.status === "cancelled") throw new CommerceError("Cannot fulfil a cancelled order", [{ field: ["orderId"], message: "Order is cancelled" }], 409);
        if (!opts.lines.length) throw new CommerceError("No line items to fulfil", [{ field: ["lines"], message: "No line items" }]);
        // Like Shopify's fulfilment orders: a line's units can be sent in several parcels, never more
        // than are left to send.
        for (const line of opts.lines) {
          const item = o.items.find((i) => i.id === line.orderLineId);
          if (!item) throw new CommerceError(`Line item ${line.orderLineId} is not on order ${o.name}`, [{ field: ["lines"], message: "Line item does not exist" }], 404);
          const left = unsentQuantity(item);
          if (left === 0) throw new CommerceError(`Line item ${line.orderLineId} is ${item.status}`, [{ field: ["lines"], message: "Line item is not fulfillable" }], 409);
          if (line.quantity < 1 || line.quantity > left) throw new CommerceError(`Quantity ${line.quantity} is not between 1 and ${left}`, [{ field: ["lines", "quantity"], message: "Invalid quantity" }]);
        }
        const ids = opts.lines.map((l) => l.orderLineId);
        const fulfillmentId = fulfillmentGid(orderId, ids);
        const url = opts.trackingNumber ? trackingUrl(opts.trackingCompany, opts.trackingNumber) : null;
        await tx.orderItemFulfillment.createMany({
          data: opts.lines.map((l) => ({
            order_item_id: l.orderLineId,
            fulfillment_id: fulfillmentId,
            quantity: l.quantity,
            tracking_number: opts.trackingNumber ?? null,
            tracking_company: opts.trackingNumber ? (opts.trackingCompany ?? null) : null,
            tracking_url: url,
          })),
        });
        // The line's status follows its first parcel; a later parcel without tracking keeps the earlier one's.
        await tx.orderItem.updateMany({ where: { id: { in: ids }, status: "unfulfilled" }, data: { status: "fulfilled" } });
        if (opts.trackingNumber) {
          await tx.orderItem.updateMany({ where: { id: { in: ids } }, data: { tracking_number: opts.trackingNumber, provider: opts.trackingCompany ?? null, tracking_url: url } });
        }
        const after = await tx.orderItem.findMany({ where: { order_id: orderId }, include: { fulfillments: { select: { quantity: true } } } });
        const open = after.some((i) => unsentQuantity(i) > 0);
        await tx.order.update({ where: { id: orderId }, data: { fulfillment_status: open ? "PARTIALLY_FULFILLED" : "FULFILLED" } });
        return { fulfillmentId };
      });
    },

    async updateTracking(fulfillmentId, opts) {
      const f = parseFulfillmentGid(fulfillmentId);
      if (!f) throw new CommerceError(`Fulfilment ${fulfillmentId} not found`, [{ field: ["fulfillmentId"], message: "Fulfillment does not exist" }], 404);
      const url = trackingUrl(opts.trackingCompany, opts.trackingNumber);
      const parcels = await db.orderItemFulfillment.updateMany({
        where: { fulfillment_id: fulfillmentId },
        data: { tracking_number: opts.trackingNumber, tracking_company: opts.trackingCompany ?? undefined, tracking_url: url },
      });
      // An item row shows its latest parcel: it follows this one only when this one is its latest.
      const r = await db.orderItem.updateMany({
        where: { order_id: f.o, id: { in: f.i }, OR: [{ fulfillment_id: fulfillmentId }, { fulfillment_id: null }] },
        data: { tracking_number: opts.trackingNumber, provider: opts.trackingCompany ?? undefined, tracking_url: url },
      });
      if (r.count === 0 && parcels.count === 0) throw new CommerceError(`Fulfilment ${fulfillmentId} not found`, [{ field: ["fulfillmentId"], message: "Fulfillment does not exist" }], 404);
    },

    async updateOrder(id, patch) {
      await db.$transaction(async (tx) => {
        const o = await tx.order.findUnique({ where: { id }, select: { shipping_address: true } });
        if (!o) throw new CommerceError(`Order ${id} not found`, [{ field: ["id"], message: "Order does not exist" }], 404);
        const a = patch.shippingAddress;
        const before = o.shipping_address && typeof o.shipping_address === "object" && !Array.isArray(o.shipping_address) ? (o.shipping_address as Record<string, unknown>) : {};
        // Stored with the webhook payload's (snake_case) keys, as orders from Shopify are.
        const address = a
          ? {
              ...before,
              ...Object.fromEntries(
                Object.entries({ first_name: a.firstName, last_name: a.lastName, company: a.company, address1: a.address1, address2: a.address2, city: a.city, province: a.province, zip: a.zip, country_code: a.countryCode, phone: a.phone }).filter(([, v]) => v !== undefined),
              ),
            }
          : undefined;
        await tx.order.update({
          where: { id },
          data: {
            ...(patch.note !== undefined ? { note: patch.note } : {}),
            ...(patch.tags !== undefined ? { tags: patch.tags } : {}),
            ...(address ? { shipping_address: address as Prisma.InputJsonValue } : {}),
          },
        });
      });
    },

    async requestReturn(orderId, lines) {
      return db.$transaction(async (tx) => {
        const o = await tx.order.findUnique({ where: { id: orderId }, include: orderInclude });
        if (!o) throw new CommerceError(`Order ${orderId} not found`, [{ field: ["orderId"], message: "Order does not exist" }], 404);
        if (!lines.length) throw new CommerceError("No line items to return", [{ field: ["returnLineItems"], message: "No line items" }]);
        for (const line of lines) {
          const item = o.items.find((i) => i.id === line.orderLineId);
          if (!item) throw new CommerceError(`Line item ${line.orderLineId} is not on order ${o.name}`, [{ field: ["returnLineItems"], message: "Line item does not exist" }], 404);
          if (!["fulfilled", "shipped", "delivered"].includes(item.status)) {
            throw new CommerceError(`Line item ${line.orderLineId} is ${item.status} and cannot be returned`, [{ field: ["returnLineItems"], message: "Line item is not returnable" }], 409);
          }
          // Only units that were sent can come back.
          const sent = sentQuantity(item);
          if (line.quantity < 1 || line.quantity > sent) throw new CommerceError(`Quantity ${line.quantity} is not between 1 and ${sent}`, [{ field: ["returnLineItems", "quantity"], message: "Invalid quantity" }]);
        }
        const ret = await tx.return.create({
          data: {
            order_id: orderId,
            user_id: o.user_id,
            status: "REQUESTED",
            reason: toReturnReason(lines[0].reason),
            reason_note: lines[0].note ?? null,
            currencyCode: o.currencyCode,
            line_items: {
              create: lines.map((l) => ({ order_item_id: l.orderLineId, quantity: l.quantity, reason: toReturnReason(l.reason), note: l.note ?? null })),
            },
          },
        });
        return { returnId: ret.id };
      });
    },

    // Returns, the merchant's side: the app's returns rows are the store's record here (the admin
    // returns service moves them), so the store only has to know the return and record refunds.
    async approveReturn(returnId) {
      await mustFindReturn(returnId);
    },
    async declineReturn(returnId) {
      await mustFindReturn(returnId);
    },
    async cancelReturn(returnId) {
      await mustFindReturn(returnId);
    },
    async sendReturnLabel(returnId) {
      await mustFindReturn(returnId);
    },
    async updateReturnTracking(returnId) {
      await mustFindReturn(returnId);
    },
    async receiveReturnItems(returnId, opts) {
      await mustFindReturn(returnId);
      const received = opts.lines.filter((l) => l.received && l.quantity > 0);
      if (!received.length) return;
      // Increments, not read-then-set: a sale of the same variant meanwhile keeps its effect.
      await db.$transaction(async (tx) => {
        const items = await tx.orderItem.findMany({ where: { id: { in: received.map((l) => l.orderLineId) } }, select: { id: true, variant_id: true } });
        const byVariant = new Map<string, number>();
        for (const l of received) {
          const v = items.find((i) => i.id === l.orderLineId)?.variant_id;
          if (v) byVariant.set(v, (byVariant.get(v) ?? 0) + l.quantity);
        }
        const products = new Set<string>();
        for (const [variantId, q] of byVariant) {
          const v = await tx.productVariant.findUnique({ where: { id: variantId }, select: { product_id: true } });
          if (!v) continue; // a variant deleted since the sale: nothing to put back on sale
          const after = await tx.productVariant.update({ where: { id: variantId }, data: { inventory_quantity: { increment: q } }, select: { inventory_quantity: true } });
          await tx.productVariant.update({ where: { id: variantId }, data: { availableForSale: after.inventory_quantity > 0 } });
          products.add(v.product_id);
        }
        for (const id of products) await touch(tx, id);
      });
    },
    async getReturn(returnId) {
      const ret = (await db.return.findUnique({ where: { id: returnId }, include: { line_items: true, request: true } })) ?? (await db.return.findUnique({ where: { shopify_return_id: returnId }, include: { line_items: true, request: true } }));
      if (!ret) return null;
      // The app's two machines folded into the store's one status.
      const status =
        ret.request?.status === "DECLINED" ? "DECLINED"
        : ret.status === "CANCELED" ? "CANCELED"
        : ret.status === "REFUNDED" || ret.request?.status === "CLOSED" ? "CLOSED"
        : ret.request?.status === "REQUESTED" ? "REQUESTED"
        : "OPEN";
      return {
        id: ret.id,
        orderId: ret.order_id,
        status,
        decline: null,
        lines: ret.line_items.map((li) => ({ orderLineId: li.order_item_id, quantity: li.quantity, reason: li.reason, note: li.note })),
      };
    },
    async refundReturn(returnId, opts) {
      const ret = await mustFindReturn(returnId);
      if (!(Number(opts.amount) > 0)) throw new CommerceError("The refund amount must be more than 0", [{ field: ["amount"], message: "Invalid amount" }]);
      // The order's financial status as Shopify shows it: refunded once its returns' refunds
      // (this one included, recorded by the caller) reach what was paid.
      const order = await db.order.findUnique({ where: { id: ret.order_id }, select: { total_price: true } });
      const refunded = await db.return.aggregate({ where: { order_id: ret.order_id, refund_amount: { not: null } }, _sum: { refund_amount: true } });
      const total = refunded._sum.refund_amount ?? new Prisma.Decimal(opts.amount);
      await db.order.update({ where: { id: ret.order_id }, data: { financial_status: order && total.gte(order.total_price) ? "REFUNDED" : "PARTIALLY_REFUNDED" } });
      return { refundId: null };
    },
  };

  async function mustFindReturn(returnId: string) {
    const ret = (await db.return.findUnique({ where: { id: returnId } })) ?? (await db.return.findUnique({ where: { shopify_return_id: returnId } }));
    if (!ret) throw new CommerceError(`Return ${returnId} not found`, [{ field: ["id"], message: "Return does not exist" }], 404);
    return ret;
  }
  return port;
}

function trackingUrl(company: string | undefined, number: string): string | null {
  const c = (company ?? "").toLowerCase();
  const n = encodeURIComponent(number);
  if (c.includes("ups")) return `https://www.ups.com/track?tracknum=${n}`;
  if (c.includes("usps")) return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`;
  if (c.includes("fedex")) return `https://www.fedex.com/fedextrack/?trknbr=${n}`;
  if (c.includes("dhl")) return `https://www.dhl.com/en/express/tracking.html?AWB=${n}`;
  return null;
}
