/**
 * POST /uploaded-images/proposed-variant-images/taobao/{id}: proposes, for each variant of an
 * imported product, the image of its Taobao SKU (the swatch picture of the SKU's colour, from
 * `prop_imgs`). The item is read again from the Taobao source port (ctx.taobao), so a shop's new
 * swatch pictures can be proposed after the import. Images go through the import's own image
 * store (fetched through the port, checked by content, normalised, `images/taobao/<sha256>.jpg`),
 * so a picture the import already stored keeps its URL and is recognised.
 *
 * A variant is matched to its SKU by `taobao_sku_id` (set by the import), else by its SKU code
 * (`TB-<item>-<sku>`), else by its option values equal to the SKU's raw values. A variant is skipped,
 * with the reason, when no SKU matches, its SKU has no image, the image failed, it already shows
 * that image, or that image is already pending or approved for it.
 */
import type { Prisma } from "@prisma/client";
import { DomainError, notFoundError, unprocessableError } from "~/lib/domain-errors";
import type { AppContext } from "~/context.server";
import { toProductGid } from "~/lib/gid";
import { TaobaoSourceError, type TaobaoItem, type TaobaoSku } from "~/providers/taobao/port";
import { storeImages } from "./taobao-import/images.server";
import { toProposal } from "./proposed-variant-images.server";

type Ctx = Pick<AppContext, "db" | "storage" | "taobao" | "log">;

const asOptions = (v: Prisma.JsonValue): { name: string; value: string }[] =>
  Array.isArray(v) ? v.filter((o): o is { name: string; value: string } => !!o && typeof o === "object" && "name" in o && "value" in o).map((o) => ({ name: String(o.name), value: String(o.value) })) : [];

/** The product named by {id}: a product id (GID or number), else the Taobao item id of an imported product. */
async function resolveProduct(db: Ctx["db"], rawId: string) {
  const byProduct = await db.product.findUnique({ where: { id: toProductGid(rawId) }, select: { id: true, companion: { select: { taobao_id: true } } } });
  if (byProduct) {
    const taobaoId = byProduct.companion?.taobao_id;
    if (!taobaoId) throw unprocessableError("This product was not imported from Taobao: its companion has no Taobao item id");
    return { productId: byProduct.id, taobaoId };
  }
  const byTaobao = await db.productCompanion.findUnique({ where: { taobao_id: rawId.trim() }, select: { shopify_product_id: true, taobao_id: true } });
  if (byTaobao?.taobao_id) return { productId: byTaobao.shopify_product_id, taobaoId: byTaobao.taobao_id };
  throw notFoundError(`No product and no imported Taobao item with id ${rawId.trim()}`);
}

function sourceFailure(e: unknown, taobaoId: string): never {
  if (!(e instanceof TaobaoSourceError)) throw e;
  if (e.code === "not_found") throw notFoundError(`The Taobao item ${taobaoId} was not found at the source: ${e.message}`);
  if (e.code === "invalid_item") throw unprocessableError(e.message);
  throw new DomainError("unavailable", `The Taobao source did not answer: ${e.message}`, { code: e.code, retryable: e.retryable });
}

/** The SKU image of a SKU: the image of the first of its property values that has one (the colour). */
function skuImage(item: TaobaoItem, sku: TaobaoSku): string | null {
  for (const v of sku.values) {
    const url = item.skuProperties.find((p) => p.pid === v.pid)?.values.find((x) => x.vid === v.vid)?.imageUrl;
    if (url) return url;
  }
  return null;
}

export async function proposeFromTaobao(ctx: Ctx, rawId: string) {
  const { productId, taobaoId } = await resolveProduct(ctx.db, rawId);
  let item: TaobaoItem;
  try {
    item = await ctx.taobao.getItem(taobaoId);
  } catch (e) {
    sourceFailure(e, taobaoId);
  }
  const variants = await ctx.db.productVariant.findMany({
    where: { product_id: productId },
    orderBy: [{ position: "asc" }, { id: "asc" }],
    select: { id: true, title: true, sku: true, taobao_sku_id: true, selectedOptions: true, image_url: true, proposed_images: { where: { status: { in: ["pending", "approved"] } }, select: { proposed_image_url: true } } },
  });

  const skipped: { variant_id: string; variant_title: string; reason: string }[] = [];
  const wanted: { variant: (typeof variants)[number]; sourceUrl: string }[] = [];
  for (const v of variants) {
    const opts = asOptions(v.selectedOptions).map((o) => o.value);
    const sku =
      item.skus.find((s) => s.id === v.taobao_sku_id) ??
      item.skus.find((s) => v.sku === `TB-${item.id}-${s.id}`) ??
      item.skus.find((s) => s.values.length > 0 && s.values.every((x) => opts.includes(x.value)));
    if (!sku) {
      skipped.push({ variant_id: v.id, variant_title: v.title, reason: "No SKU of the Taobao item matches this variant" });
      continue;
    }
    const url = skuImage(item, sku);
    if (!url) {
      skipped.push({ variant_id: v.id, variant_title: v.title, reason: `The Taobao SKU ${sku.id} has no image` });
      continue;
    }
    wanted.push({ variant: v, sourceUrl: url });
  }

  // Each distinct source image once; a failing one skips only the variants that wanted it.
  const stored = new Map<string, { url: string } | { error: string }>();
  for (const sourceUrl of new Set(wanted.map((w) => w.sourceUrl))) {
    try {
      const run = await storeImages(ctx, [{ url: sourceUrl, role: "sku" }], { concurrency: 1 });
      stored.set(sourceUrl, { url: run.byUrl.get(sourceUrl)!.url });
    } catch (e) {
      stored.set(sourceUrl, { error: e instanceof Error ? e.message : String(e) });
    }
  }

  const createdIds: string[] = [];
  for (const w of wanted) {
    const s = stored.get(w.sourceUrl)!;
    const base = { variant_id: w.variant.id, variant_title: w.variant.title };
    if ("error" in s) skipped.push({ ...base, reason: `The SKU image could not be used: ${s.error}` });
    else if (w.variant.image_url === s.url) skipped.push({ ...base, reason: "The variant already shows this image" });
    else if (w.variant.proposed_images.some((p) => p.proposed_image_url === s.url)) skipped.push({ ...base, reason: "This image is already proposed (pending or approved) for the variant" });
    else {
      const row = await ctx.db.proposedVariantImage.create({
        data: { product_id: productId, variant_id: w.variant.id, current_image_url: w.variant.image_url, proposed_image_url: s.url, source: "taobao" },
        select: { id: true },
      });
      createdIds.push(row.id);
    }
  }
  const created = createdIds.length
    ? await ctx.db.proposedVariantImage.findMany({
        where: { id: { in: createdIds } },
        include: {
          product: { select: { id: true, title: true, handle: true, status: true, featuredImageUrl: true, featuredImageAltText: true } },
          variant: { select: { id: true, title: true, image_url: true, selectedOptions: true, color_hex: true, position: true } },
        },
        orderBy: [{ variant: { position: "asc" } }],
      })
    : [];
  ctx.log.info({ productId, taobaoId, created: created.length, skipped: skipped.length }, "taobao SKU images proposed");
  const order = new Map(variants.map((v, i) => [v.id, i]));
  skipped.sort((a, b) => order.get(a.variant_id)! - order.get(b.variant_id)!);
  return { product_id: productId, taobao_id: taobaoId, created: created.map(toProposal), skipped };
}
