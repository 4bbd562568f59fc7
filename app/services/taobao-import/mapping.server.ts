/**
 * Taobao item → product: options and variants from the SKU properties (Chinese names and values
 * normalised to the store's option names and sizes), prices converted from CNY with the configured
 * rate and pricing rule, target gender inferred, the title read with the garment glossary, material
 * sections parsed from 材质成分. Pure apart from the composition parser it shares with companions.
 *
 * Two phases: `mapItem` (before the images are fetched) refuses items that cannot become a product
 * (no SKUs, a price of zero, too many variants) and reads what it can; `assembleProduct` (after the
 * images) names the colours the glossary did not know from their SKU image's dominant colour and
 * sets each variant's colour hex from its SKU image.
 */
import type { AppConfig } from "~/config.server";
import type { MaterialSection } from "~/contract/companion";
import { compositionText, parseComposition } from "~/services/companion.server";
import type { TaobaoItem } from "~/providers/taobao/port";
import {
  attributeName,
  cleanValue,
  hasCjk,
  optionName,
  readColour,
  readOtherValue,
  readSize,
  readTitle,
  translateAttributeValue,
  type Gender,
  type TitleFacts,
} from "~/providers/taobao/translate";
import { GENDER_TERMS } from "~/providers/taobao/glossary";

/** A refusal of the item itself: retrying cannot help (no SKUs, zero price…). */
export class ImportInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportInputError";
  }
}

export const MAX_VARIANTS = 250;
export const MAX_OPTIONS = 3;
export const MAX_IMAGES = 50;

// ---------------------------------------------------------------------------------------------
// Prices

export type PricingRule = Pick<AppConfig, "TAOBAO_CNY_RATE" | "TAOBAO_PRICE_MARKUP" | "TAOBAO_PRICE_ADD" | "TAOBAO_PRICE_ENDING">;

/** CNY → the store's currency: CNY × rate × markup + add, then the ending (".99": 23.40 → 23.99). */
export function convertPrice(cny: number, rule: PricingRule): string {
  const v = cny * rule.TAOBAO_CNY_RATE * rule.TAOBAO_PRICE_MARKUP + rule.TAOBAO_PRICE_ADD;
  if (rule.TAOBAO_PRICE_ENDING === "none") return (Math.round(v * 100) / 100).toFixed(2);
  const ending = Number(rule.TAOBAO_PRICE_ENDING.startsWith(".") ? `0${rule.TAOBAO_PRICE_ENDING}` : rule.TAOBAO_PRICE_ENDING);
  const whole = Math.max(0, Math.ceil(v - ending - 1e-9));
  return (whole + ending).toFixed(2);
}

// ---------------------------------------------------------------------------------------------
// Store conventions

export interface StoreConventions {
  name: string;
  target_gender: Gender;
  size_recommendation: string | null;
  /** Option names the store's products use ("Color" or "Colour", "Size"). */
  colourOption: string;
  sizeOption: string;
  /** Size values the store's products use ("EU 48", "XXL", "One Size"). */
  sizes: string[];
}

// ---------------------------------------------------------------------------------------------
// Phase 1

export interface MappedColour {
  vid: string;
  raw: string;
  /** The catalogue's colour name, or null when the glossary does not know the value. */
  name: string | null;
  hex: string | null;
  imageUrl: string | null;
}

export interface MappedOption {
  pid: string;
  raw: string;
  name: string;
  role: "colour" | "size" | "other";
  values: { vid: string; raw: string; name: string }[];
}

export interface MappedItem {
  item: TaobaoItem;
  facts: TitleFacts;
  targetGender: Gender;
  productType: string;
  tags: string[];
  tryon: boolean;
  options: MappedOption[];
  colours: MappedColour[];
  materialSections: MaterialSection[];
  /** 材质成分 in English ("95% cotton, 5% elastane"), or null. */
  composition: string | null;
  attributes: { name: string; value: string }[];
  /** Prices by SKU id in the store's currency. */
  prices: Map<string, { price: string; compareAtPrice: string | null }>;
}

function genderOf(item: TaobaoItem, facts: TitleFacts, store: StoreConventions): Gender {
  const attr = item.attributes.find((a) => a.name.includes("性别"))?.value ?? "";
  if (/通用|同款|中性|男女/.test(attr)) return "both";
  const fromAttr = GENDER_TERMS.find(([zh]) => attr.includes(zh))?.[1];
  return fromAttr ?? facts.gender ?? store.target_gender ?? "both";
}

