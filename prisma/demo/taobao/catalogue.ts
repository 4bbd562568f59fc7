/**
 * The demo Taobao catalogue: realistic Taobao-shaped items (the `item_get` wire shape: `num_iid`,
 * `props_list`, `skus.sku[].properties_name`, `prop_imgs`, `orginal_price`…) from six shops, with
 * Chinese titles and SKU property names (颜色分类, 尺码, 尺寸, 款式), several colour and size layouts
 * (letter sizes, "2XL", "S（建议90-110斤）", height codes "170/88A(L)", waist sizes "29码", EU tailoring
 * sizes, one size 均码, a third property, items without a colour property), prices in CNY, stock,
 * materials (材质成分), and images the local source renders on this machine (./images.server.ts):
 * garment fronts per colour, backs, close-ups and size charts, with duplicates by URL and by
 * content as real listings have. A few items are broken on purpose to exercise the import's error
 * paths (see BROKEN below).
 *
 * Deterministic: `items.json` beside this file is `buildTaobaoDemoCatalogue()` written out
 * (`npx tsx prisma/demo/taobao/write-items.ts`; tests/unit/taobao-catalogue.test.ts checks they agree).
 * The import benchmark builds a bigger one with `count`.
 */
import { createHash } from "node:crypto";
import { COLOURS, GARMENTS, MATERIALS, type GarmentType } from "../catalog-data";
import type { GarmentKind, Pattern } from "../garment-svg";
import { Random } from "../prng";
import { COLOUR_TERMS, FIT_TERMS } from "../../../app/providers/taobao/glossary";

export type TaobaoDemoImage =
  | { kind: "garment"; garment: GarmentKind; hex: string; pattern: Pattern; view: "front" | "back" | "detail"; denim?: boolean }
  | { kind: "chart"; sizes: string[]; rows: number[][] }
  /** HTTP 404 */
  | { kind: "missing" }
  /** HTTP 200 with an HTML page (a CDN's error page) */
  | { kind: "html" }
  /** HTTP 200, JPEG magic bytes, then garbage */
  | { kind: "corrupt" }
  /** HTTP 503 for the first `failures` requests of a process, then the image */
  | { kind: "flaky"; failures: number; image: Extract<TaobaoDemoImage, { kind: "garment" }> };

export interface TaobaoDemoShop {
  shop_id: string;
  shop_title: string;
  seller_id: string;
  nick: string;
  gender: "menswear" | "womenswear" | "both";
  focus: string[];
  brand: string;
}

export interface TaobaoDemoCatalogue {
  /** Items per page of a shop (item_search_shop). */
  pageSize: number;
  shops: TaobaoDemoShop[];
  items: Record<string, unknown>[];
  images: Record<string, TaobaoDemoImage>;
  /** Broken item id → what is wrong with it (documentation for people and tests). */
  broken: Record<string, string>;
}

export const TAOBAO_DEMO_SHOPS: TaobaoDemoShop[] = [
  { shop_id: "106512345", shop_title: "北欧简约男装 NORTHWIND", seller_id: "2206512345678", nick: "northwind旗舰店", gender: "menswear", focus: ["shirt", "jacket", "t-shirt", "trousers", "coat"], brand: "NORTHWIND" },
  { shop_id: "107223344", shop_title: "Lumière 法式女装", seller_id: "2207223344556", nick: "lumiere法式女装", gender: "womenswear", focus: ["dress", "skirt", "blazer", "shirt", "cardigan"], brand: "LUMIÈRE" },
  { shop_id: "108990011", shop_title: "ATLAS STREET 潮牌街头", seller_id: "2208990011223", nick: "atlas潮牌", gender: "both", focus: ["hoodie", "t-shirt", "jeans", "jacket"], brand: "ATLAS" },
  { shop_id: "109334455", shop_title: "Tidewater 赤耳牛仔工坊", seller_id: "2209334455667", nick: "tidewater牛仔", gender: "menswear", focus: ["jeans", "jacket", "shirt", "shorts"], brand: "TIDEWATER" },
  { shop_id: "110556677", shop_title: "Ashgrove 羊绒针织", seller_id: "2210556677889", nick: "ashgrove针织", gender: "both", focus: ["sweater", "cardigan", "coat"], brand: "ASHGROVE" },
  { shop_id: "111778899", shop_title: "海边亚麻 Saltmarsh", seller_id: "2211778899001", nick: "saltmarsh亚麻", gender: "womenswear", focus: ["shirt", "dress", "trousers", "shorts"], brand: "SALTMARSH" },
];

const COLOUR_PID = "1627207";
const SIZE_PID = "20509";
const STYLE_PID = "122216343";

