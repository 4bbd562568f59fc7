/**
 * Translation of Taobao listings with the garment glossary (./glossary.ts): deterministic, no
 * network. Titles are rebuilt from what the words mean ("2026秋冬新款男士宽松纯棉连帽卫衣" →
 * "Relaxed Cotton Hoodie", gender menswear), option values are read as colours, sizes and styles,
 * and the description is written from the item's facts (the glossary cannot translate free prose
 * honestly; a hosted model can: the import asks the language-model port's `translateListing`, whose
 * local adapter answers with `glossaryTranslation` below).
 */
import type { ListingFacts, ListingTranslation } from "~/providers/language-model/port";
import {
  ATTRIBUTE_NAMES,
  CARE_TERMS,
  COLOUR_TERMS,
  FIT_TERMS,
  GARMENT_TERMS,
  GENDER_TERMS,
  HEIGHT_CODES,
  MATERIAL_TERMS,
  NOISE_TERMS,
  PATTERN_TERMS,
  PROPERTY_NAMES,
  SEASON_TERMS,
  STYLE_TERMS,
  VALUE_TERMS,
  WEIGHT_TERMS,
  type ColourTerm,
  type GarmentTerm,
} from "./glossary";

export type Gender = "menswear" | "womenswear" | "both";

type Token =
  | { kind: "garment"; term: GarmentTerm }
  | { kind: "fit"; en: string }
  | { kind: "material"; en: string }
  | { kind: "pattern"; en: string }
  | { kind: "colour"; term: ColourTerm }
  | { kind: "gender"; gender: Gender }
  | { kind: "style"; tag: string }
  | { kind: "season"; tag: string }
  | { kind: "noise" };

interface Entry {
  zh: string;
  token: Token;
}

let entries: Entry[] | null = null;
function dictionary(): Entry[] {
  if (entries) return entries;
  const list: Entry[] = [
    ...GARMENT_TERMS.map((term) => ({ zh: term.zh, token: { kind: "garment", term } as Token })),
    ...FIT_TERMS.map(([zh, en]) => ({ zh, token: { kind: "fit", en } as Token })),
    ...MATERIAL_TERMS.map(({ zh, en }) => ({ zh, token: { kind: "material", en } as Token })),
    ...PATTERN_TERMS.map(([zh, en]) => ({ zh, token: { kind: "pattern", en } as Token })),
    ...COLOUR_TERMS.filter((c) => c.zh.length > 1).map((term) => ({ zh: term.zh, token: { kind: "colour", term } as Token })),
    ...GENDER_TERMS.map(([zh, gender]) => ({ zh, token: { kind: "gender", gender } as Token })),
    ...STYLE_TERMS.map(([zh, tag]) => ({ zh, token: { kind: "style", tag } as Token })),
    ...SEASON_TERMS.map(([zh, tag]) => ({ zh, token: { kind: "season", tag } as Token })),
    ...NOISE_TERMS.map((zh) => ({ zh, token: { kind: "noise" } as Token })),
  ];
  // Longest first; among equal lengths the earlier table wins (garments before fits…).
  entries = list.map((e, i) => ({ e, i })).sort((a, b) => b.e.zh.length - a.e.zh.length || a.i - b.i).map((x) => x.e);
  return entries;
}

/** Greedy longest-match tokenisation; characters no entry covers are skipped. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const dict = dictionary();
  const lower = text.toLowerCase();
  let i = 0;
  while (i < text.length) {
    const hit = dict.find((e) => lower.startsWith(e.zh.toLowerCase(), i));
    if (hit) {
      out.push(hit.token);
      i += hit.zh.length;
    } else i++;
  }
  return out;
}

export interface TitleFacts {
  /** The English title ("Relaxed Striped Cotton T-Shirt"). */
  title: string;
  garment: GarmentTerm | null;
  gender: Gender | null;
  fits: string[];
  material: string | null;
  pattern: string | null;
  colours: string[];
  styles: string[];
  seasons: string[];
}

const uniq = <T>(xs: T[]) => [...new Set(xs)];

