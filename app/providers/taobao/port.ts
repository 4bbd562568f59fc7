/**
 * The Taobao source port: where imported products come from. Two adapters implement it:
 * - `local` (the embedded default): a catalogue of Taobao-shaped items shipped with the demo data
 *   (prisma/demo/taobao/items.json), images rendered on this machine;
 * - `http`: an item API configured by TAOBAO_API_URL and TAOBAO_API_KEY (request shapes in the
 *   README, "Taobao import"), with timeouts, retries and a rate limit.
 *
 * Both answer items in the wire shape of the common Taobao item APIs (`item_get`: `num_iid`,
 * `props_list`, `skus.sku[].properties`, the famous `orginal_price` spelling…), validated here with
 * zod and turned into one clean `TaobaoItem` the import pipeline maps to a product.
 */
import { z } from "zod";

// ---------------------------------------------------------------------------------------------
// Errors

export type TaobaoErrorCode =
  /** No item with this id (deleted, off the shelf, never existed). */
  | "not_found"
  /** The item came back without fields the import needs, or malformed. */
  | "invalid_item"
  /** The source did not answer (timeout, 5xx, connection refused): worth retrying. */
  | "unavailable"
  /** The source limited us (429): worth retrying later. */
  | "rate_limited"
  /** An image could not be downloaded (HTTP error, timeout). */
  | "image_failed"
  /** What came back for an image is not an image (HTML, text, a damaged file). */
  | "not_an_image"
  /** The source refused our key. */
  | "unauthorised";

export class TaobaoSourceError extends Error {
  constructor(
    readonly code: TaobaoErrorCode,
    message: string,
    readonly opts: { retryable?: boolean; status?: number; retryAfterMs?: number; detail?: string } = {},
  ) {
    super(message);
    this.name = "TaobaoSourceError";
  }
  get retryable(): boolean {
    return this.opts.retryable ?? (this.code === "unavailable" || this.code === "rate_limited");
  }
}

// ---------------------------------------------------------------------------------------------
// The wire shape (item_get), lenient where real APIs are inconsistent

const num = z.union([z.number(), z.string().trim()]).transform((v, ctx) => {
  if (v === "") return 0;
  const n = Number(v);
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: "custom", message: `"${v}" is not a number` });
    return z.NEVER;
  }
  return n;
});
const text = z.union([z.string(), z.number()]).transform((v) => String(v).trim());
const url = z
  .string()
  .trim()
  .min(1)
  .transform((u) => (u.startsWith("//") ? `https:${u}` : u));

export const TaobaoWireSku = z.object({
  sku_id: text,
  price: num,
  orginal_price: num.optional(),
  /** "1627207:28341;20509:28315" */
  properties: z.string().trim().default(""),
  /** "1627207:28341:颜色分类:黑色;20509:28315:尺码:M" */
  properties_name: z.string().trim().default(""),
  quantity: num.default(0),
});

export const TaobaoWireItem = z.object({
  num_iid: text.refine((v) => v !== "", "num_iid is empty"),
  title: z.string().trim().min(1, "title is empty"),
  detail_url: z.string().trim().optional(),
  pic_url: url,
  price: num,
  orginal_price: num.optional(),
  num: num.default(0),
  nick: z.string().trim().min(1, "nick (the shop) is empty"),
  seller_id: text.optional(),
  shop_id: text.optional(),
  shop_title: z.string().trim().optional(),
  cid: text.optional(),
  brand: z.string().trim().optional(),
  desc: z.string().default(""),
  desc_img: z.array(url).default([]),
  item_imgs: z.array(z.object({ url })).default([]),
  props: z.array(z.object({ name: z.string().trim(), value: z.string().trim() })).default([]),
  /** "pid:vid" → "属性名:属性值" */
  props_list: z.record(z.string(), z.string()).default({}),
  prop_imgs: z.object({ prop_img: z.array(z.object({ properties: z.string().trim(), url })).default([]) }).default({ prop_img: [] }),
  skus: z.object({ sku: z.array(TaobaoWireSku).default([]) }).default({ sku: [] }),
});
export type TaobaoWireItem = z.input<typeof TaobaoWireItem>;

/** A page of a shop's items (`item_search_shop`). */
export const TaobaoWireShopPage = z.object({
  shop_id: text,
  shop_title: z.string().trim().default(""),
  page: num,
  page_count: num,
  total_results: num.default(0),
  items: z.array(z.object({ num_iid: text, title: z.string().default("") })),
});

// ---------------------------------------------------------------------------------------------
// The clean item

export interface TaobaoSkuPropertyValue {
  vid: string;
  /** The value as the shop wrote it: "黑色", "XL", "A款-奶油白". */
  name: string;
  /** The SKU image of this value (colour swatches), when the shop gave one. */
  imageUrl: string | null;
}

