/**
 * One Taobao import, end to end, in steps recorded on the import job (`step`, `progress`):
 *
 *   fetch      the item from the Taobao source port (validated: missing fields are refused)
 *   map        options and variants from the SKU properties, prices from CNY, gender, type, materials
 *   images     main, SKU and detail images fetched once, checked, de-duplicated by content, stored
 *              under images/taobao/, colour hex per variant from its SKU image
 *   translate  title and description through the language-model port (the glossary locally; the
 *              hosted model when LANGUAGE_MODEL=openai, the glossary again for an item it fails)
 *   create     the product through the commerce port in one call — or, when the item was imported
 *              before, an update of that product — then its companion record (Taobao origin and
 *              title, status, material sections, try-on flag), all or nothing
 *   propose    each colour's SKU image proposed for its variants (ProposedVariantImage, "taobao")
 *
 * Creation is whole or not at all: if anything after the store accepted the product fails, the
 * product is deleted again (store and read model) and the images this run stored are removed.
 * A run that died (the process was killed) cannot clean up: the next run of the job finds the
 * product it left without a companion (by the id the job recorded, or by its variants' Taobao
 * SKU codes) and removes it before creating the product again, so a restart never duplicates it.
 */
import { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import type { ImportResultSchema } from "~/contract/taobao-import";
import type { z } from "zod";
import { CommerceError, type ProductInput, type ProductSnapshot } from "~/providers/commerce/port";
import { slugify } from "~/providers/commerce/local.server";
import { TaobaoSourceError, type TaobaoItem } from "~/providers/taobao/port";
import { LanguageModelError, type ListingTranslation, type ListingTranslationInput } from "~/providers/language-model/port";
import { glossaryTranslation } from "~/providers/taobao/translate";
import { withMaterialBlock } from "~/services/companion.server";
import { setProductMaterialsFromText } from "~/services/materials/categories.server";
import { deleteProductFromReadModel, upsertProductSnapshot } from "~/services/product-read-model.server";
import { assembleProduct, ImportInputError, mapItem, MAX_IMAGES, type MappedItem, type StoreConventions } from "./mapping.server";
import { removeStored, storeImages, type ImageRun } from "./images.server";

export type ImportResult = z.input<typeof ImportResultSchema>;
export type ImportStep = "fetch" | "map" | "images" | "translate" | "create" | "propose";

export type PipelineCtx = Pick<AppContext, "db" | "commerce" | "taobao" | "storage" | "config" | "log" | "languageModel">;

/** A failure of one run: `permanent` ones are not retried (bad input), the others are (with backoff). */
export class ImportFailure extends Error {
  constructor(
    message: string,
    readonly step: ImportStep,
    readonly permanent: boolean,
    readonly detail?: string,
  ) {
    super(message);
    this.name = "ImportFailure";
  }
}

export const STORE_NOT_FOUND = "Target store not found";
export const ALREADY_IMPORTING = "This Taobao item is already being imported by another job";

/** Where each step leaves the progress bar. */
export const STEP_PROGRESS: Record<ImportStep, [number, number]> = {
  fetch: [0, 10],
  map: [10, 20],
  images: [20, 70],
  translate: [70, 75],
  create: [75, 92],
  propose: [92, 99],
};

export interface Reporter {
  step(step: ImportStep, fraction?: number): Promise<void>;
  /** The item as fetched (kept on the job as its source payload). */
  source(item: TaobaoItem): Promise<void>;
  /** The store accepted a new product (recorded on the job before anything else can fail, so a restart finds it). */
  created?(productId: string): Promise<void>;
}

/** Turns anything a step throws into an ImportFailure with a message fit for grouping. */
export function classify(e: unknown, step: ImportStep): ImportFailure {
  if (e instanceof ImportFailure) return e;
  if (e instanceof ImportInputError) return new ImportFailure(e.message, step, true);
  if (e instanceof TaobaoSourceError) return new ImportFailure(e.message, step, !e.retryable, e.opts.detail);
  if (e instanceof CommerceError) {
    // Throttling and store outages are worth retrying; a refusal of the product is not.
    const transient = e.status === 429 || e.status === 502;
    const reason = e.userErrors.length ? e.userErrors.map((u) => u.message).join("; ") : e.message;
    return new ImportFailure(`The store refused the product: ${reason}`, step, !transient);
  }
  if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
    return new ImportFailure("Another job imported this item at the same time; the next attempt updates it", step, false);
  }
  const message = e instanceof Error ? e.message : String(e);
  return new ImportFailure(`Unexpected error: ${message}`, step, false);
}

