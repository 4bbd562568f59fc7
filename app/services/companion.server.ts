/**
 * Product companions: the app's record beside each store product (Taobao origin, review status,
 * material sections, presale variants, scheduled publishing, try-on flag), and the companion
 * actions that go through the commerce port (status, option values, publishing, inventory,
 * description). SPEC §8 fallbacks are values: getters answer null, check-imported false.
 */
import type { Prisma, User } from "@prisma/client";
import sharp, { type Metadata, type OutputInfo } from "sharp";
import type { Db } from "~/db.server";
import type { AppContext } from "~/context.server";
import { conflictError, invalid, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { COMPANION_TRANSITIONS, type Companion, type CompanionStatus, type MaterialSection } from "~/contract/companion";
import { Messages } from "~/contract/messages";
import { isMissingId, toProductGid, toVariantGid } from "~/lib/gid";
import { htmlToText } from "~/providers/commerce/local.server";
import { deltaE2000, dominantLab, hexToLab, labToHex, rgbToLab, type Lab } from "./color.server";
import { assertHoldable, holdProducts, publishProductsNow, releaseHolds } from "./publish-holds.server";
import { compositionText, parseComposition, type Fibre } from "./materials/composition";
import { productMaterials, setProductMaterialsFromText } from "./materials/categories.server";
import { PRODUCT_NOT_FOUND, appendVariantMedia, applyInventoryLevels, applyProductSnapshot, commerceFailure, visibleProductWhere } from "./catalog.server";

export { compositionText, parseComposition, type Fibre } from "./materials/composition";

export const COMPANION_NOT_FOUND = "Product companion not found";

type CommerceCtx = Pick<AppContext, "db" | "commerce">;

const companionInclude = {
  product: {
    select: {
      id: true,
      title: true,
      handle: true,
      vendor: true,
      vendor_id: true,
      status: true,
      availableForSale: true,
      featuredImageUrl: true,
      featuredImageAltText: true,
      publishedAt: true,
    },
  },
} satisfies Prisma.ProductCompanionInclude;

type CompanionRow = Prisma.ProductCompanionGetPayload<{ include: typeof companionInclude }>;

export function materialSectionsOf(v: Prisma.JsonValue): MaterialSection[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((s) => {
    if (!s || typeof s !== "object" || Array.isArray(s)) return [];
    const title = typeof s.title === "string" ? s.title.trim() : "";
    const content = typeof s.content === "string" ? s.content.trim() : "";
    return title && content ? [{ title, content }] : [];
  });
}

function productSummary(p: CompanionRow["product"]) {
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    vendor: p.vendor,
    status: p.status,
    availableForSale: p.availableForSale,
    featuredImage: p.featuredImageUrl ? { url: p.featuredImageUrl, altText: p.featuredImageAltText } : null,
    publishedAt: p.publishedAt,
  };
}

export function toCompanion(c: CompanionRow): Companion {
  return {
    id: c.id,
    shopify_product_id: c.shopify_product_id,
    taobao_id: c.taobao_id,
    taobao_title: c.taobao_title,
    taobao_url: c.taobao_url,
    status: c.status,
    status_reason: c.status_reason,
    material_sections: materialSectionsOf(c.material_sections),
    presale_variant_ids: c.presale_variant_ids,
    scheduled_publish_date: c.scheduled_publish_date?.toISOString() ?? null,
    tryon_active: c.tryon_active,
    verified_at: c.verified_at?.toISOString() ?? null,
    flat_image_url: c.flat_image_url,
    mask_image_url: c.mask_image_url,
    vector_synced_at: c.vector_synced_at?.toISOString() ?? null,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
    product: { ...productSummary(c.product), publishedAt: c.product.publishedAt?.toISOString() ?? null },
  };
}

