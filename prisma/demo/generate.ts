/**
 * Builds every row of the demo data in memory, deterministically: seeded PRNGs (one per section,
 * so sections do not shift each other), a fixed base date and ids derived from counters or hashes.
 * Nothing here touches the database or the disk; ./seed-demo.server.ts writes the rows.
 */
import type { Prisma } from "@prisma/client";
import { PermissionNames } from "../../app/contract/permissions";
import { Random, demoUuid, slugify, weightedPicker } from "./prng";
import type { Pattern } from "./garment-svg";
import { DEMO_URL_PREFIX, garmentImageJob, storeLogoJob, type ImageJob } from "./images.server";
import {
  CITIES,
  COLLECTIONS,
  COLOURS,
  FIRST_NAMES,
  FIT_REMARKS,
  FIT_ZH,
  GARMENTS,
  INTERESTS,
  LAST_NAMES,
  MATERIALS,
  PATTERN_COLOURS,
  PATTERN_WORD,
  PATTERN_ZH,
  REVIEW_BODIES,
  REVIEW_TITLES,
  STORES,
  STREETS,
  STYLES,
  VENDORS,
  type Colour,
  type Gender,
  type GarmentType,
  type Material,
  type StoreDef,
} from "./catalog-data";

/** Every timestamp is relative to this instant. */
export const BASE_DATE = new Date("2026-11-01T00:00:00Z");
const BASE = BASE_DATE.getTime();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const PRODUCT_COUNT = 640;
export const SHOPPER_COUNT = 40;
export const ORDER_COUNT = 150;
export const REVIEW_TARGET = 500;
export const RANDOM_VIEW_EVENTS = 3600;
export const BROWSE_SESSIONS = 520;

export const DEMO_EMAIL_DOMAIN = "demo.local";
export const DEMO_PASSWORD = "demo-password";

/** Seconds precision keeps timestamps readable and stable. */
const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);
const daysAgo = (d: number) => at(BASE - d * DAY);
const clampPast = (ms: number) => at(Math.min(ms, BASE - 5 * MINUTE));
const money = (n: number) => n.toFixed(2);
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const productGid = (n: number) => `gid://shopify/Product/${1000 + n}`;
export const demoUserId = (key: string) => demoUuid("user", key);

// ---------------------------------------------------------------------------------------------
// Intermediate model (kept for the later sections: orders, reviews, collections)

interface VariantInfo {
  id: string;
  title: string;
  colour: Colour;
  size: string;
  price: number;
  sku: string;
  imageUrl: string;
  available: boolean;
}

interface ProductInfo {
  n: number;
  id: string;
  title: string;
  gender: Gender;
  type: GarmentType;
  fit: string;
  material: Material;
  pattern: Pattern;
  colours: Colour[];
  store: StoreDef;
  storeId: string;
  vendorId: string;
  companionId: string;
  tags: string[];
  featuredImageUrl: string;
  available: boolean;
  variants: VariantInfo[];
  imageByColour: Map<string, string>;
}

export interface DemoRows {
  vendors: Prisma.VendorCreateManyInput[];
  users: Prisma.UserCreateManyInput[];
  stores: Prisma.StoreCreateManyInput[];
  products: Prisma.ProductCreateManyInput[];
  options: Prisma.ProductOptionCreateManyInput[];
  variants: Prisma.ProductVariantCreateManyInput[];
  images: Prisma.ProductImageCreateManyInput[];
  companions: Prisma.ProductCompanionCreateManyInput[];
  featured: Prisma.StoreFeaturedProductCreateManyInput[];
  collections: Prisma.CollectionCreateManyInput[];
  collectionProducts: Prisma.CollectionProductCreateManyInput[];
  styles: Prisma.StyleCreateManyInput[];
  styleProducts: Prisma.StyleProductCreateManyInput[];
  orders: Prisma.OrderCreateManyInput[];
  orderItems: Prisma.OrderItemCreateManyInput[];
  purchaseEvents: Prisma.ProductPurchaseEventCreateManyInput[];
  viewEvents: Prisma.ProductViewEventCreateManyInput[];
  reviews: Prisma.ReviewCreateManyInput[];
  summaries: Prisma.ReviewRatingSummaryCreateManyInput[];
  savedProducts: Prisma.SavedProductCreateManyInput[];
  favoriteStores: Prisma.UserFavoriteStoreCreateManyInput[];
  imageJobs: ImageJob[];
}

/** Ids of every demo user and vendor (used to wipe them before re-seeding). */
export function demoIdentityIds(): { userIds: string[]; vendorIds: string[]; vendorHandles: string[] } {
  const userIds = ["admin", "vendor", "shopper", ...Array.from({ length: SHOPPER_COUNT }, (_, i) => `shopper-${i + 1}`)].map(demoUserId);
  return { userIds, vendorIds: VENDORS.map((v) => demoUuid("vendor", v.key)), vendorHandles: VENDORS.map((v) => v.handle) };
}

// ---------------------------------------------------------------------------------------------
// Text helpers

const DETAIL_SENTENCE: Record<string, string> = {
  tshirt: "Finished with a ribbed crew neck, dropped shoulders and a clean straight hem.",
  polo: "It has a flat-knit collar, a three-button placket and ribbed sleeve cuffs.",
  shirt: "It has a soft collar, a single chest pocket and a curved hem that works tucked or untucked.",
  hoodie: "Details include a lined hood with flat drawcords, a kangaroo pocket and ribbed cuffs and hem.",
  sweater: "Knitted with a ribbed crew neck, cuffs and hem that keep their shape wash after wash.",
  cardigan: "It has a ribbed button band, two patch pockets and horn-effect buttons.",
  jacket: "It has a stand collar, a two-way zip, flap chest pockets and ribbed trims.",
  coat: "It has peak lapels, a double-breasted front, a removable belt and flap pockets.",
  blazer: "Half-lined, with notch lapels, a two-button front, flap pockets and working cuff buttons.",
  jeans: "Five-pocket construction with a button fly, copper rivets and contrast topstitching.",
  trousers: "They have a hook-and-bar waistband, slanted side pockets and a pressed crease.",
  shorts: "They have belt loops, slanted pockets and neatly turned-up hems.",
  dress: "It has a fitted bodice, a self-tie waist belt and a skirt that moves beautifully.",
  skirt: "It sits on the natural waist, with a buttoned waistband and pleats that swing as you walk.",
};