/** The first Chinese word for each catalogue colour name. */
const ZH_COLOUR = new Map<string, string>();
for (const t of COLOUR_TERMS) if (t.zh.length > 1 && !ZH_COLOUR.has(t.en)) ZH_COLOUR.set(t.en, t.zh);
const FIT_ZH = new Map(FIT_TERMS.map(([zh, en]) => [en, zh] as const));

const FIBRE_ZH: [RegExp, string][] = [
  [/cashmere/, "山羊绒"],
  [/mohair/, "马海毛"],
  [/alpaca/, "羊驼毛"],
  [/(merino|lambswool|wool)/, "羊毛"],
  [/silk/, "桑蚕丝"],
  [/linen/, "亚麻"],
  [/elastane/, "聚氨酯弹性纤维(氨纶)"],
  [/polyester/, "聚酯纤维"],
  [/(polyamide|nylon)/, "锦纶"],
  [/viscose/, "粘纤"],
  [/(cotton|denim|twill|poplin|piqué|chambray|flannel|corduroy|seersucker|canvas|gabardine|oxford|terry)/, "棉"],
];

/** "98% cotton, 2% elastane denim" → "棉98% 聚氨酯弹性纤维(氨纶)2%" */
export function compositionZh(english: string): string {
  const parts: string[] = [];
  for (const m of english.toLowerCase().matchAll(/(\d{1,3})%\s+([^,]+)/g)) {
    const zh = FIBRE_ZH.find(([re]) => re.test(m[2]))?.[1];
    if (zh) parts.push(`${zh}${m[1]}%`);
  }
  return parts.join(" ") || "棉100%";
}

const CARE_ZH: Record<string, string> = {
  "Machine wash cold, tumble dry low": "30度以下水洗 低温熨烫 不可漂白",
  "Hand wash or gentle machine wash, dry flat": "手洗 平铺晾干 不可漂白",
  "Dry clean only": "干洗 不可机洗",
  "Machine wash cold, line dry": "30度以下水洗 悬挂晾干",
};

const code = (seed: string, len = 10) => {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const h = createHash("sha1").update(seed).digest();
  let out = "";
  for (let i = 0; i < len; i++) out += alphabet[h[i] % alphabet.length];
  return out;
};

const imageUrl = (shop: TaobaoDemoShop, seed: string) => `https://img.alicdn.com/imgextra/i${(createHash("sha1").update(seed).digest()[0] % 4) + 1}/${shop.seller_id}/O1CN01${code(seed)}_!!${shop.seller_id}.jpg`;

type Layout = "letter" | "letter-notes" | "height" | "waist" | "one-size" | "size-only" | "three" | "eu";

const LETTER_ZH: Record<string, string[]> = {
  menswear: ["M", "L", "XL", "2XL", "3XL"],
  womenswear: ["XS", "S", "M", "L", "XL"],
  both: ["S", "M", "L", "XL", "2XL"],
};
const WEIGHT_HINTS: Record<string, string> = { XS: "建议80-95斤", S: "建议95-110斤", M: "建议110-125斤", L: "建议125-140斤", XL: "建议140-155斤", "2XL": "建议155-170斤", "3XL": "建议170-185斤" };
const HEIGHT_ROWS: [string, string][] = [
  ["160/84A", "S"],
  ["165/88A", "M"],
  ["170/92A", "L"],
  ["175/96A", "XL"],
  ["180/100A", "XXL"],
];
const WAIST = ["28", "29", "30", "31", "32", "33", "34", "36"];
const EU = ["44", "46", "48", "50", "52"];

function layoutFor(type: GarmentType, i: number): Layout {
  if (type.key === "jeans" || (type.key === "trousers" && i % 2 === 0)) return "waist";
  if (type.key === "blazer") return "eu";
  const cycle: Layout[] = ["letter", "letter-notes", "height", "one-size", "size-only", "three", "letter"];
  const l = cycle[i % cycle.length];
  if (l === "one-size" && !["sweater", "cardigan", "hoodie", "t-shirt"].includes(type.key)) return "letter";
  if (l === "three" && !["hoodie", "trousers", "t-shirt", "shirt", "jeans"].includes(type.key)) return "letter-notes";
  return l;
}

interface Built {
  item: Record<string, unknown>;
  images: Record<string, TaobaoDemoImage>;
}