export interface TaobaoSkuProperty {
  pid: string;
  /** "颜色分类", "尺码", "尺寸", "鞋码"… */
  name: string;
  values: TaobaoSkuPropertyValue[];
}

export interface TaobaoSku {
  id: string;
  priceCny: number;
  originalPriceCny: number | null;
  quantity: number;
  /** One value per SKU property, in the properties' order. */
  values: { pid: string; vid: string; property: string; value: string }[];
}

export interface TaobaoItem {
  id: string;
  title: string;
  url: string;
  priceCny: number;
  originalPriceCny: number | null;
  stock: number;
  shop: { id: string | null; name: string; sellerId: string | null };
  categoryId: string | null;
  brand: string | null;
  /** The main images, the first being the item's picture; de-duplicated by URL. */
  images: string[];
  /** Images of the detail page (desc_img and the <img> of desc). */
  detailImages: string[];
  /** The detail text with tags and images taken out. */
  descriptionText: string;
  /** Item attributes: 材质成分, 适用性别, 风格, 季节… */
  attributes: { name: string; value: string }[];
  skuProperties: TaobaoSkuProperty[];
  skus: TaobaoSku[];
}

export interface TaobaoShopPage {
  shopId: string;
  shopName: string;
  page: number;
  pageCount: number;
  total: number;
  itemIds: string[];
}

export interface TaobaoImage {
  bytes: Uint8Array;
  /** As the source declared it (not trusted: the pipeline sniffs the bytes). */
  contentType: string;
}

export interface TaobaoSourcePort {
  readonly kind: "local" | "http";
  /** The item, validated; TaobaoSourceError `not_found`, `invalid_item`, `unavailable`, `rate_limited`. */
  getItem(id: string): Promise<TaobaoItem>;
  /** One page (from 1) of a shop's items. */
  listShopItems(shopId: string, page: number): Promise<TaobaoShopPage>;
  /** An image of an item; TaobaoSourceError `image_failed` (retryable when transient). */
  fetchImage(url: string): Promise<TaobaoImage>;
}

// ---------------------------------------------------------------------------------------------
// Parsing

function issuesText(e: z.ZodError): string {
  const missing = new Set<string>();
  const other: string[] = [];
  for (const i of e.issues) {
    const path = i.path.join(".") || "item";
    if (i.code === "invalid_type" && (i as { input?: unknown }).input === undefined) missing.add(path);
    else other.push(`${path}: ${i.message}`);
  }
  return [missing.size ? `missing ${[...missing].join(", ")}` : "", ...other].filter(Boolean).join("; ");
}

const IMG_SRC = /<img\b[^>]*?\bsrc\s*=\s*["']([^"']+)["']/gi;

function descriptionText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6])\s*\/?>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n");
}