const PAIRING: Record<string, string> = {
  top: "straight-leg jeans or pleated trousers",
  outer: "a fine-knit sweater and relaxed denim",
  bottom: "a crisp shirt or a fine-knit sweater",
  dress: "sandals in summer or boots and a chunky cardigan when it cools",
};

function pairingFor(t: GarmentType): string {
  if (t.kind === "dress") return PAIRING.dress;
  if (["jacket", "coat", "blazer"].includes(t.kind)) return PAIRING.outer;
  return t.top ? PAIRING.top : PAIRING.bottom;
}

const PLURAL = new Set(["jeans", "trousers", "shorts"]);

function describe(p: { title: string; type: GarmentType; fit: string; material: Material; store: StoreDef }, rng: Random) {
  const lead = PLURAL.has(p.type.key) ? "A pair of" : /^[AEIOU]/i.test(p.fit) ? "An" : "A";
  const s1 = `${lead} ${p.fit.toLowerCase()} ${p.type.noun} cut from ${p.material.feel} ${p.material.name.toLowerCase()}.`;
  const s2 = DETAIL_SENTENCE[p.type.kind];
  const s3 = rng.pick([
    `Wear it with ${pairingFor(p.type)} for an easy everyday look.`,
    `Pairs well with ${pairingFor(p.type)}.`,
    `Designed by ${p.store.name} and made in small batches.`,
  ]);
  const fitNote = p.store.sizeRecommendation;
  const description = `${s1} ${s2} ${s3}`;
  const descriptionHtml =
    `<p>${escapeHtml(s1)} ${escapeHtml(s2)}</p><p>${escapeHtml(s3)}</p>` +
    `<ul><li><strong>Composition:</strong> ${escapeHtml(p.material.composition)}</li>` +
    `<li><strong>Care:</strong> ${escapeHtml(p.material.care)}</li>` +
    `<li><strong>Fit:</strong> ${escapeHtml(fitNote)}</li></ul>`;
  return { description, descriptionHtml };
}

/** Style tags a product belongs to (also the handles of the demo styles). */
function styleTags(p: { type: GarmentType; fit: string; material: Material; pattern: Pattern; colours: Colour[]; gender: Gender }): string[] {
  const k = p.type.kind;
  const m = p.material.name;
  const tags: string[] = [];
  const neutral = p.colours.every((c) => c.neutral);
  if (p.pattern === "solid" && neutral && !["hoodie", "shorts"].includes(k)) tags.push("minimalist");
  if (k === "hoodie" || (k === "tshirt" && ["Oversized", "Boxy", "Heavyweight"].includes(p.fit)) || (k === "jeans" && ["Relaxed", "Wide-Leg", "Barrel"].includes(p.fit)) || (k === "jacket" && /Bomber/.test(m + p.fit)))
    tags.push("streetwear");
  if (["polo", "blazer", "cardigan"].includes(k) || (k === "shirt" && ["Oxford", "Poplin", "Linen", "Silk"].includes(m)) || (k === "trousers" && ["Wool", "Chino", "Gabardine", "Crepe"].includes(m)) || (k === "sweater" && ["Fine-Knit", "Classic"].includes(p.fit)))
    tags.push("smart-casual");
  if (p.gender !== "womenswear" && (["Canvas", "Waxed Cotton", "Cotton Twill", "Corduroy", "Chambray", "Flannel", "Selvedge Denim", "Rigid Denim"].includes(m) && ["jacket", "trousers", "shirt", "jeans"].includes(k)))
    tags.push("workwear");
  if (p.gender === "womenswear" && (["dress", "skirt"].includes(k) || m === "Silk") && (p.pattern === "dots" || p.colours.some((c) => c.soft) || ["Silk", "Satin", "Broderie"].includes(m)))
    tags.push("romantic");
  if ((k === "jacket" && ["Nylon", "Technical", "Waxed Cotton"].includes(m)) || (k === "jacket" && p.fit === "Padded") || k === "coat" || (k === "hoodie" && m === "Fleece") || (k === "sweater" && p.fit === "Chunky"))
    tags.push("outdoor");
  return tags;
}