async function storeConventions(db: Db, store: { id: string; name: string; target_gender: "both" | "menswear" | "womenswear"; size_recommendation: string | null }): Promise<StoreConventions> {
  const rows = await db.productOption.findMany({ where: { product: { store_id: store.id } }, select: { name: true, values: true }, take: 400 });
  const count = (names: string[]) => names.map((n) => [n, rows.filter((r) => r.name === n).length] as const).sort((a, b) => b[1] - a[1]);
  const colourOption = count(["Color", "Colour", "颜色"])[0];
  const sizeOption = count(["Size", "Sizes"])[0];
  const sizes = [...new Set(rows.filter((r) => /^sizes?$/i.test(r.name)).flatMap((r) => r.values))];
  return {
    name: store.name,
    target_gender: store.target_gender,
    size_recommendation: store.size_recommendation,
    colourOption: colourOption[1] > 0 ? colourOption[0] : "Color",
    sizeOption: sizeOption[1] > 0 ? sizeOption[0] : "Size",
    sizes,
  };
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Our `/uploads/…` URLs as the store can fetch them (Shopify needs absolute public URLs). */
export function storeFacingUrl(ctx: Pick<AppContext, "config" | "commerce">, url: string): string {
  if (ctx.commerce.kind === "local" || /^https?:\/\//i.test(url)) return url;
  const base = ctx.config.APP_URL ?? ctx.config.SHOPIFY_APP_URL;
  return base ? `${base.replace(/\/+$/, "")}${url.startsWith("/") ? "" : "/"}${url}` : url;
}

function descriptionHtml(paragraphs: string[], m: MappedItem, images: ImageRun, ctx: Pick<AppContext, "config" | "commerce">): string {
  const parts = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`);
  const details = m.item.detailImages.map((u) => images.byUrl.get(u)).filter((x): x is NonNullable<typeof x> => !!x);
  for (const d of details.slice(0, 6)) parts.push(`<p><img src="${escapeHtml(storeFacingUrl(ctx, d.url))}" alt="${escapeHtml(`${m.facts.title} detail`)}" width="${d.width}" height="${d.height}"/></p>`);
  return withMaterialBlock(parts.join("\n"), m.materialSections);
}

/**
 * The listing in English through the language model. A model that cannot answer costs this item
 * its hosted translation, never the import: the glossary's stands in (`provider` says "local").
 */
async function translateListing(ctx: Pick<PipelineCtx, "languageModel" | "log">, input: ListingTranslationInput): Promise<ListingTranslation> {
  try {
    return await ctx.languageModel.translateListing(input);
  } catch (e) {
    if (!(e instanceof LanguageModelError)) throw e;
    ctx.log.warn({ err: e.message, model: ctx.languageModel.name }, "taobao import: translation failed; using the glossary");
    return glossaryTranslation(input.facts);
  }
}

export interface PipelineOutcome {
  productId: string;
  result: ImportResult;
}

/**
 * Runs the import of `taobaoId` into `storeId`. Throws ImportFailure (its `step` says where);
 * leaves nothing behind when a creation fails.
 */
export async function runImportPipeline(
  ctx: PipelineCtx,
  job: { taobao_product_id: string; store_id: string | null; store_name: string; product_id?: string | null },
  report: Reporter,
  opts: { imageConcurrency?: number } = {},
): Promise<PipelineOutcome> {
  const started = Date.now();
  let step: ImportStep = "fetch";
  const notes: string[] = [];
  let images: ImageRun | null = null;
  let createdProductId: string | null = null;
  try {
    // --- target store (by id, else by name: a job whose store was deleted keeps its name)
    await report.step("fetch");
    const store =
      (job.store_id ? await ctx.db.store.findUnique({ where: { id: job.store_id } }) : null) ??
      (job.store_name ? await ctx.db.store.findFirst({ where: { name: { equals: job.store_name, mode: "insensitive" } } }) : null);
    if (!store) throw new ImportFailure(STORE_NOT_FOUND, "fetch", true, job.store_id ?? job.store_name);

    // --- fetch
    const item = await ctx.taobao.getItem(job.taobao_product_id);
    await report.source(item);

    // --- map
    step = "map";
    await report.step("map");
    const conventions = await storeConventions(ctx.db, store);
    const mapped = mapItem(item, conventions, ctx.config);

    // --- images
    step = "images";
    await report.step("images");
    const skuImageUrls = mapped.colours.flatMap((c) => (c.imageUrl ? [c.imageUrl] : []));
    images = await storeImages(
      ctx,
      [...item.images.map((url) => ({ url, role: "main" as const })), ...skuImageUrls.map((url) => ({ url, role: "sku" as const })), ...item.detailImages.map((url) => ({ url, role: "detail" as const }))],
      { concurrency: opts.imageConcurrency ?? 4, onProgress: (done, total) => report.step("images", total ? done / total : 1), onFailure: (keys) => removeUnreferenced(ctx, keys) },
    );
    for (const s of images.skipped) notes.push(`Detail image left out: ${s.reason}`);
    const main = images.byUrl.get(item.images[0]) ?? null;
    const assembled = assembleProduct(mapped, (url) => images!.byUrl.get(url) ?? null, { mainImageHex: main?.hex ?? null });
    if (assembled.variants.length === 0) throw new ImportFailure("The Taobao item has no SKUs: there is nothing to sell", "map", true);
    // Product media: the main pictures, then SKU pictures not among them; each picture once.
    const productImages: { url: string; altText: string }[] = [];
    const seenKeys = new Set<string>();
    for (const url of [...item.images, ...skuImageUrls]) {
      const img = images.byUrl.get(url);
      if (!img || seenKeys.has(img.key)) continue;
      seenKeys.add(img.key);
      productImages.push({ url: img.url, altText: mapped.facts.title });
    }

    // --- translate
    step = "translate";
    await report.step("translate");
    const translation = await translateListing(ctx, {
      title: item.title,
      description: item.descriptionText,
      attributes: item.attributes,
      facts: { title: mapped.facts.title, gender: mapped.targetGender, material: mapped.facts.material, composition: mapped.composition, colours: assembled.colourNames, sizes: assembled.sizes, attributes: mapped.attributes },
    });
    const title = translation.title.slice(0, 255);
    const html = descriptionHtml(translation.description, mapped, images, ctx);

    // --- create or update
    step = "create";
    await report.step("create");
    const existing = await ctx.db.productCompanion.findUnique({ where: { taobao_id: item.id }, select: { id: true, shopify_product_id: true } });
    const status = ctx.config.TAOBAO_IMPORT_STATUS === "draft" ? "draft" : "active";
    const input: ProductInput = {
      title,
      handle: `${slugify(title)}-${item.id}`,
      vendor: store.name,
      productType: mapped.productType,
      descriptionHtml: html,
      status,
      tags: mapped.tags,
      targetGender: mapped.targetGender,
      options: assembled.options,
      variants: assembled.variants.map((v) => ({ sku: v.sku, price: v.price, compareAtPrice: v.compareAtPrice, inventoryQuantity: v.inventoryQuantity, selectedOptions: v.selectedOptions, colorHex: v.colorHex, imageUrl: null })),
      images: productImages.slice(0, MAX_IMAGES).map((i) => ({ url: storeFacingUrl(ctx, i.url), altText: i.altText })),
      storeId: store.id,
    };
    const companionData = {
      taobao_title: item.title,
      taobao_url: item.url,
      material_sections: mapped.materialSections as unknown as Prisma.InputJsonValue,
      tryon_active: mapped.tryon,
    };

    let productId: string;
    let action: "created" | "updated";
    let snapshot: ProductSnapshot | null = null;
    if (existing) {
      const updated = await updateExisting(ctx, existing.shopify_product_id, input, assembled.variants, notes);
      if (updated) {
        productId = existing.shopify_product_id;
        action = "updated";
        await ctx.db.productCompanion.update({ where: { id: existing.id }, data: companionData });
      } else {
        // The product is gone from the store: the stale companion goes with its read-model row.
        await deleteProductFromReadModel(ctx.db, existing.shopify_product_id);
        notes.push("The product imported before was deleted from the store: imported again");
        action = "created";
        productId = "";
      }
    } else {
      action = "created";
      productId = "";
    }
    if (action === "created") {
      const leftovers = await removeHalfMade(ctx, item.id, job.product_id ?? null);
      if (leftovers) notes.push(`A product half-made by an interrupted run was removed (${leftovers})`);
      snapshot = await ctx.commerce.createProduct(input);
      createdProductId = snapshot.id;
      productId = snapshot.id;
      // The Shopify adapter's products reach the read model through webhooks: write it now, the companion points at it.
      const known = await ctx.db.product.findUnique({ where: { id: snapshot.id }, select: { id: true } });
      if (!known) await upsertProductSnapshot(ctx.db, snapshot, { storeId: store.id });
      await report.created?.(snapshot.id);
      await ctx.db.$transaction(async (tx) => {
        await tx.productCompanion.create({
          data: { shopify_product_id: snapshot!.id, taobao_id: item.id, status: status === "active" ? "active" : "pending_review", ...companionData },
        });
        await linkSkus(tx, snapshot!.id, assembled.variants);
      });
    } else {
      await ctx.db.$transaction((tx) => linkSkus(tx, productId, assembled.variants));
    }

    // The product's material categories from the composition just mapped (search's material filter).
    const compositionSection = mapped.materialSections.find((m) => m.title === "Composition" || m.title === "Material");
    await setProductMaterialsFromText(ctx.db, productId, compositionSection?.content ?? "");

    // --- propose variant images
    step = "propose";
    await report.step("propose");
    const proposed = await proposeVariantImages(ctx.db, productId, assembled.variants);

    const prices = assembled.variants.map((v) => Number(v.price));
    const result: ImportResult = {
      action,
      title,
      taobao_title: item.title,
      variants: assembled.variants.length,
      images: productImages.length,
      duplicate_images: images.duplicates,
      proposed_images: proposed,
      currency_rule: `CNY × ${ctx.config.TAOBAO_CNY_RATE} × ${ctx.config.TAOBAO_PRICE_MARKUP}${ctx.config.TAOBAO_PRICE_ADD ? ` + ${ctx.config.TAOBAO_PRICE_ADD}` : ""}, ending ${ctx.config.TAOBAO_PRICE_ENDING}`,
      price_range: { min: Math.min(...prices).toFixed(2), max: Math.max(...prices).toFixed(2) },
      translation: translation.provider,
      notes,
      duration_ms: Date.now() - started,
    };
    return { productId, result };
  } catch (e) {
    const failure = classify(e, step);
    // Whole or not at all: a product this run created goes again, with the images it stored.
    if (createdProductId) await removeCreatedProduct(ctx, createdProductId);
    // Stored pictures no product points at any more (a re-import keeps what it attached).
    if (images?.created.length) await removeUnreferenced(ctx, images.created).catch((err: unknown) => ctx.log.warn({ err }, "taobao import: image clean-up failed"));
    throw failure;
  }
}

/**
 * Products an earlier run of this item created and then died before their companion was written:
 * the one the job recorded, and any whose variants carry the item's SKU codes (`TB-<item>-<sku>`,
 * found even when the run died before recording it). Removed like a failed creation; answers how many.
 */
async function removeHalfMade(ctx: PipelineCtx, taobaoId: string, recorded: string | null): Promise<number> {
  const rows = await ctx.db.product.findMany({
    where: { companion: null, OR: [...(recorded ? [{ id: recorded }] : []), { variants: { some: { sku: { startsWith: `TB-${taobaoId}-` } } } }] },
    select: { id: true },
  });
  for (const r of rows) {
    ctx.log.warn({ productId: r.id, taobaoId }, "taobao import: removing the product an interrupted run left half-made");
    await removeCreatedProduct(ctx, r.id);
  }
  return rows.length;
}

/** Deletes a product this run created: in the store, then in the read model (cascading to its companion and proposals). */
async function removeCreatedProduct(ctx: PipelineCtx, productId: string) {
  try {
    await ctx.commerce.deleteProduct(productId);
  } catch (e) {
    if (!(e instanceof CommerceError && e.status === 404)) ctx.log.error({ err: e, productId }, "taobao import: could not delete the product of a failed import");
  }
  await deleteProductFromReadModel(ctx.db, productId).catch((e: unknown) => ctx.log.error({ err: e, productId }, "taobao import: could not remove the read model row of a failed import"));
}

/** Removes stored images no product, variant or proposal points at (another import may share a picture). */
async function removeUnreferenced(ctx: PipelineCtx, keys: string[]) {
  const orphans: string[] = [];
  for (const key of keys) {
    const url = ctx.storage.publicUrl(key);
    const used =
      (await ctx.db.productImage.count({ where: { url: { endsWith: url } } })) +
      (await ctx.db.proposedVariantImage.count({ where: { proposed_image_url: { endsWith: url } } })) +
      (await ctx.db.productVariant.count({ where: { image_url: { endsWith: url } } })) +
      (await ctx.db.product.count({ where: { descriptionHtml: { contains: url } } }));
    if (!used) orphans.push(key);
  }
  await removeStored(ctx.storage, orphans);
}

/** The Taobao SKU id on each read-model variant (matched by our SKU code, else by options). */
async function linkSkus(tx: Prisma.TransactionClient, productId: string, variants: { skuId: string; sku: string; selectedOptions: { name: string; value: string }[] }[]) {
  const rows = await tx.productVariant.findMany({ where: { product_id: productId }, select: { id: true, sku: true, selectedOptions: true, taobao_sku_id: true } });
  for (const v of variants) {
    const row = rows.find((r) => r.sku === v.sku) ?? rows.find((r) => JSON.stringify(r.selectedOptions) === JSON.stringify(v.selectedOptions));
    if (row && row.taobao_sku_id !== v.skuId) await tx.productVariant.update({ where: { id: row.id }, data: { taobao_sku_id: v.skuId } });
  }
}

/**
 * Re-import: the product imported before is updated through the commerce port — title,
 * description, type, tags, gender, store; its variants reconciled with the source's SKUs (new
 * SKUs added, prices followed, SKUs no longer sold removed; matched by SKU code, else by options);
 * stock and colour hex of the kept variants; new pictures added. Answers false when the product is gone.
 */
async function updateExisting(
  ctx: PipelineCtx,
  productId: string,
  input: ProductInput,
  variants: { skuId: string; sku: string; price: string; compareAtPrice: string | null; inventoryQuantity: number; colorHex: string | null; selectedOptions: { name: string; value: string }[] }[],
  notes: string[],
): Promise<boolean> {
  let current: ProductSnapshot | null = await ctx.commerce.getProduct(productId);
  if (!current) return false;
  current = await ctx.commerce.updateProduct(productId, {
    title: input.title,
    vendor: input.vendor,
    productType: input.productType,
    descriptionHtml: input.descriptionHtml,
    tags: input.tags,
    targetGender: input.targetGender,
    storeId: input.storeId,
  });
  const sameCombo = (a: { name: string; value: string }[], b: { name: string; value: string }[]) => a.length === b.length && a.every((o) => b.some((p) => p.name === o.name && p.value === o.value));
  const match = (v: (typeof variants)[number], among: ProductSnapshot["variants"]) => among.find((c) => c.sku === v.sku) ?? among.find((c) => sameCombo(c.selectedOptions, v.selectedOptions));
  const optionNames = (names: string[]) => [...names].sort().join(" · ");
  if (optionNames(current.options.map((o) => o.name)) !== optionNames(input.options.map((o) => o.name))) {
    notes.push(`The item's options changed (${optionNames(current.options.map((o) => o.name)) || "none"} → ${optionNames(input.options.map((o) => o.name))}): variants left as they were; delete the product and import it again to follow them`);
  } else {
    const money = (v: string | null) => (v === null ? null : Number(v).toFixed(2));
    const pairs = variants.map((v) => ({ v, cur: match(v, current!.variants) }));
    const create = pairs.filter((p) => !p.cur).map(({ v }) => ({ sku: v.sku, price: v.price, compareAtPrice: v.compareAtPrice, inventoryQuantity: v.inventoryQuantity, selectedOptions: v.selectedOptions, colorHex: v.colorHex }));
    const update = pairs
      .filter((p) => p.cur && (money(p.cur.price) !== money(p.v.price) || money(p.cur.compareAtPrice) !== money(p.v.compareAtPrice)))
      .map(({ v, cur }) => ({ id: cur!.id, price: v.price, compareAtPrice: v.compareAtPrice }));
    const keep = new Set(pairs.flatMap((p) => (p.cur ? [p.cur.id] : [])));
    const remove = current.variants.filter((c) => !keep.has(c.id)).map((c) => c.id);
    if (create.length || update.length || remove.length) {
      current = await ctx.commerce.updateProductVariants(productId, { create, update, delete: remove });
      const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
      if (create.length) notes.push(`${plural(create.length, "new SKU")} added`);
      if (update.length) notes.push(`${plural(update.length, "variant price")} updated from the source`);
      if (remove.length) notes.push(`${plural(remove.length, "variant")} no longer sold on Taobao removed`);
    }
  }
  const kept = variants.flatMap((v) => {
    const cur = match(v, current!.variants);
    return cur ? [{ v, cur }] : [];
  });
  const levels = kept.filter((m) => m.cur.inventoryQuantity !== m.v.inventoryQuantity).map((m) => ({ variantId: m.cur.id, available: m.v.inventoryQuantity }));
  if (levels.length) await ctx.commerce.setInventory(levels);
  const hexes = kept.filter((m) => m.v.colorHex && m.cur.colorHex !== m.v.colorHex).map((m) => ({ variantId: m.cur.id, hex: m.v.colorHex }));
  if (hexes.length) await ctx.commerce.setVariantColorHex(productId, hexes);
  const have = new Set(current.images.map((i) => i.url));
  let added = 0;
  for (const img of input.images) {
    if (have.has(img.url)) continue;
    await ctx.commerce.addProductImage(productId, img);
    added++;
  }
  if (added) notes.push(`${added} new picture${added === 1 ? "" : "s"} added`);
  if (levels.length) notes.push(`Stock updated on ${levels.length} variant${levels.length === 1 ? "" : "s"}`);
  // Keep the read model in step when the store is not the read model (Shopify: webhooks follow, but the job's answer should be current).
  if (ctx.commerce.kind !== "local") {
    const fresh = await ctx.commerce.getProduct(productId);
    if (fresh) await upsertProductSnapshot(ctx.db, fresh);
  }
  return true;
}

/**
 * Each variant whose colour has a SKU image gets that image proposed (source "taobao"), unless the
 * variant already shows it or has a proposal of it that is pending or approved.
 */
async function proposeVariantImages(db: Db, productId: string, variants: { sku: string; selectedOptions: { name: string; value: string }[]; skuImageUrl: string | null }[]): Promise<number> {
  const rows = await db.productVariant.findMany({
    where: { product_id: productId },
    select: { id: true, sku: true, selectedOptions: true, image_url: true, proposed_images: { where: { status: { in: ["pending", "approved"] } }, select: { proposed_image_url: true } } },
  });
  const data: Prisma.ProposedVariantImageCreateManyInput[] = [];
  for (const v of variants) {
    if (!v.skuImageUrl) continue;
    const row = rows.find((r) => r.sku === v.sku) ?? rows.find((r) => JSON.stringify(r.selectedOptions) === JSON.stringify(v.selectedOptions));
    if (!row || row.image_url === v.skuImageUrl || row.proposed_images.some((p) => p.proposed_image_url === v.skuImageUrl)) continue;
    data.push({ product_id: productId, variant_id: row.id, current_image_url: row.image_url, proposed_image_url: v.skuImageUrl, source: "taobao", status: "pending" });
  }
  if (data.length) await db.proposedVariantImage.createMany({ data });
  return data.length;
}