/** Reads a Chinese listing title: what it is, for whom, of what, in which cut. */
export function readTitle(zh: string): TitleFacts {
  const tokens = tokenize(zh);
  const garments = tokens.flatMap((t) => (t.kind === "garment" ? [t.term] : []));
  // The last garment word is the thing sold ("衬衫裙" aside, "卫衣外套" is a sweatshirt-jacket: take the last).
  const garment = garments.length ? garments[garments.length - 1] : null;
  const genders = uniq(tokens.flatMap((t) => (t.kind === "gender" ? [t.gender] : [])));
  const gender: Gender | null = genders.includes("both") || (genders.includes("menswear") && genders.includes("womenswear")) ? "both" : (genders[0] ?? null);
  const fits = uniq(tokens.flatMap((t) => (t.kind === "fit" ? [t.en] : []))).filter((f) => !garment || !garment.en.toLowerCase().includes(f.toLowerCase()));
  const materials = tokens.flatMap((t) => (t.kind === "material" ? [t.en] : []));
  const patterns = tokens.flatMap((t) => (t.kind === "pattern" && t.en ? [t.en] : []));
  const colours = uniq(tokens.flatMap((t) => (t.kind === "colour" ? [t.term.en] : [])));
  const styles = uniq(tokens.flatMap((t) => (t.kind === "style" ? [t.tag] : [])));
  const seasons = uniq(tokens.flatMap((t) => (t.kind === "season" ? [t.tag] : [])));
  const material = materials[0] ?? null;
  const pattern = patterns[0] ?? null;
  // At most two cut words, sleeve and neck words after the fit ("Relaxed Long Sleeve").
  const words = [...fits.slice(0, 2), pattern, material && !(garment?.en ?? "").toLowerCase().includes(material.toLowerCase()) ? material : null, garment?.en ?? "Garment"];
  const title = words
    .filter((w): w is string => !!w)
    .join(" ")
    .replace(/\bDenim Denim Jacket\b/, "Denim Jacket")
    .replace(/\s+/g, " ")
    .trim();
  return { title, garment, gender, fits, material, pattern, colours, styles, seasons };
}

// ---------------------------------------------------------------------------------------------
// Option names and values

const CJK = /[\u3400-\u9fff]/;

/** A SKU property name → the store's option name ("颜色分类" → "Color"); unknown Chinese → "Option". */
export function optionName(zh: string): string {
  const v = zh.trim();
  for (const [re, name] of PROPERTY_NAMES) if (re.test(v)) return name;
  if (!CJK.test(v) && v) return v.replace(/^\w/, (c) => c.toUpperCase());
  return "Option";
}

/** Strips what shops wrap values in: "A款-", "【加绒】", "(预售7天)", "（建议100-120斤）". */
export function cleanValue(v: string): { core: string; notes: string[] } {
  const notes: string[] = [];
  let s = v.trim();
  s = s.replace(/[【[（(]([^】\]）)]*)[】\]）)]/g, (_m, inner: string) => {
    notes.push(inner.trim());
    return " ";
  });
  s = s.replace(/^[A-Z0-9]{1,2}款\s*[-—_:：·]?\s*/i, "");
  s = s.replace(/\s*[-—_:：·]\s*(预售|现货).*$/, "");
  return { core: s.replace(/\s+/g, " ").trim(), notes: notes.filter(Boolean) };
}

/** A colour value → the catalogue's colour (name and hex), or null when the glossary does not know it. */
export function readColour(value: string): ColourTerm | null {
  const { core } = cleanValue(value);
  if (!core) return null;
  const exact = COLOUR_TERMS.find((c) => c.zh === core);
  if (exact) return exact;
  // Latin names as shops write them: "Black", "navy".
  const latin = COLOUR_TERMS.find((c) => c.en.toLowerCase() === core.toLowerCase());
  if (latin) return latin;
  const contained = [...COLOUR_TERMS].sort((a, b) => b.zh.length - a.zh.length).find((c) => core.includes(c.zh));
  if (contained) return contained;
  // "雾霾蓝色" → "雾霾蓝": try without the trailing 色.
  if (core.endsWith("色")) return readColour(core.slice(0, -1));
  return null;
}

const LETTERS = ["XXS", "XS", "S", "M", "L", "XL", "XXL", "XXXL", "4XL", "5XL"];

/**
 * A size value → the store's size ("2XL" → "XXL", "S码" → "S", "170/88A(L)" → "L",
 * "170/88A" → "L", "29码" → "29", "均码" → "One Size", "48" with EU store sizes → "EU 48").
 * `known` are the store's own sizes: an equivalent spelling among them wins.
 */
export function readSize(value: string, known: string[] = []): string {
  const raw = value.trim();
  const { core, notes } = cleanValue(raw);
  const inParens = notes.map((n) => n.toUpperCase()).find((n) => LETTERS.includes(normaliseLetter(n)));
  let s = core.replace(/码$/, "").replace(/\s+/g, "").toUpperCase();
  if (/^均码|^F$|^FREE(SIZE)?$|^ONE ?SIZE$/.test(s) || core === "均码") return "One Size";
  const height = /^(\d{3})\/(\d{2,3})[ABY]?$/.exec(s);
  if (height) {
    if (inParens) return normaliseLetter(inParens);
    const h = Number(height[1]);
    let best = HEIGHT_CODES[0][1];
    for (const [cm, letter] of HEIGHT_CODES) if (h >= cm) best = letter;
    return best;
  }
  s = normaliseLetter(s);
  if (/^\d{2}$/.test(s)) {
    const eu = known.find((k) => k.toUpperCase() === `EU ${s}`);
    if (eu) return eu;
  }
  const match = known.find((k) => normaliseLetter(k.toUpperCase()) === s);
  if (match) return match;
  if (LETTERS.includes(s) || /^\d{2,3}(\.\d)?$/.test(s) || /^EU \d{2}$/.test(s)) return s;
  // Anything else: the cleaned text, or the raw value when cleaning left nothing.
  return core || raw;
}