function trackingFor(rng: Random): { provider: string; number: string; url: string } {
  const digits = (n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join("");
  const provider = rng.pick(["UPS", "USPS", "DHL Express", "FedEx"]);
  switch (provider) {
    case "UPS": {
      const number = `1Z${Array.from({ length: 16 }, () => "0123456789ABCDEFGHJKLMNPRSTVWXYZ"[rng.int(0, 31)]).join("")}`;
      return { provider, number, url: `https://www.ups.com/track?tracknum=${number}` };
    }
    case "USPS": {
      const number = `9400${digits(18)}`;
      return { provider, number, url: `https://tools.usps.com/go/TrackConfirmAction?tLabels=${number}` };
    }
    case "DHL Express": {
      const number = digits(10);
      return { provider, number, url: `https://www.dhl.com/en/express/tracking.html?AWB=${number}` };
    }
    default: {
      const number = digits(12);
      return { provider, number, url: `https://www.fedex.com/fedextrack/?trknbr=${number}` };
    }
  }
}

// ---------------------------------------------------------------------------------------------

export function buildDemoData(passwordHash: string): DemoRows {
  const rows: DemoRows = {
    vendors: [],
    users: [],
    stores: [],
    products: [],
    options: [],
    variants: [],
    images: [],
    companions: [],
    featured: [],
    collections: [],
    collectionProducts: [],
    styles: [],
    styleProducts: [],
    orders: [],
    orderItems: [],
    purchaseEvents: [],
    viewEvents: [],
    reviews: [],
    summaries: [],
    savedProducts: [],
    favoriteStores: [],
    imageJobs: [],
  };
  const imageJobs = new Map<string, ImageJob>();

  // --- Vendors and stores -------------------------------------------------------------------
  const vendorIds = new Map<string, string>();
  for (const [i, v] of VENDORS.entries()) {
    const id = demoUuid("vendor", v.key);
    vendorIds.set(v.key, id);
    const created = daysAgo(540 - i * 7);
    rows.vendors.push({
      id,
      name: v.name,
      handle: v.handle,
      email: v.email,
      commission_rate: money(v.commission),
      payout_details: { method: "bank_transfer", account_holder: v.name, account_last4: String(4000 + i * 137).slice(-4), currency: "USD" },
      created_at: created,
      updated_at: created,
    });
  }
  const storeIds = new Map<string, string>();
  for (const s of STORES) storeIds.set(s.key, demoUuid("store", s.key));

  // --- Products -----------------------------------------------------------------------------
  const rng = new Random(20261101);
  const products: ProductInfo[] = [];
  const usedTitles = new Set<string>();
  const usedHandles = new Set<string>();
  let taobaoCount = 0;

  for (let n = 1; n <= PRODUCT_COUNT; n++) {
    const gender = rng.weighted<Gender>([
      ["menswear", 40],
      ["womenswear", 40],
      ["both", 20],
    ]);
    const store = rng.weighted(
      STORES.filter((s) => s.gender === gender || s.gender === "both").map((s) => [s, s.gender === gender ? 1 : 0.18] as const),
    );
    const type = rng.weighted(
      GARMENTS.filter((g) => g.genders.includes(gender)).map((g) => [g, (g.weight[gender] ?? 0) * (store.focus.includes(g.key) ? 4 : 1)] as const),
    );

    let pattern: Pattern = "solid";
    for (const [pat, prob] of Object.entries(type.patterns) as [Exclude<Pattern, "solid">, number][]) {
      if (rng.chance(prob)) {
        pattern = pat;
        break;
      }
    }
    let pool = type.colours;
    if (pattern !== "solid") {
      const inter = PATTERN_COLOURS[pattern].filter((c) => type.colours.includes(c));
      pool = inter.length >= 2 ? inter : PATTERN_COLOURS[pattern];
    }
    const colourCount = Math.min(pool.length, rng.weighted([[2, 35], [3, 40], [4, 25]] as const));
    const colours = rng.sample(pool, colourCount).map((c) => COLOURS[c]);

    const fits = type.fits.filter((f) => !(gender === "menswear" && f === "Cropped"));
    let fit = "";
    let material: Material = MATERIALS[type.materials[0]];
    let title = "";
    for (let attempt = 0; attempt < 8; attempt++) {
      fit = rng.pick(fits);
      material = MATERIALS[rng.pick(type.materials)];
      const noun = rng.pick(type.nouns);
      const showFit = rng.chance(0.85);
      const showMaterial = !showFit || rng.chance(0.75);
      const patternWord = pattern === "solid" ? undefined : PATTERN_WORD[pattern];
      title = [showFit ? fit : undefined, patternWord, showMaterial ? material.name : undefined, noun].filter(Boolean).join(" ");
      if (!usedTitles.has(title)) break;
    }
    usedTitles.add(title);
    let handle = slugify(title);
    if (usedHandles.has(handle)) handle = `${handle}-${slugify(store.name)}`;
    if (usedHandles.has(handle)) handle = `${slugify(title)}-${1000 + n}`;
    usedHandles.add(handle);

    // prices
    const [pmin, pmax] = type.price;
    let base = Math.round(rng.int(pmin, pmax) / 5) * 5;
    if (base > 100 && rng.chance(0.4)) base -= 1;
    const onSale = rng.chance(0.18);
    const discount = onSale ? rng.pick([0.2, 0.25, 0.3, 0.4]) : 0;
    const premiumColour = rng.chance(0.08) ? rng.int(0, colours.length - 1) : -1;
    const soldOut = rng.chance(0.03);

    const id = productGid(n);
    const created = daysAgo(rng.float(2, 365));
    const storeId = storeIds.get(store.key)!;
    const vendorId = vendorIds.get(store.vendor)!;
    const sizes = type.sizes[gender];
    const titleLower = title.toLowerCase();

    // images: one per colour
    const imageByColour = new Map<string, string>();
    colours.forEach((c, ci) => {
      const job = garmentImageJob(type.key, type.kind, slugify(c.name), c.hex, pattern, type.key === "jeans");
      imageJobs.set(job.file, job);
      const url = `${DEMO_URL_PREFIX}/${job.file}`;
      imageByColour.set(c.name, url);
      rows.images.push({
        id: `gid://shopify/MediaImage/${(1000 + n) * 10 + ci}`,
        product_id: id,
        url,
        altText: `${c.name} ${titleLower}`,
        width: 600,
        height: 800,
        position: ci,
        created_at: created,
      });
    });

    // variants: colours × sizes
    const variants: VariantInfo[] = [];
    const storeCode = store.monogram.replace(/[^A-Z]/g, "").padEnd(2, "X");
    colours.forEach((c, ci) => {
      sizes.forEach((size, si) => {
        const edge = si === 0 || si === sizes.length - 1;
        const qty = soldOut ? 0 : rng.chance(0.1) ? 0 : edge ? rng.int(0, 10) : rng.int(2, 34);
        const full = (base + (ci === premiumColour ? 10 : 0)) as number;
        const price = onSale ? Math.round(full * (1 - discount)) : full;
        const position = ci * sizes.length + si;
        const variantId = `gid://shopify/ProductVariant/${(1000 + n) * 100 + position}`;
        const sku = `${storeCode}-${1000 + n}-${slugify(c.name).replace(/-/g, "").slice(0, 3).toUpperCase()}-${size.replace(/\s+/g, "")}`;
        const imageUrl = imageByColour.get(c.name)!;
        variants.push({ id: variantId, title: `${c.name} / ${size}`, colour: c, size, price, sku, imageUrl, available: qty > 0 });
        rows.variants.push({
          id: variantId,
          product_id: id,
          title: `${c.name} / ${size}`,
          availableForSale: qty > 0,
          price: money(price),
          compareAtPrice: onSale ? money(full) : null,
          sku,
          inventory_quantity: qty,
          image_url: imageUrl,
          selectedOptions: [
            { name: "Color", value: c.name },
            { name: "Size", value: size },
          ],
          color_hex: c.hex,
          position,
          created_at: created,
          updated_at: created,
        });
      });
    });
    const variantRows = rows.variants.slice(rows.variants.length - variants.length);
    const totalInventory = variantRows.reduce((s, v) => s + (v.inventory_quantity ?? 0), 0);
    const prices = variants.map((v) => v.price);
    const available = variants.some((v) => v.available);

    rows.options.push(
      { id: `gid://shopify/ProductOption/${(1000 + n) * 10 + 1}`, product_id: id, name: "Color", values: colours.map((c) => c.name), position: 1 },
      { id: `gid://shopify/ProductOption/${(1000 + n) * 10 + 2}`, product_id: id, name: "Size", values: sizes, position: 2 },
    );

    const styles = styleTags({ type, fit, material, pattern, colours, gender });
    const tags = [
      ...new Set([
        type.key,
        type.productType.toLowerCase(),
        slugify(fit),
        slugify(material.name),
        gender === "both" ? "unisex" : gender,
        ...colours.map((c) => slugify(c.name)),
        ...(pattern === "solid" ? [] : [slugify(PATTERN_WORD[pattern])]),
        ...(onSale ? ["sale"] : []),
        ...(BASE - created.getTime() < 30 * DAY ? ["new-in"] : []),
        ...styles,
      ]),
    ];
    const { description, descriptionHtml } = describe({ title, type, fit, material, store }, rng);
    const featuredImageUrl = imageByColour.get(colours[0].name)!;

    rows.products.push({
      id,
      title,
      handle,
      vendor: store.name,
      availableForSale: available,
      productType: type.productType,
      description,
      descriptionHtml,
      featuredImageUrl,
      featuredImageAltText: `${colours[0].name} ${titleLower}`,
      priceMin: money(Math.min(...prices)),
      priceMax: money(Math.max(...prices)),
      currencyCode: "USD",
      totalInventory,
      tags,
      target_gender: gender,
      status: "active",
      publishedAt: created,
      store_id: storeId,
      vendor_id: vendorId,
      created_at: created,
      updated_at: created,
    });

    // companion
    const companionId = demoUuid("companion", n);
    const fromTaobao = rng.chance(0.4);
    let taobao: { id: string; title: string; url: string } | null = null;
    if (fromTaobao) {
      taobaoCount++;
      const tid = String(640_000_000_000 + n * 1000 + rng.int(0, 999));
      const genderZh = gender === "menswear" ? "男士" : gender === "womenswear" ? "女士" : "男女同款";
      const season = rng.pick(["2026秋冬新款", "2026春夏新款", "ins风", "日系", "韩版", "简约", "复古"]);
      const zhTitle = `${season}${genderZh}${pattern === "solid" ? "" : PATTERN_ZH[pattern]}${FIT_ZH[fit] ?? ""}${material.zh}${type.zh}`;
      taobao = { id: tid, title: zhTitle, url: `https://item.taobao.com/item.htm?id=${tid}` };
    }
    rows.companions.push({
      id: companionId,
      shopify_product_id: id,
      taobao_id: taobao?.id ?? null,
      taobao_title: taobao?.title ?? null,
      taobao_url: taobao?.url ?? null,
      status: "active",
      material_sections: [
        { title: "Composition", content: material.composition },
        { title: "Care", content: material.care },
        { title: "Fit", content: store.sizeRecommendation },
      ],
      tryon_active: type.tryon,
      verified_at: taobao ? at(created.getTime() + 2 * DAY) : null,
      flat_image_url: type.tryon ? featuredImageUrl : null,
      created_at: created,
      updated_at: created,
    });
    if (taobao) {
      // Taobao SKU ids on the variants of imported products.
      for (const v of variantRows) v.taobao_sku_id = String(5_000_000_000_000 + n * 1000 + (v.position ?? 0));
    }

    products.push({
      n,
      id,
      title,
      gender,
      type,
      fit,
      material,
      pattern,
      colours,
      store,
      storeId,
      vendorId,
      companionId,
      tags,
      featuredImageUrl,
      available,
      variants,
      imageByColour,
    });
  }
  void taobaoCount;

  // --- Stores (after products: banners and featured products) -------------------------------
  const rs = new Random(4242);
  for (const [i, s] of STORES.entries()) {
    const id = storeIds.get(s.key)!;
    const own = products.filter((p) => p.store.key === s.key);
    const featured = rs.sample(own.filter((p) => p.available), 6);
    const logo = storeLogoJob(slugify(s.name), s.monogram, s.logoColor);
    imageJobs.set(logo.file, logo);
    const created = daysAgo(500 - i * 11);
    rows.stores.push({
      id,
      name: s.name,
      handle: slugify(s.name),
      description: s.description,
      logo_url: `${DEMO_URL_PREFIX}/${logo.file}`,
      banner_url: featured[0]?.featuredImageUrl ?? null,
      size_recommendation: s.sizeRecommendation,
      target_gender: s.gender,
      vendor_id: vendorIds.get(s.vendor)!,
      sort_order: i,
      created_at: created,
      updated_at: created,
    });
    featured.forEach((p, k) => rows.featured.push({ store_id: id, product_id: p.id, sort_order: k, created_at: daysAgo(20 + k) }));
  }

  // --- Users --------------------------------------------------------------------------------
  const ru = new Random(777);
  interface UserInfo {
    id: string;
    email: string;
    first: string | null;
    prefs: Gender[];
    city: (typeof CITIES)[number];
    last: string | null;
  }
  const users: UserInfo[] = [];
  const shoppers: UserInfo[] = [];
  const addUser = (
    key: string,
    u: { email: string; first: string | null; last: string | null; role: "ADMIN" | "VENDOR" | "SHOPPER"; interests?: string; vendor_id?: string; permissions?: string[]; createdDaysAgo: number; phone?: string | null },
  ) => {
    const id = demoUserId(key);
    const created = daysAgo(u.createdDaysAgo);
    rows.users.push({
      id,
      auth_provider: "password",
      email: u.email,
      password_hash: passwordHash,
      first_name: u.first,
      last_name: u.last,
      phone_number: u.phone ?? null,
      role: u.role,
      permissions: u.permissions ?? [],
      vendor_id: u.vendor_id ?? null,
      metadata: u.interests !== undefined ? { interests: u.interests } : {},
      // Verified, so the demo orders linked to these accounts are theirs (orders link only to proven emails).
      email_verified_at: created,
      created_at: created,
      updated_at: created,
    });
    const interests = (u.interests ?? "").split(",");
    const prefs: Gender[] = interests.includes("menswear") && !interests.includes("womenswear") ? ["menswear", "both"] : interests.includes("womenswear") && !interests.includes("menswear") ? ["womenswear", "both"] : ["menswear", "womenswear", "both"];
    const info: UserInfo = { id, email: u.email, first: u.first, last: u.last, prefs, city: ru.pick(CITIES) };
    users.push(info);
    return info;
  };
  addUser("admin", { email: `admin@${DEMO_EMAIL_DOMAIN}`, first: "Alex", last: "Morgan", role: "ADMIN", permissions: [...PermissionNames], createdDaysAgo: 400 });
  addUser("vendor", { email: `vendor@${DEMO_EMAIL_DOMAIN}`, first: "Nora", last: "Lindqvist", role: "VENDOR", vendor_id: vendorIds.get("northwind"), createdDaysAgo: 380 });
  const demoShopper = addUser("shopper", {
    email: `shopper@${DEMO_EMAIL_DOMAIN}`,
    first: "Sophie",
    last: "Martin",
    role: "SHOPPER",
    interests: "womenswear,minimalist",
    createdDaysAgo: 200,
    phone: "+1 415 555 0142",
  });
  shoppers.push(demoShopper);
  const HANDLES = ["linenlover", "denimhead", "quietluxe", "coatseason", "knitwit"];
  const usedEmails = new Set<string>();
  for (let i = 1; i <= SHOPPER_COUNT; i++) {
    const nameless = i % 8 === 0;
    const first = nameless ? null : FIRST_NAMES[(i - 1) % FIRST_NAMES.length];
    const last = nameless ? null : ru.pick(LAST_NAMES);
    let local = nameless ? `${HANDLES[(i / 8 - 1) % HANDLES.length]}${ru.int(10, 99)}` : `${slugify(first!)}.${slugify(last!)}`.replace(/-/g, "");
    if (usedEmails.has(local)) local = `${local}${i}`;
    usedEmails.add(local);
    shoppers.push(
      addUser(`shopper-${i}`, {
        email: `${local}@${DEMO_EMAIL_DOMAIN}`,
        first,
        last,
        role: "SHOPPER",
        interests: ru.pick(INTERESTS),
        createdDaysAgo: ru.float(125, 500),
        phone: ru.chance(0.4) ? `+1 ${ru.int(200, 989)} 555 0${ru.int(100, 199)}` : null,
      }),
    );
  }

  // --- Popularity, orders, items, purchase events -------------------------------------------
  const ro = new Random(9001);
  const popularity = new Map(products.map((p) => [p.id, 0.15 + ro.next() ** 3 * 10]));
  const pickers = new Map<string, (r: Random) => ProductInfo>();
  const pickerFor = (prefs: Gender[], availableOnly: boolean) => {
    const key = `${prefs.join(",")}|${availableOnly}`;
    let picker = pickers.get(key);
    if (!picker) {
      picker = weightedPicker(
        products.filter((p) => prefs.includes(p.gender) && (!availableOnly || p.available)),
        (p) => popularity.get(p.id)!,
      );
      pickers.set(key, picker);
    }
    return picker;
  };

  // A fifth of the orders in the last ten days, so every fulfilment stage is represented.
  const orderDates = Array.from({ length: ORDER_COUNT }, () => (ro.chance(0.2) ? ro.float(0.15, 10) : ro.float(0.15, 120))).sort((a, b) => b - a);
  const purchased = new Map<string, string>(); // `${userId}|${productId}` → order id
  const orderCreated = new Map<string, number>();
  const deliveredItems: { orderId: string; user: UserInfo | null; email: string; product: ProductInfo; variant: VariantInfo; created: number }[] = [];
  const lineItemKeys: string[] = [];
  for (let k = 0; k < ORDER_COUNT; k++) {
    const n = k + 1;
    const ageDays = orderDates[k];
    const created = at(BASE - ageDays * DAY);
    const guest = k % 29 === 13;
    const user = guest ? null : k % 17 === 3 ? demoShopper : ro.pick(shoppers);
    const email = user ? user.email : `guest${n}@example.com`;
    const name = user ? [user.first ?? "Alex", user.last ?? "Doe"] : ["Jordan", "Guest"];
    const city = user ? user.city : ro.pick(CITIES);
    const orderId = `gid://shopify/Order/${5_400_000 + n}`;
    orderCreated.set(orderId, created.getTime());

    const cancelled = ro.chance(0.07);
    let status: "unfulfilled" | "fulfilled" | "shipped" | "delivered" | "cancelled";
    if (cancelled) status = "cancelled";
    else if (ageDays > 14) status = ro.chance(0.93) ? "delivered" : "shipped";
    else if (ageDays > 7) status = ro.weighted([["delivered", 45], ["shipped", 45], ["fulfilled", 10]] as const);
    else if (ageDays > 3) status = ro.weighted([["shipped", 50], ["fulfilled", 35], ["unfulfilled", 15]] as const);
    else status = ro.weighted([["unfulfilled", 60], ["fulfilled", 30], ["shipped", 10]] as const);

    const itemCount = ro.weighted([[1, 45], [2, 30], [3, 15], [4, 10]] as const);
    const pick = pickerFor(user ? (ro.chance(0.8) ? user.prefs : ["menswear", "womenswear", "both"]) : ["menswear", "womenswear", "both"], true);
    const chosen = new Set<string>();
    let subtotal = 0;
    const tracking = ["fulfilled", "shipped", "delivered"].includes(status) ? trackingFor(ro) : null;
    const statusTime = status === "delivered" ? created.getTime() + ro.float(3, 7) * DAY : status === "shipped" ? created.getTime() + ro.float(1, 2.5) * DAY : created.getTime() + ro.float(2, 20) * HOUR;
    for (let i = 0; i < itemCount; i++) {
      const product = pick(ro);
      if (chosen.has(product.id)) continue;
      chosen.add(product.id);
      const options = product.variants.filter((v) => v.available);
      const variant = ro.pick(options);
      const quantity = ro.chance(0.12) ? 2 : 1;
      subtotal += variant.price * quantity;
      const lineId = `gid://shopify/LineItem/${(5_400_000 + n) * 10 + i}`;
      rows.orderItems.push({
        id: lineId,
        order_id: orderId,
        product_id: product.id,
        variant_id: variant.id,
        vendor_id: product.vendorId,
        title: product.title,
        variant_title: variant.title,
        sku: variant.sku,
        quantity,
        price: money(variant.price),
        currencyCode: "USD",
        status,
        tracking_number: tracking?.number ?? null,
        tracking_url: tracking?.url ?? null,
        provider: tracking?.provider ?? null,
        image_url: variant.imageUrl,
        created_at: created,
        updated_at: clampPast(statusTime),
      });
      lineItemKeys.push(lineId);
      // The shopper looked at the product before buying it.
      rows.viewEvents.push({
        id: demoUuid("view-order", lineId),
        user_id: user?.id ?? null,
        session_id: user ? `demo-session-${user.id.slice(0, 8)}` : `demo-guest-${n}`,
        product_id: product.id,
        created_at: at(created.getTime() - ro.float(5, 600) * MINUTE),
      });
      if (!cancelled) {
        rows.purchaseEvents.push({
          id: demoUuid("purchase", lineId),
          user_id: user?.id ?? null,
          order_id: orderId,
          product_id: product.id,
          variant_id: variant.id,
          quantity,
          created_at: created,
        });
        if (user && !purchased.has(`${user.id}|${product.id}`)) purchased.set(`${user.id}|${product.id}`, orderId);
        if (status === "delivered") deliveredItems.push({ orderId, user, email, product, variant, created: created.getTime() });
      }
    }
    const shipping = subtotal >= 150 ? 0 : 8;
    const tax = Math.round(subtotal * 0.0825 * 100) / 100;
    const cancelledAt = cancelled ? clampPast(created.getTime() + ro.float(2, 30) * HOUR) : null;
    rows.orders.push({
      id: orderId,
      name: `#${1000 + n}`,
      order_number: 1000 + n,
      user_id: user?.id ?? null,
      email,
      status: cancelled ? "cancelled" : status === "delivered" ? "closed" : "open",
      financial_status: cancelled ? ro.pick(["REFUNDED", "VOIDED"]) : "PAID",
      fulfillment_status: status === "unfulfilled" || cancelled ? "UNFULFILLED" : "FULFILLED",
      subtotal_price: money(subtotal),
      total_shipping: money(shipping),
      total_tax: money(tax),
      total_price: money(subtotal + shipping + tax),
      currencyCode: "USD",
      cancel_reason: cancelled ? ro.pick(["CUSTOMER", "INVENTORY", "DECLINED", "OTHER"]) : null,
      cancelled_at: cancelledAt,
      closed_at: status === "delivered" ? clampPast(statusTime) : null,
      shipping_address: {
        first_name: name[0],
        last_name: name[1],
        address1: `${ro.int(3, 980)} ${ro.pick(STREETS)}`,
        city: city.city,
        province: city.province,
        zip: city.zip,
        country: city.country,
        country_code: city.countryCode,
      },
      note: ro.chance(0.06) ? ro.pick(["Please leave with the concierge.", "Gift — no prices on the packing slip, please.", "Leave at the back door."]) : null,
      created_at: created,
      updated_at: cancelledAt ?? clampPast(statusTime),
    });
  }

  // --- Browsing (product views) -------------------------------------------------------------
  const rv = new Random(31337);
  const anyPicker = pickerFor(["menswear", "womenswear", "both"], false);
  for (let i = 0; i < RANDOM_VIEW_EVENTS; i++) {
    const signedIn = rv.chance(0.62);
    const user = signedIn ? rv.pick(shoppers) : null;
    const product = user && rv.chance(0.8) ? pickerFor(user.prefs, false)(rv) : anyPicker(rv);
    rows.viewEvents.push({
      id: demoUuid("view", i),
      user_id: user?.id ?? null,
      session_id: user ? `demo-session-${user.id.slice(0, 8)}` : `demo-anon-${rv.int(1, 260)}`,
      product_id: product.id,
      created_at: at(BASE - rv.float(0.01, 120) * DAY),
    });
  }

  // --- Browsing sessions (related products viewed one after another) ----------------------
  // Shoppers and anonymous visitors who browse a handful of related products within an hour:
  // mostly the same garment, sometimes the same store, sometimes anything. Feeds the "viewed
  // together" pairs (customers also viewed) and the most-viewed list.
  const rb = new Random(4242);
  const poolPickers = new Map<string, ((r: Random) => ProductInfo) | null>();
  const poolPicker = (key: string, filter: (p: ProductInfo) => boolean) => {
    if (!poolPickers.has(key)) {
      const pool = products.filter(filter);
      poolPickers.set(key, pool.length > 1 ? weightedPicker(pool, (p) => popularity.get(p.id)!) : null);
    }
    return poolPickers.get(key)!;
  };
  const VISITOR_PREFS: Gender[][] = [["menswear", "both"], ["womenswear", "both"], ["menswear", "womenswear", "both"]];
  for (let i = 0; i < BROWSE_SESSIONS; i++) {
    const user = rb.chance(0.55) ? (i % 23 === 5 ? demoShopper : rb.pick(shoppers)) : null;
    const prefs = user ? user.prefs : rb.pick(VISITOR_PREFS);
    const start = pickerFor(prefs, false);
    let current = start(rb);
    let t = BASE - rb.float(0.05, 60) * DAY;
    const length = rb.int(3, 9);
    const seen = new Set<string>();
    for (let j = 0; j < length; j++) {
      if (!seen.has(current.id)) {
        seen.add(current.id);
        rows.viewEvents.push({
          id: demoUuid("browse", `${i}-${j}`),
          user_id: user?.id ?? null,
          session_id: `demo-browse-${i + 1}`,
          product_id: current.id,
          created_at: at(t),
        });
      }
      t += rb.float(0.5, 6) * MINUTE;
      const from = current;
      const r = rb.next();
      const next =
        r < 0.6
          ? poolPicker(`type|${from.type.key}|${prefs.join(",")}`, (p) => p.type.key === from.type.key && prefs.includes(p.gender))
          : r < 0.85
            ? poolPicker(`store|${from.store.key}|${prefs.join(",")}`, (p) => p.store.key === from.store.key && prefs.includes(p.gender))
            : null;
      current = (next ?? start)(rb);
    }
  }

  // --- Reviews ------------------------------------------------------------------------------
  const rr = new Random(5150);
  const reviewed = new Set<string>();
  const byProduct = new Map(products.map((p) => [p.id, p]));
  const rating = () => rr.weighted([[5, 50], [4, 28], [3, 12], [2, 6], [1, 4]] as const);
  const addReview = (r: {
    product: ProductInfo;
    colour: Colour;
    user: UserInfo | null;
    email: string | null;
    orderId: string | null;
    created: number;
  }) => {
    const stars = rating();
    const status = rr.chance(0.85) ? "approved" : "pending";
    const fill = (s: string) =>
      s
        .replace("{colour}", r.colour.name.toLowerCase())
        .replace("{material}", r.product.material.name.toLowerCase())
        .replace("{feel}", r.product.material.feel)
        .replace("{noun}", r.product.type.noun)
        .replace("{fit}", rr.pick(FIT_REMARKS))
        .trim();
    const created = clampPast(r.created);
    const name = r.user?.first ?? (r.email ? r.email.split("@")[0] : null) ?? "Anonymous";
    rows.reviews.push({
      id: demoUuid("review", rows.reviews.length + 1),
      rating: stars,
      title: rr.chance(0.9) ? rr.pick(REVIEW_TITLES[stars]) : null,
      body: fill(rr.pick(REVIEW_BODIES[stars])),
      name,
      email: r.email,
      images: stars >= 4 && rr.chance(0.08) ? [r.product.imageByColour.get(r.colour.name)!] : [],
      status,
      shopify_order_id: r.orderId,
      shopify_product_companion_id: r.product.companionId,
      product_id: r.product.id,
      store_id: r.product.storeId,
      user_id: r.user?.id ?? null,
      verified_buyer: r.orderId !== null,
      published_at: status === "approved" ? clampPast(created.getTime() + rr.float(2, 40) * HOUR) : null,
      created_at: created,
      updated_at: created,
    });
  };
  // Buyers reviewing what was delivered to them.
  for (const item of deliveredItems) {
    if (!rr.chance(0.55)) continue;
    const key = `${item.user?.id ?? item.email}|${item.product.id}`;
    if (reviewed.has(key)) continue;
    reviewed.add(key);
    addReview({
      product: item.product,
      colour: item.variant.colour,
      user: item.user,
      email: item.email,
      orderId: item.orderId,
      created: item.created + rr.float(5, 25) * DAY,
    });
  }
  // Other shoppers, guests and anonymous reviewers.
  let guard = 0;
  while (rows.reviews.length < REVIEW_TARGET && guard++ < REVIEW_TARGET * 20) {
    const kind = rr.weighted([["user", 88], ["guest", 8], ["anonymous", 4]] as const);
    const user = kind === "user" ? rr.pick(shoppers) : null;
    const product = user ? pickerFor(user.prefs, false)(rr) : anyPicker(rr);
    const email = user ? user.email : kind === "guest" ? `${rr.pick(["jules", "sam.k", "m.ortiz", "lou", "kit.w", "rio"])}${rr.int(1, 99)}@example.com` : null;
    const key = `${user?.id ?? email ?? `anon${guard}`}|${product.id}`;
    if (reviewed.has(key)) continue;
    reviewed.add(key);
    const orderId = user ? purchased.get(`${user.id}|${product.id}`) ?? null : null;
    let created = BASE - rr.float(0.1, 120) * DAY;
    if (orderId) created = Math.max(created, orderCreated.get(orderId)! + 3 * DAY);
    addReview({ product, colour: rr.pick(product.colours), user, email, orderId, created });
  }
  // A review can only carry an order id once per product (unique), and only after that order.
  const seenOrderProduct = new Set<string>();
  for (const r of rows.reviews) {
    if (!r.shopify_order_id) continue;
    const k = `${r.shopify_order_id}|${r.product_id}`;
    if (seenOrderProduct.has(k)) {
      r.shopify_order_id = null;
      r.verified_buyer = false;
    } else seenOrderProduct.add(k);
  }

  // Rating summaries (approved reviews only) per product and per store.
  const summarise = (list: Prisma.ReviewCreateManyInput[]) => {
    const dist: Record<string, number> = { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 };
    let sum = 0;
    for (const r of list) {
      dist[String(r.rating)]++;
      sum += r.rating;
    }
    return { average: list.length ? Math.round((sum / list.length) * 100) / 100 : 0, count: list.length, distribution: dist };
  };
  const approved = rows.reviews.filter((r) => r.status === "approved");
  const approvedByProduct = new Map<string, Prisma.ReviewCreateManyInput[]>();
  const approvedByStore = new Map<string, Prisma.ReviewCreateManyInput[]>();
  for (const r of approved) {
    (approvedByProduct.get(r.product_id) ?? approvedByProduct.set(r.product_id, []).get(r.product_id)!).push(r);
    if (r.store_id) (approvedByStore.get(r.store_id) ?? approvedByStore.set(r.store_id, []).get(r.store_id)!).push(r);
  }
  for (const p of products) {
    rows.summaries.push({ id: demoUuid("summary-product", p.id), product_id: p.id, ...summarise(approvedByProduct.get(p.id) ?? []), updated_at: BASE_DATE });
  }
  for (const s of STORES) {
    const id = storeIds.get(s.key)!;
    rows.summaries.push({ id: demoUuid("summary-store", id), store_id: id, ...summarise(approvedByStore.get(id) ?? []), updated_at: BASE_DATE });
  }
  void byProduct;

  // --- Collections and styles ---------------------------------------------------------------
  const rc = new Random(2718);
  const inCollection: Record<string, (p: ProductInfo) => boolean> = {
    "autumn-layers": (p) => ["coat", "jacket", "sweater", "cardigan"].includes(p.type.kind) && (p.colours[0].earthy || p.colours[0].neutral) === true,
    "the-linen-edit": (p) => p.material.name === "Linen" || p.material.name === "Linen-Blend",
    "menswear-essentials": (p) => p.gender === "menswear" && ["t-shirt", "shirt", "jeans", "trousers", "polo", "sweater"].includes(p.type.key),
    "the-dress-edit": (p) => p.type.key === "dress",
    "denim-shop": (p) => p.type.key === "jeans" || /Denim|Chambray/.test(p.material.name),
    "northwind-atelier-picks": (p) => p.store.vendor === "northwind",
  };
  for (const [i, c] of COLLECTIONS.entries()) {
    const id = demoUuid("collection", c.handle);
    const members = rc.sample(products.filter((p) => p.available && inCollection[c.handle](p)), 24);
    const created = daysAgo(90 - i * 9);
    rows.collections.push({
      id,
      title: c.title,
      handle: c.handle,
      description: c.description,
      image_url: members[0]?.featuredImageUrl ?? null,
      status: "active",
      featured: c.featured,
      version: 1,
      view_count: rc.int(120, 4800),
      target_gender: c.gender,
      sort_order: i,
      partner_id: c.partner ? vendorIds.get(c.partner)! : null,
      published_at: at(created.getTime() + DAY),
      created_at: created,
      updated_at: at(created.getTime() + DAY),
    });
    members.forEach((p, position) => rows.collectionProducts.push({ collection_id: id, product_id: p.id, position, created_at: created }));
  }
  for (const [i, s] of STYLES.entries()) {
    const id = demoUuid("style", s.handle);
    const scored = products
      .filter((p) => p.tags.includes(s.handle) && (s.gender === "both" || p.gender === s.gender || p.gender === "both"))
      .map((p) => ({ p, score: Math.round(rc.float(0.55, 0.99) * 1000) / 1000 }))
      .sort((a, b) => b.score - a.score || a.p.n - b.p.n)
      .slice(0, 40);
    const created = daysAgo(150 - i * 5);
    rows.styles.push({
      id,
      name: s.name,
      handle: s.handle,
      description: s.description,
      image_url: scored[0]?.p.featuredImageUrl ?? null,
      featured: s.featured,
      score: Math.round(rc.float(0.6, 0.98) * 100) / 100,
      target_gender: s.gender,
      categorisation_status: "completed",
      created_at: created,
      updated_at: created,
    });
    scored.forEach(({ p, score }, position) => rows.styleProducts.push({ style_id: id, product_id: p.id, position, score, created_at: created }));
  }

  // --- Saved products and followed stores ---------------------------------------------------
  const rf = new Random(1618);
  for (const u of shoppers) {
    const isDemo = u === demoShopper;
    const pool = products.filter((p) => u.prefs.includes(p.gender) && (!isDemo || p.tags.includes("minimalist") || p.gender === "womenswear"));
    const saved = rf.sample(pool, isDemo ? 10 : rf.int(0, 6));
    saved.forEach((p, i) =>
      rows.savedProducts.push({ id: demoUuid("saved", `${u.id}|${p.id}`), user_id: u.id, product_id: p.id, createdAt: at(BASE - (rf.float(0.5, 60) + i) * DAY) }),
    );
    const storePool = STORES.filter((s) => u.prefs.includes(s.gender));
    const follows = isDemo ? STORES.filter((s) => ["lumiere", "saltmarsh", "verdant"].includes(s.key)) : rf.sample(storePool, rf.int(0, 3));
    follows.forEach((s) => {
      const storeId = storeIds.get(s.key)!;
      rows.favoriteStores.push({ id: demoUuid("favorite", `${u.id}|${storeId}`), user_id: u.id, store_id: storeId, created_at: at(BASE - rf.float(1, 90) * DAY) });
    });
  }

  rows.imageJobs = [...imageJobs.values()];
  return rows;
}