export function mapItem(item: TaobaoItem, store: StoreConventions, rule: PricingRule): MappedItem {
  if (item.skus.length === 0) throw new ImportInputError("The Taobao item has no SKUs: there is nothing to sell");
  if (item.skus.length > MAX_VARIANTS) throw new ImportInputError(`The Taobao item has ${item.skus.length} SKUs; a product holds at most ${MAX_VARIANTS} variants`);
  if (item.skuProperties.length > MAX_OPTIONS) throw new ImportInputError(`The Taobao item has ${item.skuProperties.length} SKU properties; a product holds at most ${MAX_OPTIONS} options`);
  const positive = item.skus.filter((s) => s.priceCny > 0);
  if (item.priceCny <= 0 && positive.length === 0) throw new ImportInputError("The Taobao item has a price of zero");

  const facts = readTitle(item.title);
  const targetGender = genderOf(item, facts, store);

  // Options: colour, size, others; names normalised to the store's.
  const options: MappedOption[] = [];
  const colours: MappedColour[] = [];
  const usedNames = new Set<string>();
  for (const p of item.skuProperties) {
    let name = optionName(p.name);
    const role: MappedOption["role"] = name === "Color" ? "colour" : name === "Size" ? "size" : "other";
    if (role === "colour") name = store.colourOption;
    if (role === "size") name = store.sizeOption;
    if (usedNames.has(name)) name = `${name} ${options.length + 1}`;
    usedNames.add(name);
    const values: MappedOption["values"] = [];
    const seen = new Map<string, number>();
    for (const v of p.values) {
      let valueName: string;
      if (role === "colour") {
        const term = readColour(v.name);
        colours.push({ vid: v.vid, raw: v.name, name: term?.en ?? null, hex: term?.hex ?? null, imageUrl: v.imageUrl });
        valueName = term?.en ?? (cleanValue(v.name).core || v.name);
      } else if (role === "size") valueName = readSize(v.name, store.sizes);
      else valueName = readOtherValue(v.name);
      // Two values that read the same ("黑色" and "A款-黑色"): number the later ones.
      const n = (seen.get(valueName) ?? 0) + 1;
      seen.set(valueName, n);
      values.push({ vid: v.vid, raw: v.name, name: n > 1 ? `${valueName} ${n}` : valueName });
    }
    options.push({ pid: p.pid, raw: p.name, name, role, values });
  }

  const prices = new Map<string, { price: string; compareAtPrice: string | null }>();
  for (const s of item.skus) {
    const cny = s.priceCny > 0 ? s.priceCny : item.priceCny;
    const original = s.originalPriceCny ?? item.originalPriceCny;
    const price = convertPrice(cny, rule);
    const compare = original && original > cny ? convertPrice(original, rule) : null;
    prices.set(s.id, { price, compareAtPrice: compare && Number(compare) > Number(price) ? compare : null });
  }

  // Attributes in English, and the material sections.
  const attributes: { name: string; value: string }[] = [];
  for (const a of item.attributes) {
    const name = attributeName(a.name);
    if (!name) continue;
    attributes.push({ name, value: translateAttributeValue(name, a.value) });
  }
  const compositionSource = item.attributes.find((a) => /材质成分|面料成分|成分含量|材质/.test(a.name))?.value ?? "";
  const fibres = parseComposition([compositionSource, item.title].filter(Boolean).join("，"));
  const composition = fibres.length ? compositionText(fibres.some((f) => f.percent !== null) ? fibres.filter((f) => f.percent !== null || fibres.every((x) => x.percent === null)) : fibres, /混纺/.test(item.title)) : null;
  const sections: MaterialSection[] = [];
  if (composition) sections.push({ title: "Composition", content: composition });
  else if (facts.material) sections.push({ title: "Material", content: facts.material });
  const care = attributes.find((a) => a.name === "Care");
  if (care && !hasCjk(care.value)) sections.push({ title: "Care", content: care.value });
  const weight = attributes.find((a) => a.name === "Weight");
  if (weight && !hasCjk(weight.value)) sections.push({ title: "Weight", content: weight.value });
  if (store.size_recommendation) sections.push({ title: "Fit", content: store.size_recommendation.slice(0, 2000) });

  const productType = facts.garment?.productType ?? "Clothing";
  const tags = [...new Set(["taobao", ...facts.styles, ...facts.seasons, ...(facts.pattern ? [facts.pattern.toLowerCase().replace(/\s+/g, "-")] : []), ...(facts.material ? [facts.material.toLowerCase().replace(/\s+/g, "-")] : [])])];

  return {
    item,
    facts,
    targetGender,
    productType,
    tags,
    tryon: facts.garment?.tryon ?? false,
    options,
    colours,
    materialSections: sections,
    composition,
    attributes,
    prices,
  };
}