function buildItem(rng: Random, id: string, shop: TaobaoDemoShop, type: GarmentType, layoutIndex: number, opts: { withSkuImages: boolean }): Built {
  const images: Record<string, TaobaoDemoImage> = {};
  const gender = shop.gender;
  const materialKey = rng.pick(type.materials);
  const material = MATERIALS[materialKey];
  const fit = rng.pick(type.fits);
  const patternOptions = (Object.entries(type.patterns) as [Exclude<Pattern, "solid">, number][]).filter(([, p]) => p > 0);
  const pattern: Pattern = patternOptions.length && rng.chance(0.18) ? rng.pick(patternOptions)[0] : "solid";
  const denim = type.key === "jeans" || materialKey.includes("Denim");
  const layout = layoutFor(type, layoutIndex);
  const colourNames = layout === "size-only" ? [rng.pick(type.colours)] : rng.sample(type.colours, rng.int(2, 4));
  const colours = colourNames.map((n) => COLOURS[n]).filter(Boolean);

  const genderZh = gender === "menswear" ? rng.pick(["男士", "男装", "男"]) : gender === "womenswear" ? rng.pick(["女士", "女装", "女"]) : rng.pick(["男女同款", "情侣款", "中性"]);
  const season = rng.pick(["2026秋冬新款", "2026春夏新款", "新款", "ins风", "日系", "韩版", "简约", "复古"]);
  const patternZh = pattern === "stripes" ? "条纹" : pattern === "check" ? "格纹" : pattern === "dots" ? "波点" : "";
  const fitZh = FIT_ZH.get(fit) ?? "";
  const suffix = rng.pick(["百搭", "潮流", "简约百搭", "包邮", "显瘦", "高级感", "ins潮", ""]);
  const title = `${season}${genderZh}${patternZh}${fitZh}${material.zh}${type.zh}${suffix ? ` ${suffix}` : ""}`;

  // Price in CNY: Taobao sells for about a third of the catalogue's USD figure times seven.
  const base = Math.round(rng.float(type.price[0], type.price[1]) * 2.2) + 0.0;
  const price = Math.max(29, base - (base % 10) + 9);

  // Images: a front per colour (the SKU image), a back and a close-up of the first colour.
  const frontUrl = new Map<string, string>();
  for (const c of colours) {
    const url = imageUrl(shop, `${id}:front:${c.name}`);
    frontUrl.set(c.name, url);
    images[url] = { kind: "garment", garment: type.kind, hex: c.hex, pattern, view: "front", ...(denim ? { denim: true } : {}) };
  }
  const first = colours[0];
  const back = imageUrl(shop, `${id}:back`);
  images[back] = { kind: "garment", garment: type.kind, hex: first.hex, pattern, view: "back", ...(denim ? { denim: true } : {}) };
  const detail = imageUrl(shop, `${id}:detail`);
  images[detail] = { kind: "garment", garment: type.kind, hex: first.hex, pattern, view: "detail", ...(denim ? { denim: true } : {}) };
  // The same picture under a second address (shops re-upload): de-duplicated by content.
  const reupload = imageUrl(shop, `${id}:front-again`);
  images[reupload] = { ...(images[frontUrl.get(first.name)!] as object) } as TaobaoDemoImage;

  // SKU properties and values.
  const props_list: Record<string, string> = {};
  const colourValues = layout === "size-only" ? [] : colours.map((c, i) => {
    const zh = ZH_COLOUR.get(c.name) ?? c.name;
    const vid = String(28320 + ((COLOUR_TERMS.findIndex((t) => t.en === c.name) + 1) * 7 + i) * 3);
    const decorated = i === 1 && rng.chance(0.4) ? `A款-${zh}` : i === 2 && rng.chance(0.5) ? `${zh}【现货】` : zh;
    props_list[`${COLOUR_PID}:${vid}`] = `颜色分类:${decorated}`;
    return { vid, colour: c, name: decorated };
  });
  let sizeNames: string[];
  let sizeProperty = "尺码";
  switch (layout) {
    case "letter":
      sizeNames = LETTER_ZH[gender];
      break;
    case "letter-notes":
      sizeNames = LETTER_ZH[gender].map((s) => `${s}（${WEIGHT_HINTS[s] ?? "建议咨询客服"}）`);
      break;
    case "height":
      sizeNames = HEIGHT_ROWS.map(([h, l], i) => (i % 2 === 0 ? `${h}(${l})` : h));
      break;
    case "waist":
      sizeNames = WAIST.slice(gender === "womenswear" ? 0 : 1, gender === "womenswear" ? 6 : 8).map((w, i) => (i % 3 === 0 ? `${w}码` : w));
      break;
    case "one-size":
      sizeNames = ["均码"];
      break;
    case "size-only":
      sizeProperty = "尺寸";
      sizeNames = LETTER_ZH[gender].slice(0, 4).map((s) => `${s}码`);
      break;
    case "three":
      sizeNames = LETTER_ZH[gender].slice(0, 4);
      break;
    case "eu":
      sizeNames = EU.slice(gender === "womenswear" ? 0 : 1);
      break;
  }
  const sizeValues = sizeNames.map((name, i) => {
    const vid = String(28313 + i * 2 + (layout === "waist" ? 100 : layout === "eu" ? 200 : 0));
    props_list[`${SIZE_PID}:${vid}`] = `${sizeProperty}:${name}`;
    return { vid, name };
  });
  const styleValues =
    layout === "three"
      ? ["常规款", "加绒款"].map((name, i) => {
          const vid = String(3267930 + i);
          props_list[`${STYLE_PID}:${vid}`] = `款式:${name}`;
          return { vid, name };
        })
      : [];

  const skus: Record<string, unknown>[] = [];
  let skuSeq = 0;
  const colourAxis = colourValues.length ? colourValues : [null];
  const styleAxis = styleValues.length ? styleValues : [null];
  for (const c of colourAxis) {
    for (const [si, s] of sizeValues.entries()) {
      for (const st of styleAxis) {
        skuSeq++;
        // Real listings leave a few combinations out.
        if (skus.length > 0 && rng.chance(0.07)) continue;
        const parts = [c ? [COLOUR_PID, c.vid, "颜色分类", c.name] : null, [SIZE_PID, s.vid, sizeProperty, s.name], st ? [STYLE_PID, st.vid, "款式", st.name] : null].filter(Boolean) as string[][];
        const skuPrice = price + (si >= 4 ? 10 : 0) + (st?.name === "加绒款" ? 20 : 0);
        skus.push({
          sku_id: String(BigInt(5_012_000_000_000) + BigInt(Number(id.slice(-6)) * 100 + skuSeq)),
          price: skuPrice.toFixed(2),
          orginal_price: (skuPrice * 1.6 - ((skuPrice * 1.6) % 10) + 9).toFixed(2),
          properties: parts.map((p) => `${p[0]}:${p[1]}`).join(";"),
          properties_name: parts.map((p) => p.join(":")).join(";"),
          quantity: String(rng.chance(0.12) ? 0 : rng.int(3, 480)),
        });
      }
    }
  }
  const total = skus.reduce((n, s) => n + Number(s.quantity), 0);

  // Size chart and description.
  const chartSizes = sizeValues.map((s) => s.name.replace(/（.*|\(.*|码$/g, ""));
  const chart = imageUrl(shop, `${id}:chart`);
  images[chart] = { kind: "chart", sizes: chartSizes, rows: chartSizes.map((_, i) => [66 + i * 2, 100 + i * 4, 44 + i * 1.5, 60 + i]) };
  const composition = compositionZh(material.composition);
  const care = CARE_ZH[material.care] ?? "30度以下水洗";
  const desc =
    `<p>${title}</p>` +
    `<p>面料：${material.zh}，${composition}</p>` +
    `<p>版型：${fitZh || "常规"}　厚薄：${rng.pick(["常规", "适中", "加厚", "薄款"])}</p>` +
    `<p>洗涤：${care}</p>` +
    `<p><img src="${chart}"/></p><p><img src="${detail}"/></p>`;
  const prop_imgs = opts.withSkuImages ? colourValues.map((c) => ({ properties: `${COLOUR_PID}:${c.vid}`, url: frontUrl.get(c.colour.name)! })) : [];
  const pic = frontUrl.get(first.name)!;
  const item_imgs = [pic, back, detail, reupload, ...(colours[1] ? [frontUrl.get(colours[1].name)!] : [])].map((url) => ({ url }));

  return {
    item: {
      num_iid: id,
      title,
      detail_url: `https://item.taobao.com/item.htm?id=${id}`,
      pic_url: pic.replace(/^https:/, ""),
      price: price.toFixed(2),
      orginal_price: (price * 1.6 - ((price * 1.6) % 10) + 9).toFixed(2),
      num: total,
      nick: shop.nick,
      seller_id: shop.seller_id,
      shop_id: shop.shop_id,
      shop_title: shop.shop_title,
      cid: String(50000436 + GARMENTS.indexOf(type)),
      brand: shop.brand,
      desc,
      desc_img: [chart, detail],
      item_imgs,
      props: [
        { name: "品牌", value: shop.brand },
        { name: "货号", value: `${shop.brand.slice(0, 2)}-2026-${id.slice(-4)}` },
        { name: "材质成分", value: composition },
        { name: "适用性别", value: gender === "menswear" ? "男" : gender === "womenswear" ? "女" : "男女通用" },
        { name: "适用季节", value: season.includes("春夏") ? "春夏" : "秋冬" },
        { name: "风格", value: rng.pick(["通勤", "街头", "日系", "简约", "复古", "法式"]) },
        { name: "洗涤说明", value: care },
      ],
      props_list,
      prop_imgs: { prop_img: prop_imgs },
      skus: { sku: skus },
    },
    images,
  };
}

/** Item ids of the broken items, with what is wrong (the import reports each as a job error). */
export const BROKEN: Record<string, string> = {
  "799000000101": "missing fields: no title and no main picture (pic_url)",
  "799000000102": "no SKUs: nothing to sell",
  "799000000103": "a price of zero",
  "799000000104": "the main picture answers HTTP 404",
  "799000000105": "an item image is an HTML page, not an image",
  "799000000106": "an item image is a damaged JPEG",
  "799000000107": "a SKU names a property value props_list does not describe",
  "799000000108": "the main picture fails twice with HTTP 503, then loads (a retry succeeds)",
};

/** `count` good items (default 56) plus the broken ones (unless `broken: false`); `idBase` moves the item ids (the benchmark imports new items per run). */
export function buildTaobaoDemoCatalogue(opts: { count?: number; seed?: number; broken?: boolean; idBase?: number } = {}): TaobaoDemoCatalogue {
  const count = opts.count ?? 56;
  const rng = new Random(opts.seed ?? 7_2026);
  const items: Record<string, unknown>[] = [];
  const images: Record<string, TaobaoDemoImage> = {};
  const byKey = new Map(GARMENTS.map((g) => [g.key, g]));
  for (let i = 0; i < count; i++) {
    // One shop in four has twice the items (shop pages 2 and 3 exist).
    const shop = TAOBAO_DEMO_SHOPS[i % 8 < 6 ? i % 8 : i % 2 === 0 ? 0 : 2];
    const type = byKey.get(shop.focus[Math.floor(i / 8) % shop.focus.length])!;
    const id = String((opts.idBase ?? 720_394_000_000) + i * 7_919 + 1_000);
    const built = buildItem(rng, id, shop, type, i, { withSkuImages: i % 5 !== 4 });
    items.push(built.item);
    Object.assign(images, built.images);
  }
  const broken: Record<string, string> = {};
  if (opts.broken !== false) {
    const shop = TAOBAO_DEMO_SHOPS[2];
    const type = byKey.get("t-shirt")!;
    const make = (id: string, n: number) => {
      const b = buildItem(new Random(900 + n), id, shop, type, n, { withSkuImages: true });
      Object.assign(images, b.images);
      return b;
    };
    for (const [n, id] of Object.keys(BROKEN).entries()) {
      const b = make(id, n);
      const it = b.item as Record<string, any>;
      switch (id) {
        case "799000000101":
          delete it.title;
          delete it.pic_url;
          break;
        case "799000000102":
          it.skus = { sku: [] };
          it.props_list = {};
          it.prop_imgs = { prop_img: [] };
          break;
        case "799000000103":
          it.price = "0.00";
          for (const s of it.skus.sku) s.price = "0.00";
          break;
        case "799000000104": {
          const url = imageUrl(shop, `${id}:gone`);
          images[url] = { kind: "missing" };
          it.pic_url = url;
          break;
        }
        case "799000000105": {
          const url = imageUrl(shop, `${id}:html`);
          images[url] = { kind: "html" };
          it.item_imgs = [...it.item_imgs, { url }];
          break;
        }
        case "799000000106": {
          const url = imageUrl(shop, `${id}:corrupt`);
          images[url] = { kind: "corrupt" };
          it.item_imgs = [{ url }, ...it.item_imgs];
          break;
        }
        case "799000000107": {
          const first = Object.keys(it.props_list).find((k) => k.startsWith(`${SIZE_PID}:`))!;
          delete it.props_list[first];
          for (const s of it.skus.sku) s.properties_name = String(s.properties_name).split(";").filter((p: string) => !p.startsWith(first)).join(";");
          break;
        }
        case "799000000108": {
          const url = imageUrl(shop, `${id}:flaky`);
          const original = images[`https:${it.pic_url}`] ?? images[it.pic_url];
          images[url] = { kind: "flaky", failures: 2, image: original as Extract<TaobaoDemoImage, { kind: "garment" }> };
          it.pic_url = url;
          break;
        }
      }
      items.push(it);
      broken[id] = BROKEN[id];
    }
  }
  return { pageSize: 10, shops: TAOBAO_DEMO_SHOPS, items, images, broken };
}