function normaliseLetter(s: string): string {
  const t = s.toUpperCase().replace(/\s+/g, "");
  const m = /^(\d)XL$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    if (n === 1) return "XL";
    if (n === 2) return "XXL";
    if (n === 3) return "XXXL";
    return `${n}XL`;
  }
  if (t === "XXXXL") return "4XL";
  return t;
}

/** Another property's value ("常规款" → "Regular"); unknown Chinese is kept as written. */
export function readOtherValue(value: string): string {
  const { core } = cleanValue(value);
  const hit = VALUE_TERMS.find(([zh]) => core === zh) ?? VALUE_TERMS.find(([zh]) => core.includes(zh));
  if (hit) return hit[1];
  return core || value.trim();
}

// ---------------------------------------------------------------------------------------------
// Attributes and description

export function attributeName(zh: string): string | null {
  const hit = ATTRIBUTE_NAMES.find(([k]) => zh.trim() === k) ?? ATTRIBUTE_NAMES.find(([k]) => zh.includes(k));
  return hit ? hit[1] : null;
}

/** Attribute values in English where the glossary reads them (genders, weights, care words, materials). */
export function translateAttributeValue(name: string, value: string): string {
  const v = value.trim();
  if (name === "Gender") {
    const g = GENDER_TERMS.find(([zh]) => v.includes(zh));
    return g ? { menswear: "Men", womenswear: "Women", both: "Unisex" }[g[1]] : v;
  }
  if (name === "Weight") return WEIGHT_TERMS.find(([zh]) => v.includes(zh))?.[1] ?? v;
  if (name === "Care") {
    // Longest words first, each part of the text read once ("不可机洗" is not also "机洗").
    const parts: string[] = [];
    const sorted = [...CARE_TERMS].sort((a, b) => b[0].length - a[0].length);
    for (let i = 0; i < v.length; ) {
      const hit = sorted.find(([zh]) => v.startsWith(zh, i));
      if (hit) {
        parts.push(hit[1]);
        i += hit[0].length;
      } else i++;
    }
    return parts.length ? parts.join(", ").replace(/^./, (c) => c.toUpperCase()) : v;
  }
  if (name === "Season") return SEASON_TERMS.find(([zh]) => v.includes(zh))?.[1].replace(/-/g, " / ") ?? v;
  if (name === "Style") return STYLE_TERMS.find(([zh]) => v.includes(zh))?.[1].replace(/-/g, " ") ?? v;
  if (name === "Fit") return FIT_TERMS.find(([zh]) => v.includes(zh))?.[1] ?? v;
  return v;
}

export const hasCjk = (s: string) => CJK.test(s);

/** The port owns the shape (the facts travel to whichever model translates); this is its name here. */
export type DescriptionFacts = ListingFacts;

const GENDER_WORDS: Record<Gender, string> = { menswear: "for men", womenswear: "for women", both: "for everyone" };

/** The English description from the item's facts, as a few short paragraphs of HTML-safe text. */
export function describe(f: DescriptionFacts): string[] {
  const lines: string[] = [];
  const lead = `${f.title} ${GENDER_WORDS[f.gender]}${f.material ? `, in ${f.material.toLowerCase()}` : ""}.`;
  lines.push(lead);
  const fit = f.attributes.find((a) => a.name === "Fit")?.value;
  const weight = f.attributes.find((a) => a.name === "Weight")?.value;
  const season = f.attributes.find((a) => a.name === "Season")?.value;
  const details = [fit && !hasCjk(fit) ? `${fit} fit` : null, weight && !hasCjk(weight) ? `${weight.toLowerCase()} weight` : null, season && !hasCjk(season) ? `for ${season}` : null].filter(Boolean);
  if (details.length) lines.push(`${details.join(", ").replace(/^./, (c) => c.toUpperCase())}.`);
  if (f.colours.length) lines.push(`Available in ${listWords(f.colours)}${f.sizes.length ? `, sizes ${sizeRange(f.sizes)}` : ""}.`);
  else if (f.sizes.length) lines.push(`Sizes ${sizeRange(f.sizes)}.`);
  return lines;
}

/** The translation the glossary gives: its title, and the description written from the facts. */
export function glossaryTranslation(facts: DescriptionFacts): ListingTranslation {
  return { title: facts.title, description: describe(facts), provider: "local" };
}

export function listWords(xs: string[]): string {
  if (xs.length <= 1) return xs.join("");
  return `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}

function sizeRange(sizes: string[]): string {
  if (sizes.length <= 2) return sizes.join(" and ");
  return `${sizes[0]} to ${sizes[sizes.length - 1]}`;
}