// ---------------------------------------------------------------------------------------------
// Phase 2

export interface ImageFacts {
  url: string;
  hex: string | null;
  colourName: string | null;
}

export interface AssembledVariant {
  skuId: string;
  sku: string;
  price: string;
  compareAtPrice: string | null;
  inventoryQuantity: number;
  selectedOptions: { name: string; value: string }[];
  colorHex: string | null;
  /** The stored SKU image of the variant's colour (proposed as the variant image). */
  skuImageUrl: string | null;
}

export interface AssembledProduct {
  options: { name: string; values: string[] }[];
  variants: AssembledVariant[];
  /** Colour names as shown (after naming unknown colours from their images). */
  colourNames: string[];
  sizes: string[];
}

/**
 * Options and variants, final. `skuImage(url)` answers what the images step learnt about a SKU
 * image (its stored URL, dominant colour); null when the item gave none or it was not stored.
 */
export function assembleProduct(m: MappedItem, skuImage: (sourceUrl: string) => ImageFacts | null, opts: { mainImageHex?: string | null } = {}): AssembledProduct {
  const colourOption = m.options.find((o) => o.role === "colour");
  if (colourOption) {
    for (const c of m.colours) {
      const img = c.imageUrl ? skuImage(c.imageUrl) : null;
      if (img?.hex) c.hex = img.hex;
      if (!c.name) {
        const name = img?.colourName ?? (cleanValue(c.raw).core || c.raw);
        const v = colourOption.values.find((x) => x.vid === c.vid);
        if (v && !colourOption.values.some((x) => x !== v && x.name === name)) v.name = name;
        c.name = v?.name ?? name;
      }
    }
  }
  const byPid = new Map(m.options.map((o) => [o.pid, o]));
  const variants: AssembledVariant[] = [];
  const combos = new Set<string>();
  for (const s of m.item.skus) {
    const selected: { name: string; value: string }[] = [];
    let colour: MappedColour | null = null;
    for (const v of s.values) {
      const o = byPid.get(v.pid);
      const value = o?.values.find((x) => x.vid === v.vid);
      if (!o || !value) continue;
      selected.push({ name: o.name, value: value.name });
      if (o.role === "colour") colour = m.colours.find((c) => c.vid === v.vid) ?? null;
    }
    // Keep the options' order on every variant.
    selected.sort((a, b) => m.options.findIndex((o) => o.name === a.name) - m.options.findIndex((o) => o.name === b.name));
    const key = selected.map((x) => `${x.name}=${x.value}`).join("|");
    if (combos.has(key)) continue; // two SKUs for one combination: the first wins
    combos.add(key);
    const img = colour?.imageUrl ? skuImage(colour.imageUrl) : null;
    const p = m.prices.get(s.id)!;
    variants.push({
      skuId: s.id,
      sku: `TB-${m.item.id}-${s.id}`,
      price: p.price,
      compareAtPrice: p.compareAtPrice,
      inventoryQuantity: s.quantity,
      selectedOptions: selected,
      // Without a colour property the product comes in one colour: its main picture's.
      colorHex: colour ? colour.hex : colourOption ? null : (opts.mainImageHex ?? null),
      skuImageUrl: img?.url ?? null,
    });
  }
  // Options keep the values some variant uses, in the shop's order.
  const options = m.options
    .map((o) => ({ name: o.name, values: o.values.map((v) => v.name).filter((name) => variants.some((v) => v.selectedOptions.some((so) => so.name === o.name && so.value === name))) }))
    .filter((o) => o.values.length > 0);
  return {
    options,
    variants,
    colourNames: colourOption ? options.find((o) => o.name === colourOption.name)?.values ?? [] : [],
    sizes: options.find((o) => m.options.find((x) => x.name === o.name)?.role === "size")?.values ?? [],
  };
}