/** Validates an item_get answer and turns it into a TaobaoItem; TaobaoSourceError `invalid_item` naming the fields. */
export function parseTaobaoItem(raw: unknown, requestedId?: string): TaobaoItem {
  const r = TaobaoWireItem.safeParse(raw);
  if (!r.success) {
    throw new TaobaoSourceError("invalid_item", `The Taobao item is incomplete: ${issuesText(r.error)}`, { detail: requestedId });
  }
  const w = r.data;
  const images = [...new Set([w.pic_url, ...w.item_imgs.map((i) => i.url)])];
  const descImgs = [...w.desc.matchAll(IMG_SRC)].map((m) => (m[1].startsWith("//") ? `https:${m[1]}` : m[1]));
  const detailImages = [...new Set([...w.desc_img, ...descImgs])].filter((u) => !images.includes(u));

  // SKU properties from props_list ("pid:vid" → "name:value"), in first-seen order of the SKUs.
  const props = new Map<string, TaobaoSkuProperty>();
  const propImg = new Map(w.prop_imgs.prop_img.map((p) => [p.properties, p.url]));
  const valueOf = (pid: string, vid: string, fallbackName?: string, fallbackValue?: string) => {
    const listed = w.props_list[`${pid}:${vid}`];
    const [name, ...rest] = (listed ?? "").split(":");
    const prop = name && rest.length ? { name: name.trim(), value: rest.join(":").trim() } : fallbackName && fallbackValue ? { name: fallbackName, value: fallbackValue } : null;
    if (!prop) return null;
    let p = props.get(pid);
    if (!p) {
      p = { pid, name: prop.name, values: [] };
      props.set(pid, p);
    }
    if (!p.values.some((v) => v.vid === vid)) p.values.push({ vid, name: prop.value, imageUrl: propImg.get(`${pid}:${vid}`) ?? null });
    return { pid, vid, property: p.name, value: prop.value };
  };
  // props_list order first (the shop's order of values), then whatever SKUs add.
  for (const key of Object.keys(w.props_list)) {
    const [pid, vid] = key.split(":");
    if (pid && vid) valueOf(pid, vid);
  }
  const skus: TaobaoSku[] = [];
  const problems: string[] = [];
  for (const s of w.skus.sku) {
    const named = new Map<string, { name: string; value: string }>();
    for (const part of s.properties_name.split(";").filter(Boolean)) {
      const [pid, vid, name, ...value] = part.split(":");
      if (pid && vid && name && value.length) named.set(`${pid}:${vid}`, { name, value: value.join(":") });
    }
    const values = [];
    for (const pair of s.properties.split(";").filter(Boolean)) {
      const [pid, vid] = pair.split(":");
      const n = named.get(pair);
      const v = pid && vid ? valueOf(pid, vid, n?.name, n?.value) : null;
      if (!v) {
        problems.push(`SKU ${s.sku_id} names property ${pair}, which props_list does not describe`);
        continue;
      }
      values.push(v);
    }
    skus.push({ id: s.sku_id, priceCny: s.price, originalPriceCny: s.orginal_price ?? null, quantity: Math.max(0, Math.floor(s.quantity)), values });
  }
  if (problems.length) throw new TaobaoSourceError("invalid_item", "The Taobao item is incomplete: a SKU names a property value that props_list does not describe", { detail: problems.slice(0, 3).join("; ") });

  return {
    id: w.num_iid,
    title: w.title,
    url: w.detail_url || `https://item.taobao.com/item.htm?id=${w.num_iid}`,
    priceCny: w.price,
    originalPriceCny: w.orginal_price ?? null,
    stock: Math.max(0, Math.floor(w.num)),
    shop: { id: w.shop_id ?? null, name: w.shop_title || w.nick, sellerId: w.seller_id ?? null },
    categoryId: w.cid ?? null,
    brand: w.brand || null,
    images,
    detailImages,
    descriptionText: descriptionText(w.desc),
    attributes: w.props.filter((p) => p.name && p.value),
    skuProperties: [...props.values()],
    skus,
  };
}

export function parseShopPage(raw: unknown): TaobaoShopPage {
  const r = TaobaoWireShopPage.safeParse(raw);
  if (!r.success) throw new TaobaoSourceError("invalid_item", `The shop page answer is malformed: ${issuesText(r.error)}`);
  return {
    shopId: r.data.shop_id,
    shopName: r.data.shop_title,
    page: r.data.page,
    pageCount: r.data.page_count,
    total: r.data.total_results,
    itemIds: r.data.items.map((i) => i.num_iid),
  };
}

// ---------------------------------------------------------------------------------------------
// What an admin types: an item id, an item URL, or a shop

export type TaobaoReference = { kind: "item"; id: string } | { kind: "shop"; shopId: string; page: number };

/**
 * Reads one reference: `720394857362`, `https://item.taobao.com/item.htm?id=720394857362`
 * (also detail.tmall.com, m.intl.taobao.com `?id=`), `shop:106512345`, `shop:106512345?page=2`, or
 * `https://shop106512345.taobao.com` (page 1, or `?page=`). Null when it is none of these.
 */
export function parseTaobaoReference(input: string): TaobaoReference | null {
  const v = input.trim();
  if (/^\d{5,20}$/.test(v)) return { kind: "item", id: v };
  const shop = /^shop:(\d{3,20})(?:[?&]page=(\d{1,4}))?$/i.exec(v);
  if (shop) return { kind: "shop", shopId: shop[1], page: Math.max(1, Number(shop[2] ?? 1)) };
  let u: URL;
  try {
    u = new URL(/^[a-z]+:\/\//i.test(v) ? v : `https://${v}`);
  } catch {
    return null;
  }
  const host = u.hostname.toLowerCase();
  if (!/(^|\.)(taobao|tmall)\.com$/.test(host)) return null;
  const shopHost = /^shop(\d{3,20})\.(taobao|tmall)\.com$/.exec(host);
  if (shopHost) return { kind: "shop", shopId: shopHost[1], page: Math.max(1, Number(u.searchParams.get("page") ?? 1) || 1) };
  const shopParam = u.searchParams.get("shop_id");
  if (shopParam && /^\d{3,20}$/.test(shopParam) && !u.searchParams.get("id")) return { kind: "shop", shopId: shopParam, page: Math.max(1, Number(u.searchParams.get("page") ?? 1) || 1) };
  const id = u.searchParams.get("id");
  if (id && /^\d{5,20}$/.test(id)) return { kind: "item", id };
  return null;
}