export function toPublicCompanion(c: CompanionRow) {
  return {
    id: c.id,
    shopify_product_id: c.shopify_product_id,
    status: c.status,
    material_sections: materialSectionsOf(c.material_sections),
    presale_variant_ids: c.presale_variant_ids,
    scheduled_publish_date: c.scheduled_publish_date?.toISOString() ?? null,
    tryon_active: c.tryon_active,
    flat_image_url: c.flat_image_url,
    product: { ...productSummary(c.product), publishedAt: c.product.publishedAt?.toISOString() ?? null },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `{id}` of a companion path: the product id (GID or bare number) or the companion's own id. */
export function companionWhere(rawId: string): Prisma.ProductCompanionWhereInput {
  const v = rawId.trim();
  if (UUID.test(v)) return { OR: [{ id: v }, { shopify_product_id: v }] };
  return { shopify_product_id: toProductGid(v) };
}

export async function findCompanion(db: Db, rawId: string): Promise<CompanionRow | null> {
  if (isMissingId(rawId)) return null;
  return db.productCompanion.findFirst({ where: companionWhere(rawId), include: companionInclude });
}

async function mustFindCompanion(db: Db, rawId: string): Promise<CompanionRow> {
  if (isMissingId(rawId)) throw invalid(Messages.NO_PRODUCT_ID);
  const c = await findCompanion(db, rawId);
  if (!c) throw notFoundError(COMPANION_NOT_FOUND);
  return c;
}

async function reload(db: Db, id: string): Promise<Companion> {
  return toCompanion(await db.productCompanion.findUniqueOrThrow({ where: { id }, include: companionInclude }));
}

// ---------------------------------------------------------------------------------------------
// Create and read

export async function createCompanion(db: Db, input: { product_id: string; taobao_id?: string; taobao_title?: string; taobao_url?: string }): Promise<Companion> {
  if (isMissingId(input.product_id)) throw invalid(Messages.NO_PRODUCT_ID);
  const productId = toProductGid(input.product_id);
  const product = await db.product.findUnique({ where: { id: productId }, select: { id: true, companion: { select: { id: true } } } });
  if (!product) throw notFoundError(PRODUCT_NOT_FOUND);
  if (product.companion) throw conflictError("This product already has a companion");
  if (input.taobao_id) {
    const other = await db.productCompanion.findUnique({ where: { taobao_id: input.taobao_id }, select: { shopify_product_id: true } });
    if (other) throw conflictError(`Taobao item ${input.taobao_id} is already imported as product ${other.shopify_product_id}`);
  }
  const row = await db.productCompanion.create({
    data: { shopify_product_id: productId, taobao_id: input.taobao_id ?? null, taobao_title: input.taobao_title ?? null, taobao_url: input.taobao_url ?? null },
    include: companionInclude,
  });
  return toCompanion(row);
}

export async function getCompanion(db: Db, rawId: string): Promise<Companion | null> {
  const c = await findCompanion(db, rawId);
  return c ? toCompanion(c) : null;
}

/** The public part of a visible product's companion, or null. */
export async function getPublicCompanion(db: Db, rawId: string) {
  if (isMissingId(rawId)) throw invalid(Messages.NO_PRODUCT_ID);
  const c = await db.productCompanion.findFirst({ where: { AND: [companionWhere(rawId), { product: visibleProductWhere() }] }, include: companionInclude });
  return c ? toPublicCompanion(c) : null;
}

/** By product handle, whatever the product's status (a "no longer available" page shows it). */
export async function getCompanionByHandle(db: Db, handle: string) {
  const c = await db.productCompanion.findFirst({ where: { product: { handle: handle.trim() } }, include: companionInclude });
  return c ? toPublicCompanion(c) : null;
}

export async function getCompanionByTaobaoId(db: Db, taobaoId: string): Promise<Companion | null> {
  const c = await db.productCompanion.findUnique({ where: { taobao_id: taobaoId.trim() }, include: companionInclude });
  return c ? toCompanion(c) : null;
}

export async function isTaobaoItemImported(db: Db, taobaoId: string): Promise<boolean> {
  const c = await db.productCompanion.findUnique({ where: { taobao_id: taobaoId.trim() }, select: { id: true } });
  return !!c;
}

/** A vendor sees the companions of their own vendor's products only; admins see all. */
const vendorScope = (user: Pick<User, "role" | "vendor_id">): Prisma.ProductCompanionWhereInput =>
  user.role === "VENDOR" ? { product: { vendor_id: user.vendor_id ?? "\u0000none" } } : {};

export async function getCompanionForVendor(db: Db, rawId: string, user: Pick<User, "role" | "vendor_id">): Promise<Companion | null> {
  const c = await db.productCompanion.findFirst({ where: { AND: [companionWhere(rawId), vendorScope(user)] }, include: companionInclude });
  return c ? toCompanion(c) : null;
}

export async function getCompanionsForVendor(db: Db, rawIds: string[], user: Pick<User, "role" | "vendor_id">): Promise<Companion[]> {
  const ids = [...new Set(rawIds.map((i) => i.trim()).filter((i) => !isMissingId(i)))];
  if (ids.length === 0) return [];
  const rows = await db.productCompanion.findMany({ where: { AND: [{ OR: ids.map(companionWhere) }, vendorScope(user)] }, include: companionInclude });
  // In the order asked (each id may name the product or the companion).
  const order = (r: CompanionRow) => {
    const i = ids.findIndex((id) => id === r.id || toProductGid(id) === r.shopify_product_id);
    return i < 0 ? ids.length : i;
  };
  return rows.sort((a, b) => order(a) - order(b)).map(toCompanion);
}

// ---------------------------------------------------------------------------------------------
// Update, verify, status

export async function updateCompanion(
  db: Db,
  rawId: string,
  patch: Partial<{ taobao_title: string | null; taobao_url: string | null; material_sections: MaterialSection[]; tryon_active: boolean; flat_image_url: string | null; mask_image_url: string | null }>,
): Promise<Companion> {
  const c = await mustFindCompanion(db, rawId);
  const data: Prisma.ProductCompanionUpdateInput = {};
  if (patch.taobao_title !== undefined) data.taobao_title = patch.taobao_title || null;
  if (patch.taobao_url !== undefined) data.taobao_url = patch.taobao_url || null;
  if (patch.material_sections !== undefined) data.material_sections = patch.material_sections as unknown as Prisma.InputJsonValue;
  if (patch.tryon_active !== undefined) data.tryon_active = patch.tryon_active;
  if (patch.flat_image_url !== undefined) data.flat_image_url = patch.flat_image_url || null;
  if (patch.mask_image_url !== undefined) data.mask_image_url = patch.mask_image_url || null;
  if (Object.keys(data).length === 0) throw invalid("Nothing to update: send at least one field");
  await db.productCompanion.update({ where: { id: c.id }, data });
  return reload(db, c.id);
}

/** The store status that follows a companion status. */
export const productStatusFor = (s: CompanionStatus): "active" | "draft" | "archived" => (s === "active" ? "active" : s === "archived" ? "archived" : "draft");

async function syncProductStatus(ctx: CommerceCtx, productId: string, status: "active" | "draft" | "archived") {
  const current = await ctx.db.product.findUnique({ where: { id: productId }, select: { status: true } });
  if (!current || current.status === status) return;
  try {
    await ctx.commerce.setProductStatus(productId, status);
  } catch (e) {
    commerceFailure(e);
  }
  await ctx.db.product.update({ where: { id: productId }, data: { status } });
}

export function transitionError(from: CompanionStatus, to: CompanionStatus): string {
  if (from === to) return `The companion is already ${from}`;
  const allowed = COMPANION_TRANSITIONS[from];
  return `Cannot change a companion's status from ${from} to ${to} (from ${from}: ${allowed.join(" or ")})`;
}

export async function updateCompanionStatus(ctx: CommerceCtx, rawId: string, input: { status: CompanionStatus; reason?: string }): Promise<Companion> {
  const c = await mustFindCompanion(ctx.db, rawId);
  if (!COMPANION_TRANSITIONS[c.status].includes(input.status)) throw conflictError(transitionError(c.status, input.status));
  await syncProductStatus(ctx, c.shopify_product_id, productStatusFor(input.status));
  // Only move if nobody changed the status meanwhile.
  const r = await ctx.db.productCompanion.updateMany({ where: { id: c.id, status: c.status }, data: { status: input.status, status_reason: input.reason?.trim() || null } });
  if (r.count === 0) throw conflictError("The companion's status changed meanwhile; reload and try again");
  return reload(ctx.db, c.id);
}

/** Verification: sets verified_at and makes the companion and its product active. */
export async function verifyCompanion(ctx: CommerceCtx, rawId: string): Promise<Companion> {
  const c = await mustFindCompanion(ctx.db, rawId);
  if (c.status === "archived") throw conflictError("An archived companion cannot be verified: move it back to draft first");
  await syncProductStatus(ctx, c.shopify_product_id, "active");
  await ctx.db.productCompanion.update({ where: { id: c.id }, data: { verified_at: new Date(), status: "active", status_reason: null } });
  return reload(ctx.db, c.id);
}

// ---------------------------------------------------------------------------------------------
// Option values, presale variants, variant media, inventory

async function optionsResult(db: Db, productId: string) {
  const [options, variantCount] = await Promise.all([
    db.productOption.findMany({ where: { product_id: productId }, orderBy: [{ position: "asc" }, { name: "asc" }], select: { id: true, name: true, values: true } }),
    db.productVariant.count({ where: { product_id: productId } }),
  ]);
  return { options, variantCount };
}

async function mustFindOption(db: Db, productId: string, optionName: string) {
  const option = await db.productOption.findFirst({ where: { product_id: productId, name: optionName } });
  if (!option) throw notFoundError(`The product has no option named ${optionName}`);
  return option;
}

export async function renameOptionValue(ctx: CommerceCtx, rawId: string, input: { optionName: string; from: string; to: string }) {
  const c = await mustFindCompanion(ctx.db, rawId);
  const option = await mustFindOption(ctx.db, c.shopify_product_id, input.optionName);
  if (!option.values.includes(input.from)) throw notFoundError(`${input.optionName} has no value ${input.from}`);
  if (input.from !== input.to && option.values.includes(input.to)) throw conflictError(`${input.optionName} already has a value ${input.to}`);
  if (input.from !== input.to) {
    try {
      await applyProductSnapshot(ctx.db, await ctx.commerce.updateOptionValue(c.shopify_product_id, input.optionName, input.from, input.to));
    } catch (e) {
      commerceFailure(e);
    }
  }
  return optionsResult(ctx.db, c.shopify_product_id);
}

export async function deleteOptionValue(ctx: CommerceCtx, rawId: string, input: { optionName: string; value: string }) {
  const c = await mustFindCompanion(ctx.db, rawId);
  const option = await mustFindOption(ctx.db, c.shopify_product_id, input.optionName);
  if (!option.values.includes(input.value)) throw notFoundError(`${input.optionName} has no value ${input.value}`);
  if (option.values.length === 1) throw unprocessableError(`${input.value} is the only value of ${input.optionName} and cannot be deleted`);
  try {
    await applyProductSnapshot(ctx.db, await ctx.commerce.deleteOptionValue(c.shopify_product_id, input.optionName, input.value));
  } catch (e) {
    commerceFailure(e);
  }
  // Presale ids of variants that no longer exist are dropped.
  const left = new Set((await ctx.db.productVariant.findMany({ where: { product_id: c.shopify_product_id }, select: { id: true } })).map((v) => v.id));
  const presale = c.presale_variant_ids.filter((id) => left.has(id));
  if (presale.length !== c.presale_variant_ids.length) await ctx.db.productCompanion.update({ where: { id: c.id }, data: { presale_variant_ids: presale } });
  return optionsResult(ctx.db, c.shopify_product_id);
}

export async function setPresaleVariants(db: Db, rawId: string, variantIds: string[]): Promise<Companion> {
  const c = await mustFindCompanion(db, rawId);
  const ids = [...new Set(variantIds.map(toVariantGid))];
  const own = new Set((await db.productVariant.findMany({ where: { product_id: c.shopify_product_id }, select: { id: true } })).map((v) => v.id));
  const foreign = ids.filter((id) => !own.has(id));
  if (foreign.length) throw unprocessableError(`${foreign.length === 1 ? "Variant" : "Variants"} ${foreign.join(", ")} ${foreign.length === 1 ? "is not a variant" : "are not variants"} of this product`);
  await db.productCompanion.update({ where: { id: c.id }, data: { presale_variant_ids: ids } });
  return reload(db, c.id);
}

export async function updateVariantMedia(ctx: CommerceCtx, rawId: string, pairs: { variantId: string; mediaId: string }[]) {
  const c = await mustFindCompanion(ctx.db, rawId);
  return appendVariantMedia(ctx, c.shopify_product_id, pairs);
}

/** One product's inventory levels from the store into the read model. */
export async function syncCompanionInventory(ctx: CommerceCtx, rawId: string) {
  const c = await mustFindCompanion(ctx.db, rawId);
  const productId = c.shopify_product_id;
  let levels;
  try {
    levels = await ctx.commerce.inventoryLevels({ productIds: [productId] });
  } catch (e) {
    commerceFailure(e);
  }
  await applyInventoryLevels(ctx.db, levels.filter((l) => l.productId === productId));
  const product = await ctx.db.product.findUniqueOrThrow({
    where: { id: productId },
    select: { totalInventory: true, availableForSale: true, variants: { select: { id: true, inventory_quantity: true, availableForSale: true }, orderBy: [{ position: "asc" }, { id: "asc" }] } },
  });
  return {
    productId,
    totalInventory: product.totalInventory,
    availableForSale: product.availableForSale,
    variants: product.variants.map((v) => ({ id: v.id, available: v.inventory_quantity, availableForSale: v.availableForSale })),
  };
}

// ---------------------------------------------------------------------------------------------
// Scheduled publishing

/**
 * Schedules a product's publication (docs/drops.md): a future date holds the product for it (the
 * store publishes it then; the read model hides it until then), remembering its visibility
 * before; null clears the schedule and restores that visibility (a product that was live is live
 * again; one whose schedule predates the holds and is not live is unpublished). A past date is
 * refused (publishProductNow publishes at once). A product a drop holds is changed through the
 * drop (409). The companion is created when the product has none (as drops do).
 */
export async function scheduleProductPublish(ctx: CommerceCtx, rawProductId: string, date: Date | null) {
  if (isMissingId(rawProductId)) throw invalid(Messages.NO_PRODUCT_ID);
  const productId = toProductGid(rawProductId);
  const product = await ctx.db.product.findUnique({ where: { id: productId }, select: { id: true, publishedAt: true } });
  if (!product) throw notFoundError(PRODUCT_NOT_FOUND);
  const now = new Date();
  if (date && !(date.getTime() > now.getTime())) throw invalid("scheduled_publish_date must be in the future");
  await assertHoldable(ctx.db, [productId], null);
  try {
    if (date) await holdProducts(ctx, [productId], date, null);
    else {
      const released = await releaseHolds(ctx, null, { productIds: [productId] });
      // A schedule with no hold (made before holds existed, or in Shopify's admin): nothing to restore.
      if (released.length === 0 && product.publishedAt && product.publishedAt > now) {
        await ctx.commerce.unpublishProduct(productId);
        await ctx.db.product.update({ where: { id: productId }, data: { publishedAt: null } });
      }
    }
  } catch (e) {
    commerceFailure(e);
  }
  await ctx.db.productCompanion.upsert({
    where: { shopify_product_id: productId },
    create: { shopify_product_id: productId, scheduled_publish_date: date },
    update: { scheduled_publish_date: date },
  });
  const after = await ctx.db.product.findUniqueOrThrow({ where: { id: productId }, select: { publishedAt: true } });
  return { product_id: productId, scheduled_publish_date: date, publishedAt: after.publishedAt };
}

/** Publishes the product at once (its own schedule, if any, is done); a product a drop holds is changed through the drop (409). */
export async function publishProductNow(ctx: CommerceCtx, rawProductId: string) {
  if (isMissingId(rawProductId)) throw invalid(Messages.NO_PRODUCT_ID);
  const productId = toProductGid(rawProductId);
  const product = await ctx.db.product.findUnique({ where: { id: productId }, select: { id: true } });
  if (!product) throw notFoundError(PRODUCT_NOT_FOUND);
  await assertHoldable(ctx.db, [productId], null);
  try {
    await publishProductsNow(ctx, [productId]);
  } catch (e) {
    commerceFailure(e);
  }
  const after = await ctx.db.product.findUniqueOrThrow({ where: { id: productId }, select: { publishedAt: true } });
  return { product_id: productId, scheduled_publish_date: null, publishedAt: after.publishedAt };
}

export async function scheduleProductsPublish(ctx: CommerceCtx, items: { product_id: string; scheduled_publish_date: string | null }[]) {
  const results: { product_id: string; ok: boolean; scheduled_publish_date: Date | null; error?: string }[] = [];
  for (const item of items) {
    const date = item.scheduled_publish_date ? new Date(item.scheduled_publish_date) : null;
    try {
      const r = await scheduleProductPublish(ctx, item.product_id, date);
      results.push({ product_id: r.product_id, ok: true, scheduled_publish_date: r.scheduled_publish_date });
    } catch (e) {
      results.push({ product_id: toProductGid(item.product_id), ok: false, scheduled_publish_date: null, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return { results };
}

// ---------------------------------------------------------------------------------------------
// Materials

/** Re-reads the composition from the description, then the Taobao title; other sections are kept. */
export async function reanalyzeMaterials(db: Db, rawId: string) {
  const c = await mustFindCompanion(db, rawId);
  const product = await db.product.findUniqueOrThrow({ where: { id: c.shopify_product_id }, select: { description: true, descriptionHtml: true } });
  const sources = [htmlToText(stripMaterialBlock(product.descriptionHtml)) || product.description, c.taobao_title ?? ""].filter(Boolean);
  let fibres: Fibre[] = [];
  let text = "";
  for (const s of sources) {
    const f = parseComposition(s);
    if (f.some((x) => x.percent !== null)) {
      fibres = f;
      text = s;
      break;
    }
    if (!fibres.length && f.length) {
      fibres = f;
      text = s;
    }
  }
  const existing = materialSectionsOf(c.material_sections);
  if (!fibres.length) return { material_sections: existing, fibres: [], found: false, materials: await productMaterials(db, c.shopify_product_id) };
  const content = compositionText(fibres, /blend|混纺/i.test(text));
  const sections = [{ title: "Composition", content }, ...existing.filter((s) => s.title.toLowerCase() !== "composition")];
  const materials = await db.$transaction(async (tx) => {
    await tx.productCompanion.update({ where: { id: c.id }, data: { material_sections: sections as unknown as Prisma.InputJsonValue } });
    return setProductMaterialsFromText(tx, c.shopify_product_id, text);
  });
  return { material_sections: sections, fibres, found: true, materials };
}

const BLOCK_START = "<!-- material-sections -->";
const BLOCK_END = "<!-- /material-sections -->";
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function stripMaterialBlock(html: string): string {
  const i = html.indexOf(BLOCK_START);
  const j = html.indexOf(BLOCK_END);
  if (i < 0 || j < i) return html;
  return (html.slice(0, i) + html.slice(j + BLOCK_END.length)).trim();
}

/** The description with the material sections block appended (replacing one written before). */
export function withMaterialBlock(html: string, sections: MaterialSection[]): string {
  const base = stripMaterialBlock(html);
  if (!sections.length) return base;
  const block =
    `${BLOCK_START}<div class="material-sections">` +
    sections.map((s) => `<h4>${escapeHtml(s.title)}</h4><p>${escapeHtml(s.content)}</p>`).join("") +
    `</div>${BLOCK_END}`;
  return base ? `${base}\n${block}` : block;
}

export async function applyMaterialSections(ctx: CommerceCtx, rawId: string, sections: MaterialSection[]) {
  const c = await mustFindCompanion(ctx.db, rawId);
  const product = await ctx.db.product.findUniqueOrThrow({ where: { id: c.shopify_product_id }, select: { descriptionHtml: true } });
  const descriptionHtml = withMaterialBlock(product.descriptionHtml, sections);
  if (descriptionHtml !== product.descriptionHtml) {
    try {
      await applyProductSnapshot(ctx.db, await ctx.commerce.updateProduct(c.shopify_product_id, { descriptionHtml }));
    } catch (e) {
      commerceFailure(e);
    }
  }
  const composition = sections.find((s) => s.title.toLowerCase() === "composition")?.content ?? sections.map((s) => s.content).join("\n");
  const materials = await ctx.db.$transaction(async (tx) => {
    await tx.productCompanion.update({ where: { id: c.id }, data: { material_sections: sections as unknown as Prisma.InputJsonValue } });
    return setProductMaterialsFromText(tx, c.shopify_product_id, composition);
  });
  return { material_sections: sections, descriptionHtml, materials };
}

// ---------------------------------------------------------------------------------------------
// Image analysis

export const ONLY_UPLOADED_IMAGES = "Only uploaded images can be analysed in local mode";

/** Named colours for the analysis answer (nearest by CIEDE2000). */
const COLOUR_NAMES: [string, string][] = [
  ["Black", "#111111"],
  ["Charcoal", "#3a3d42"],
  ["Grey", "#808080"],
  ["Light grey", "#c8c8c8"],
  ["Silver", "#b8b8b8"],
  ["White", "#ffffff"],
  ["Off white", "#f2efe8"],
  ["Cream", "#f3ead3"],
  ["Beige", "#d8c8a8"],
  ["Sand", "#d6c29f"],
  ["Camel", "#b5854f"],
  ["Brown", "#6f4e37"],
  ["Chocolate", "#4a2c20"],
  ["Khaki", "#a39a6b"],
  ["Olive", "#5e6b3a"],
  ["Green", "#2e8b57"],
  ["Forest green", "#2f4a36"],
  ["Sage", "#a3b18a"],
  ["Mint", "#98d8c8"],
  ["Teal", "#2a6f73"],
  ["Turquoise", "#40c0c0"],
  ["Sky blue", "#9cc3e4"],
  ["Blue", "#2c5fb3"],
  ["Navy", "#1f2a44"],
  ["Denim", "#4f6f98"],
  ["Purple", "#6a3d9a"],
  ["Lilac", "#b9a6d1"],
  ["Pink", "#e58fb0"],
  ["Blush", "#e6b8ae"],
  ["Red", "#c0262e"],
  ["Burgundy", "#6d1f2f"],
  ["Rust", "#a14a2a"],
  ["Terracotta", "#c0643f"],
  ["Orange", "#e87a2a"],
  ["Mustard", "#cf9f36"],
  ["Yellow", "#f2d23c"],
  ["Gold", "#c9a227"],
];

let namedLabs: { name: string; lab: Lab }[] | null = null;
export function colourName(lab: Lab): string {
  namedLabs ??= COLOUR_NAMES.map(([name, hex]) => ({ name, lab: hexToLab(hex)! }));
  let best = namedLabs[0];
  let bestD = Infinity;
  for (const n of namedLabs) {
    const d = deltaE2000(lab, n.lab);
    if (d < bestD) {
      bestD = d;
      best = n;
    }
  }
  return best.name;
}

/**
 * Dominant colours of raw RGBA pixels. A background (one colour covering most of the border) is
 * left out. Pixels fall into Lab cells; cells are merged greedily (ΔE00 < 12) from the fullest,
 * and colours covering at least 3 % of the garment are returned, largest first (at most 5).
 */
export function dominantColours(data: Uint8Array, width: number, height: number): { hex: string; name: string; share: number }[] {
  const labs: (Lab | null)[] = [];
  for (let i = 0; i < width * height; i++) {
    const o = i * 4;
    labs.push(data[o + 3] < 128 ? null : rgbToLab(data[o], data[o + 1], data[o + 2]));
  }
  const border: Lab[] = [];
  for (let x = 0; x < width; x++) for (const y of [0, height - 1]) if (labs[y * width + x]) border.push(labs[y * width + x]!);
  for (let y = 1; y < height - 1; y++) for (const x of [0, width - 1]) if (labs[y * width + x]) border.push(labs[y * width + x]!);
  let background: Lab | null = null;
  if (border.length) {
    const flat = new Uint8Array(border.length * 3);
    border.forEach((l, i) => {
      const hex = labToHex(l);
      flat[i * 3] = parseInt(hex.slice(1, 3), 16);
      flat[i * 3 + 1] = parseInt(hex.slice(3, 5), 16);
      flat[i * 3 + 2] = parseInt(hex.slice(5, 7), 16);
    });
    const bg = dominantLab(flat, 3);
    if (border.filter((l) => deltaE2000(l, bg) < 10).length >= border.length * 0.6) background = bg;
  }
  let pixels = labs.filter((l): l is Lab => !!l);
  if (background) {
    const fg = pixels.filter((l) => deltaE2000(l, background!) >= 10);
    if (fg.length >= pixels.length * 0.02) pixels = fg;
  }
  if (!pixels.length) return [];
  const cells = new Map<string, { n: number; l: number; a: number; b: number }>();
  for (const p of pixels) {
    const key = `${Math.floor(p.l / 8)}|${Math.floor((p.a + 128) / 10)}|${Math.floor((p.b + 128) / 10)}`;
    const c = cells.get(key) ?? { n: 0, l: 0, a: 0, b: 0 };
    c.n++;
    c.l += p.l;
    c.a += p.a;
    c.b += p.b;
    cells.set(key, c);
  }
  const sorted = [...cells.entries()].sort((x, y) => y[1].n - x[1].n || (x[0] < y[0] ? -1 : 1)).map(([, c]) => c);
  const clusters: { n: number; l: number; a: number; b: number }[] = [];
  for (const c of sorted) {
    const mean = { l: c.l / c.n, a: c.a / c.n, b: c.b / c.n };
    const home = clusters.find((k) => deltaE2000({ l: k.l / k.n, a: k.a / k.n, b: k.b / k.n }, mean) < 12);
    if (home) {
      home.n += c.n;
      home.l += c.l;
      home.a += c.a;
      home.b += c.b;
    } else clusters.push({ ...c });
  }
  return clusters
    .sort((x, y) => y.n - x.n)
    .filter((k) => k.n / pixels.length >= 0.03)
    .slice(0, 5)
    .map((k) => {
      const lab = { l: k.l / k.n, a: k.a / k.n, b: k.b / k.n };
      return { hex: labToHex(lab), name: colourName(lab), share: Math.round((k.n / pixels.length) * 1000) / 1000 };
    });
}

/** Singular forms of a plural word ("hoodies" → hoodie, hoody; "dresses" → dress). */
const singulars = (w: string): string[] =>
  w.endsWith("ies") ? [`${w.slice(0, -3)}y`, w.slice(0, -1)] : /(ss|sh|ch|x)es$/.test(w) ? [w.slice(0, -2)] : w.endsWith("s") && !w.endsWith("ss") ? [w.slice(0, -1)] : [w];
const norm = (s: string) => ` ${s.toLowerCase().replace(/\.[a-z0-9]+$/, "").replace(/[^a-z0-9]+/g, " ").trim()} `;

/** Phrases that name each product type: "T-Shirts" → "t shirts", "t shirt", "tshirt", "tee"… */
export function typePhrases(productType: string): string[] {
  const parts = productType.toLowerCase().split(/\s*(?:&|\/|,|\band\b)\s*/).filter(Boolean);
  const out = new Set<string>();
  for (const part of parts) {
    const words = part.replace(/[^a-z0-9]+/g, " ").trim();
    if (!words) continue;
    const head = words.split(" ");
    const last = head.pop()!;
    const forms = [words, ...singulars(last).map((s) => [...head, s].join(" "))];
    for (const w of forms) {
      out.add(w);
      out.add(w.replace(/ /g, ""));
    }
  }
  return [...out].filter((p) => p.length >= 3);
}

/** The catalogue's product type named by a text (longest phrase wins), or null. */
export function garmentTypeFrom(text: string, productTypes: string[]): string | null {
  const hay = norm(text);
  const compact = hay.replace(/ /g, "");
  let best: { type: string; len: number } | null = null;
  for (const type of productTypes) {
    for (const phrase of typePhrases(type)) {
      const hit = phrase.includes(" ") ? hay.includes(` ${phrase} `) : hay.includes(` ${phrase} `) || (phrase.length >= 5 && compact.includes(phrase) && /[a-z]/.test(phrase));
      if (hit && (!best || phrase.length > best.len)) best = { type, len: phrase.length };
    }
  }
  return best?.type ?? null;
}

function ownHosts(ctx: Pick<AppContext, "config">): Set<string> {
  const hosts = new Set(["localhost", "127.0.0.1", "[::1]"]);
  for (const u of [ctx.config.APP_URL, ctx.config.SHOPIFY_APP_URL]) {
    try {
      if (u) hosts.add(new URL(u).hostname);
    } catch {
      /* not a URL */
    }
  }
  return hosts;
}

/** The storage key of one of our uploads (`/uploads/<key>`, an absolute URL to it, or a key), or null. */
export function uploadKeyOf(url: string, ctx: Pick<AppContext, "config">): string | null {
  let path = url.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) {
    let u: URL;
    try {
      u = new URL(path);
    } catch {
      return null;
    }
    if (!/^https?:$/.test(u.protocol) || !ownHosts(ctx).has(u.hostname)) return null;
    path = u.pathname;
  }
  path = path.split(/[?#]/)[0];
  let key: string;
  try {
    key = decodeURIComponent(path.startsWith("/uploads/") ? path.slice("/uploads/".length) : path);
  } catch {
    return null;
  }
  if (key.startsWith("/") || key.includes("..") || !/^[a-zA-Z0-9][a-zA-Z0-9/_.-]*$/.test(key)) return null;
  return key;
}

const MAX_FETCH_BYTES = 15_000_000;

async function fetchImage(url: string): Promise<Uint8Array> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: "follow" });
  if (!res.ok) throw unprocessableError(`The image could not be fetched (HTTP ${res.status})`);
  const length = Number(res.headers.get("content-length") ?? 0);
  if (length > MAX_FETCH_BYTES) throw unprocessableError("The image is too large to analyse");
  const buf = new Uint8Array(await res.arrayBuffer());
  if (buf.byteLength > MAX_FETCH_BYTES) throw unprocessableError("The image is too large to analyse");
  return buf;
}

export async function analyzeImageUrl(ctx: Pick<AppContext, "db" | "storage" | "config">, input: { url: string; alt?: string }) {
  const key = uploadKeyOf(input.url, ctx);
  let bytes: Uint8Array | null;
  if (key) {
    bytes = await ctx.storage.get(key);
    if (!bytes) throw notFoundError(`No uploaded image at ${input.url}`);
  } else if (ctx.storage.kind === "local" || !/^https?:\/\//i.test(input.url)) {
    throw unprocessableError(ONLY_UPLOADED_IMAGES);
  } else {
    bytes = await fetchImage(input.url);
  }
  let meta: Metadata;
  let raw: { data: Buffer; info: OutputInfo };
  try {
    const img = sharp(bytes, { limitInputPixels: 100_000_000 }).rotate();
    meta = await img.metadata();
    raw = await img.resize(96, 96, { fit: "inside" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch {
    throw unprocessableError("The file is not an image that can be read");
  }
  // EXIF orientations 5–8 swap width and height.
  const swap = (meta.orientation ?? 1) >= 5;
  const width = (swap ? meta.height : meta.width) ?? raw.info.width;
  const height = (swap ? meta.width : meta.height) ?? raw.info.height;
  const ratio = width / height;
  const types = (await ctx.db.product.findMany({ distinct: ["productType"], where: { productType: { not: "" } }, select: { productType: true } })).map((r) => r.productType);
  const fileName = decodeURIComponent((key ?? new URL(input.url).pathname).split("/").pop() ?? "");
  const fromFile = garmentTypeFrom(fileName, types);
  const fromAlt = !fromFile && input.alt ? garmentTypeFrom(input.alt, types) : null;
  return {
    url: input.url,
    width,
    height,
    aspectRatio: Math.round(ratio * 1000) / 1000,
    orientation: (Math.abs(ratio - 1) < 0.02 ? "square" : ratio > 1 ? "landscape" : "portrait") as "square" | "landscape" | "portrait",
    dominantColors: dominantColours(new Uint8Array(raw.data), raw.info.width, raw.info.height),
    garmentType: fromFile ?? fromAlt,
    garmentTypeSource: (fromFile ? "filename" : fromAlt ? "alt" : null) as "filename" | "alt" | null,
  };
}

/** How many products have a companion in each status, and how many have none (admin chart). */
export async function companionStatusCounts(db: Db) {
  const [groups, products] = await Promise.all([db.productCompanion.groupBy({ by: ["status"], _count: { _all: true } }), db.product.count()]);
  const counts: Record<CompanionStatus | "none", number> = { draft: 0, pending_review: 0, active: 0, archived: 0, none: 0 };
  for (const g of groups) counts[g.status] = g._count._all;
  counts.none = Math.max(0, products - groups.reduce((s, g) => s + g._count._all, 0));
  return counts;
}
