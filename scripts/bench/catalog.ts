/**
 * The benchmark catalogue: N products (20,000 by default) built in memory, deterministically
 * (seeded PRNGs, ids from counters and hashes), from the demo data's vocabulary extended in
 * ./vocabulary.ts: titles, product types, tags, colours, materials, patterns, sizes, prices,
 * genders, stores and vendors, variants (colour × size), images (the demo renders' URLs), plus
 * shoppers, browsing sessions (view events with co-viewing structure) and orders (baskets of
 * complementary garments) for the recommendations.
 *
 * Timestamps are relative to the start of the current UTC day, so "recent" windows of the
 * recommendations see the events; everything else is identical from run to run.
 * Alongside the rows it returns the facts of each product, from which ./relevance.ts derives the
 * labelled queries.
 */
import { COLOURS, MATERIALS, PATTERN_COLOURS, PATTERN_WORD, type Gender, type Material, type StoreDef } from "../../prisma/demo/catalog-data";
import type { Pattern } from "../../prisma/demo/garment-svg";
import { DEMO_URL_PREFIX, garmentImageFile } from "../../prisma/demo/images.server";
import { Random, demoUuid, slugify, weightedPicker } from "../../prisma/demo/prng";
import { BENCH_GARMENTS, BENCH_STORES, BENCH_VENDORS, COMPLEMENTS, TITLE_QUALIFIERS, type BenchGarment } from "./vocabulary";

export type Row = Record<string, unknown>;

export interface ProductFacts {
  n: number;
  id: string;
  title: string;
  handle: string;
  gender: Gender;
  type: BenchGarment;
  noun: string;
  fit: string;
  material: Material;
  pattern: Pattern;
  colours: string[];
  store: StoreDef;
  priceMin: number;
  priceMax: number;
  onSale: boolean;
  available: boolean;
  /** Active and published now: what shoppers (and search) may see. */
  visible: boolean;
  createdAt: Date;
  popularity: number;
  /** Demo render file per colour (same order as `colours`). */
  imageFiles: string[];
}

export interface BenchCatalog {
  size: number;
  baseDate: Date;
  facts: ProductFacts[];
  /** Bench shoppers: id and the genders they browse. */
  shoppers: { id: string; email: string; prefs: Gender[] }[];
  /** Rows per table (database column names), in insertion order. */
  tables: [table: string, rows: Row[]][];
  /** Distinct demo render files the catalogue points at. */
  imageFiles: string[];
  buildMs: number;
}

const DAY = 86_400_000;
const MINUTE = 60_000;
const money = (n: number) => n.toFixed(2);
export const benchProductGid = (n: number) => `gid://shopify/Product/${1000 + n}`;

const LEAD_FEEL: Record<string, string> = {
  tshirt: "A ribbed crew neck, dropped shoulders and a clean straight hem.",
  polo: "A flat-knit collar, a three-button placket and ribbed cuffs.",
  shirt: "A soft collar, a single chest pocket and a curved hem that works tucked or untucked.",
  hoodie: "A lined hood with flat drawcords, a kangaroo pocket and ribbed cuffs.",
  sweater: "Ribbed neck, cuffs and hem that keep their shape wash after wash.",
  cardigan: "A ribbed button band, two patch pockets and horn-effect buttons.",
  jacket: "A stand collar, a two-way zip and flap pockets.",
  coat: "Notch lapels, a clean front and deep welt pockets.",
  blazer: "Half-lined, with notch lapels, a two-button front and flap pockets.",
  jeans: "Five-pocket construction with a button fly and copper rivets.",
  trousers: "A clean waistband, slanted side pockets and a pressed crease.",
  shorts: "Belt loops, slanted pockets and neatly turned-up hems.",
  dress: "A fitted bodice and a skirt that moves beautifully.",
  skirt: "It sits on the natural waist, with a buttoned waistband.",
};

/** Start of the current UTC day. */
export function benchBaseDate(now = Date.now()): Date {
  return new Date(Math.floor(now / DAY) * DAY);
}

/**
 * @param demoImageFiles the files the demo data renders (prisma/demo): a product whose colour and
 *   pattern has no demo render uses a render of the same garment in another colour.
 */
export function buildBenchCatalog(opts: { products: number; demoImageFiles: Set<string>; seed?: number; now?: number }): BenchCatalog {
  const started = performance.now();
  const N = opts.products;
  const base = benchBaseDate(opts.now);
  const BASE = base.getTime();
  const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);
  const rng = new Random(opts.seed ?? 20_000);

  const vendors: Row[] = [];
  const vendorIds = new Map<string, string>();
  BENCH_VENDORS.forEach((v, i) => {
    const id = demoUuid("bench-vendor", v.key);
    vendorIds.set(v.key, id);
    const created = at(BASE - (700 - i * 9) * DAY);
    vendors.push({ id, name: v.name, handle: v.handle, email: v.email, commission_rate: money(v.commission), payout_details: { method: "bank_transfer", currency: "USD" }, created_at: created, updated_at: created });
  });
  const storeIds = new Map<string, string>();
  for (const s of BENCH_STORES) storeIds.set(s.key, demoUuid("bench-store", s.key));

  // Fallback render per garment image key: the first colour with a demo render.
  const renderFor = (t: BenchGarment, colour: string, pattern: Pattern): string => {
    const wanted = garmentImageFile(t.imageKey, slugify(colour), pattern);
    if (opts.demoImageFiles.has(wanted)) return wanted;
    const solid = garmentImageFile(t.imageKey, slugify(colour), "solid");
    if (opts.demoImageFiles.has(solid)) return solid;
    for (const c of t.colours) {
      const f = garmentImageFile(t.imageKey, slugify(c), "solid");
      if (opts.demoImageFiles.has(f)) return f;
    }
    return wanted;
  };

  const products: Row[] = [];
  const options: Row[] = [];
  const variants: Row[] = [];
  const images: Row[] = [];
  const facts: ProductFacts[] = [];
  const usedHandles = new Set<string>();
  const storesByGender = (g: Gender) => BENCH_STORES.filter((s) => s.gender === g || s.gender === "both").map((s) => [s, s.gender === g ? 1 : 0.25] as const);
  const storeChoices: Record<Gender, (readonly [StoreDef, number])[]> = { menswear: storesByGender("menswear"), womenswear: storesByGender("womenswear"), both: storesByGender("both") };

  for (let n = 1; n <= N; n++) {
    const gender = rng.weighted<Gender>([
      ["menswear", 40],
      ["womenswear", 42],
      ["both", 18],
    ]);
    const store = rng.weighted(storeChoices[gender]);
    const type = rng.weighted(
      BENCH_GARMENTS.filter((g) => g.genders.includes(gender)).map((g) => [g, (g.weight[gender] ?? 0) * (store.focus.includes(g.key) ? 4 : 1)] as const),
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
    // A fifth of the products come in one colour and name it in the title.
    const colourStyle = rng.weighted([["none", 80], ["prefix", 10], ["suffix", 10]] as const);
    const colourCount = colourStyle === "none" ? Math.min(pool.length, rng.weighted([[1, 10], [2, 30], [3, 37], [4, 23]] as const)) : 1;
    const colours = rng.sample(pool, colourCount).map((c) => COLOURS[c]);

    const fits = type.fits.filter((f) => !(gender === "menswear" && f === "Cropped"));
    const fit = rng.pick(fits);
    const material = MATERIALS[rng.pick(type.materials)];
    const noun = rng.pick(type.nouns);
    const showFit = rng.chance(0.8);
    const showMaterial = !showFit || rng.chance(0.75);
    const qualifier = rng.chance(0.12) ? rng.pick(TITLE_QUALIFIERS) : undefined;
    const patternWord = pattern === "solid" ? undefined : PATTERN_WORD[pattern];
    let title = [qualifier, showFit ? fit : undefined, patternWord, showMaterial ? material.name : undefined, noun].filter(Boolean).join(" ");
    if (colourStyle === "prefix") title = `${colours[0].name} ${title}`;
    if (colourStyle === "suffix") title = `${title} in ${colours[0].name}`;
    let handle = slugify(title);
    if (usedHandles.has(handle)) handle = `${handle}-${slugify(store.name)}`;
    if (usedHandles.has(handle)) handle = `${slugify(title)}-${1000 + n}`;
    usedHandles.add(handle);

    const [pmin, pmax] = type.price;
    let basePrice = Math.round(rng.int(pmin, pmax) / 5) * 5;
    if (basePrice > 100 && rng.chance(0.4)) basePrice -= 1;
    const onSale = rng.chance(0.18);
    const discount = onSale ? rng.pick([0.2, 0.25, 0.3, 0.4]) : 0;
    const premiumColour = colours.length > 1 && rng.chance(0.08) ? rng.int(0, colours.length - 1) : -1;
    const soldOut = rng.chance(0.05);
    const status = rng.weighted([["active", 97], ["draft", 2], ["archived", 1]] as const);
    const createdAt = at(BASE - rng.float(1, 730) * DAY);
    const publishedAt = rng.chance(0.015) ? null : rng.chance(0.01) ? at(BASE + rng.float(3, 30) * DAY) : createdAt;
    const id = benchProductGid(n);
    const storeId = storeIds.get(store.key)!;
    const vendorId = vendorIds.get(store.vendor)!;
    const sizes = type.sizes[gender];
    const titleLower = title.toLowerCase();

    const imageFiles = colours.map((c) => renderFor(type, c.name, pattern));
    colours.forEach((c, ci) => {
      images.push({
        id: `gid://shopify/MediaImage/${(1000 + n) * 10 + ci}`,
        product_id: id,
        url: `${DEMO_URL_PREFIX}/${imageFiles[ci]}`,
        altText: `${c.name} ${titleLower}`,
        width: 600,
        height: 800,
        position: ci,
        created_at: createdAt,
      });
    });

    const storeCode = store.monogram.replace(/[^A-Z]/g, "").padEnd(2, "X");
    const prices: number[] = [];
    let totalInventory = 0;
    let available = false;
    colours.forEach((c, ci) => {
      sizes.forEach((size, si) => {
        const edge = si === 0 || si === sizes.length - 1;
        const qty = soldOut ? 0 : rng.chance(0.08) ? 0 : edge ? rng.int(0, 10) : rng.int(2, 34);
        const full = basePrice + (ci === premiumColour ? 10 : 0);
        const price = onSale ? Math.round(full * (1 - discount)) : full;
        const position = ci * sizes.length + si;
        prices.push(price);
        totalInventory += qty;
        if (qty > 0) available = true;
        variants.push({
          id: `gid://shopify/ProductVariant/${(1000 + n) * 100 + position}`,
          product_id: id,
          title: `${c.name} / ${size}`,
          availableForSale: qty > 0,
          price: money(price),
          compareAtPrice: onSale ? money(full) : null,
          sku: `${storeCode}-${1000 + n}-${slugify(c.name).replace(/-/g, "").slice(0, 3).toUpperCase()}-${size.replace(/\s+/g, "")}`,
          inventory_quantity: qty,
          image_url: `${DEMO_URL_PREFIX}/${imageFiles[ci]}`,
          selectedOptions: [
            { name: "Color", value: c.name },
            { name: "Size", value: size },
          ],
          color_hex: c.hex,
          position,
          created_at: createdAt,
          updated_at: createdAt,
        });
      });
    });
    options.push(
      { id: `gid://shopify/ProductOption/${(1000 + n) * 10 + 1}`, product_id: id, name: "Color", values: colours.map((c) => c.name), position: 1 },
      { id: `gid://shopify/ProductOption/${(1000 + n) * 10 + 2}`, product_id: id, name: "Size", values: sizes, position: 2 },
    );

    const neutral = colours.every((c) => c.neutral);
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
        ...(BASE - createdAt.getTime() < 30 * DAY ? ["new-in"] : []),
        ...(pattern === "solid" && neutral ? ["minimalist"] : []),
        ...(["jacket", "parka", "gilet"].includes(type.key) && ["Nylon", "Technical", "Waxed Cotton"].includes(material.name) ? ["outdoor"] : []),
      ]),
    ];
    const lead = ["jeans", "trousers", "shorts", "joggers"].includes(type.noun) ? "A pair of" : /^[AEIOU]/i.test(fit) ? "An" : "A";
    const s1 = `${lead} ${fit.toLowerCase()} ${type.noun} cut from ${material.feel} ${material.name.toLowerCase()}.`;
    const s2 = LEAD_FEEL[type.kind] ?? "";
    const s3 = rng.pick([`Designed by ${store.name} and made in small batches.`, "An easy piece for every day.", `Composition: ${material.composition}.`]);
    const description = `${s1} ${s2} ${s3}`;
    const descriptionHtml = `<p>${s1} ${s2}</p><p>${s3}</p><ul><li><strong>Care:</strong> ${material.care}</li></ul>`;
    const priceMin = Math.min(...prices);
    const priceMax = Math.max(...prices);

    products.push({
      id,
      title,
      handle,
      vendor: store.name,
      availableForSale: available,
      productType: type.productType,
      description,
      descriptionHtml: descriptionHtml.replace(/&/g, "&amp;"),
      featuredImageUrl: `${DEMO_URL_PREFIX}/${imageFiles[0]}`,
      featuredImageAltText: `${colours[0].name} ${titleLower}`,
      priceMin: money(priceMin),
      priceMax: money(priceMax),
      currencyCode: "USD",
      totalInventory,
      tags,
      target_gender: gender,
      status,
      publishedAt,
      store_id: storeId,
      vendor_id: vendorId,
      created_at: createdAt,
      updated_at: createdAt,
    });
    facts.push({
      n,
      id,
      title,
      handle,
      gender,
      type,
      noun,
      fit,
      material,
      pattern,
      colours: colours.map((c) => c.name),
      store,
      priceMin,
      priceMax,
      onSale,
      available,
      visible: status === "active" && publishedAt !== null && publishedAt.getTime() <= Date.now(),
      createdAt,
      popularity: 0.15 + rng.next() ** 3 * 10,
      imageFiles,
    });
  }

  // Stores (after products: banners).
  const stores: Row[] = BENCH_STORES.map((s, i) => {
    const own = facts.find((f) => f.store.key === s.key && f.visible);
    const created = at(BASE - (600 - i * 7) * DAY);
    return {
      id: storeIds.get(s.key)!,
      name: s.name,
      handle: slugify(s.name),
      description: s.description,
      logo_url: null,
      banner_url: own ? `${DEMO_URL_PREFIX}/${own.imageFiles[0]}` : null,
      size_recommendation: s.sizeRecommendation,
      target_gender: s.gender,
      vendor_id: vendorIds.get(s.vendor)!,
      sort_order: i,
      created_at: created,
      updated_at: created,
    };
  });

  // --- Shoppers -----------------------------------------------------------------------------
  const ru = new Random(4711);
  const users: Row[] = [];
  const shoppers: BenchCatalog["shoppers"] = [];
  const shopperCount = Math.max(50, Math.round(N / 10));
  for (let i = 1; i <= shopperCount; i++) {
    const id = demoUuid("bench-user", i);
    const pref = ru.weighted([["menswear", 42], ["womenswear", 45], ["any", 13]] as const);
    const prefs: Gender[] = pref === "any" ? ["menswear", "womenswear", "both"] : [pref, "both"];
    const created = at(BASE - ru.float(30, 700) * DAY);
    users.push({
      id,
      auth_provider: "password",
      email: `shopper${i}@bench.local`,
      first_name: `Shopper`,
      last_name: String(i),
      role: "SHOPPER",
      metadata: { interests: pref === "any" ? "" : pref },
      created_at: created,
      updated_at: created,
    });
    shoppers.push({ id, email: `shopper${i}@bench.local`, prefs });
  }

  // --- Browsing sessions: a seed product, then mostly the same garment and gender -----------
  const visible = facts.filter((f) => f.visible);
  const pickerCache = new Map<string, (r: Random) => ProductFacts>();
  const picker = (key: string, filter: (f: ProductFacts) => boolean) => {
    let p = pickerCache.get(key);
    if (!p) {
      const items = visible.filter(filter);
      p = items.length ? weightedPicker(items, (f) => f.popularity) : weightedPicker(visible, (f) => f.popularity);
      pickerCache.set(key, p);
    }
    return p;
  };
  const forPrefs = (prefs: Gender[]) => picker(`g:${prefs.join(",")}`, (f) => prefs.includes(f.gender));
  const sameType = (f: ProductFacts) => picker(`t:${f.type.key}|${f.gender}`, (x) => x.type.key === f.type.key && (x.gender === f.gender || x.gender === "both"));
  const sameStore = (f: ProductFacts) => picker(`s:${f.store.key}`, (x) => x.store.key === f.store.key);
  const complementOf = (f: ProductFacts, r: Random) => {
    const keys = COMPLEMENTS[f.type.key] ?? [];
    const k = keys.length ? r.pick(keys) : f.type.key;
    return picker(`c:${k}|${f.gender}`, (x) => x.type.key === k && (x.gender === f.gender || x.gender === "both" || f.gender === "both"))(r);
  };

  const rv = new Random(31337);
  const viewEvents: Row[] = [];
  const sessionCount = Math.round(N * 1.5);
  let viewSeq = 0;
  for (let s = 0; s < sessionCount; s++) {
    const signedIn = rv.chance(0.6);
    const shopper = signedIn ? rv.pick(shoppers) : null;
    const prefs: Gender[] = shopper ? shopper.prefs : ["menswear", "womenswear", "both"];
    const sessionId = shopper ? `bench-session-${shopper.id.slice(0, 8)}-${s % 7}` : `bench-anon-${s}`;
    let t = BASE - rv.float(0.02, 90) * DAY;
    const seed = forPrefs(prefs)(rv);
    const length = rv.weighted([[1, 15], [2, 20], [3, 20], [4, 15], [5, 12], [7, 10], [10, 8]] as const);
    let current = seed;
    for (let k = 0; k < length; k++) {
      viewEvents.push({ id: demoUuid("bench-view", viewSeq++), user_id: shopper?.id ?? null, session_id: sessionId, product_id: current.id, created_at: at(Math.min(t, BASE - MINUTE)) });
      t += rv.float(0.3, 6) * MINUTE;
      const move = rv.next();
      current = move < 0.65 ? sameType(seed)(rv) : move < 0.8 ? sameStore(seed)(rv) : move < 0.9 ? complementOf(seed, rv) : forPrefs(prefs)(rv);
    }
  }

  // --- Orders: baskets of complementary garments --------------------------------------------
  const ro = new Random(9001);
  const orders: Row[] = [];
  const orderItems: Row[] = [];
  const purchaseEvents: Row[] = [];
  const orderCount = Math.round(N / 4);
  const variantsOf = new Map<string, Row[]>();
  for (const v of variants) {
    const list = variantsOf.get(v.product_id as string);
    if (list) list.push(v);
    else variantsOf.set(v.product_id as string, [v]);
  }
  for (let k = 1; k <= orderCount; k++) {
    const shopper = ro.chance(0.9) ? ro.pick(shoppers) : null;
    const prefs: Gender[] = shopper ? shopper.prefs : ["menswear", "womenswear", "both"];
    const created = at(BASE - ro.float(0.05, 120) * DAY);
    const orderId = `gid://shopify/Order/${6_000_000 + k}`;
    const cancelled = ro.chance(0.05);
    const itemStatus = cancelled ? "cancelled" : ro.weighted([["delivered", 70], ["shipped", 15], ["fulfilled", 8], ["unfulfilled", 7]] as const);
    const first = forPrefs(prefs)(ro);
    const basket = [first];
    const more = ro.weighted([[0, 35], [1, 35], [2, 20], [3, 10]] as const);
    for (let i = 0; i < more; i++) {
      const next = ro.chance(0.75) ? complementOf(first, ro) : sameStore(first)(ro);
      if (!basket.some((b) => b.id === next.id)) basket.push(next);
    }
    let subtotal = 0;
    basket.forEach((p, i) => {
      const pv = variantsOf.get(p.id)!;
      const v = ro.pick(pv);
      const quantity = ro.chance(0.1) ? 2 : 1;
      subtotal += Number(v.price) * quantity;
      const lineId = `gid://shopify/LineItem/${(6_000_000 + k) * 10 + i}`;
      orderItems.push({
        id: lineId,
        order_id: orderId,
        product_id: p.id,
        variant_id: v.id,
        vendor_id: vendorIds.get(p.store.vendor)!,
        title: p.title,
        variant_title: v.title,
        sku: v.sku,
        quantity,
        price: v.price,
        currencyCode: "USD",
        status: itemStatus,
        image_url: v.image_url,
        created_at: created,
        updated_at: created,
      });
      viewEvents.push({ id: demoUuid("bench-view", viewSeq++), user_id: shopper?.id ?? null, session_id: shopper ? `bench-session-${shopper.id.slice(0, 8)}-o` : `bench-guest-${k}`, product_id: p.id, created_at: at(created.getTime() - ro.float(5, 600) * MINUTE) });
      if (!cancelled) {
        purchaseEvents.push({ id: demoUuid("bench-purchase", lineId), user_id: shopper?.id ?? null, order_id: orderId, product_id: p.id, variant_id: v.id, quantity, created_at: created });
      }
    });
    const shipping = subtotal >= 150 ? 0 : 8;
    const tax = Math.round(subtotal * 0.0825 * 100) / 100;
    orders.push({
      id: orderId,
      name: `#B${k}`,
      order_number: 100_000 + k,
      user_id: shopper?.id ?? null,
      email: shopper ? shopper.email : `guest${k}@example.com`,
      status: cancelled ? "cancelled" : itemStatus === "delivered" ? "closed" : "open",
      financial_status: cancelled ? "REFUNDED" : "PAID",
      fulfillment_status: itemStatus === "unfulfilled" || cancelled ? "UNFULFILLED" : "FULFILLED",
      subtotal_price: money(subtotal),
      total_shipping: money(shipping),
      total_tax: money(tax),
      total_price: money(subtotal + shipping + tax),
      currencyCode: "USD",
      cancelled_at: cancelled ? created : null,
      created_at: created,
      updated_at: created,
    });
  }

  const imageFiles = [...new Set(facts.flatMap((f) => f.imageFiles))].sort();
  return {
    size: N,
    baseDate: base,
    facts,
    shoppers,
    tables: [
      ["vendors", vendors],
      ["stores", stores],
      ["products", products],
      ["product_options", options],
      ["product_variants", variants],
      ["product_images", images],
      ["users", users],
      ["orders", orders],
      ["order_items", orderItems],
      ["product_purchase_events", purchaseEvents],
      ["product_view_events", viewEvents],
    ],
    imageFiles,
    buildMs: performance.now() - started,
  };
}
