/**
 * The query parser (pure): turns the filter words of a search into filters and removable chips,
 * and leaves the rest as text. "navy linen shirt for men under $80 size M" →
 * colours [navy], materials [linen], productTypes [Shirts], target_gender menswear, priceMax 80,
 * sizes [M], text "".
 *
 * What it recognises, in this order (each part is removed from the text):
 * - store names (from the catalogue, longest first);
 * - price bounds: "under 50", "below $80", "less than 30", "over 100", "50+", "between 20 and 50",
 *   "20-50", "from 20 to 50";
 * - availability: "in stock", "available";
 * - sizes: "size M", "size 32", "size small", "XL", "XXL", "EU 48", "W32";
 * - gender: "men", "men's", "mens", "for men", "menswear", "for him", "women", "ladies", "for her"…
 *   (both named: no restriction);
 * - materials: "linen", "organic cotton", "merino"… when the catalogue has the word;
 * - colours: the catalogue's colour names and the colour words of ./search-colours.ts when they select a
 *   catalogue colour ("navy" → Navy; "blue" → the blue family);
 * - garment types: a word whose product-type family (typeFamily of similar-products) has catalogue
 *   product types: "shirt" → Shirts, "jumper" → Knitwear, "polo shirt" → Polos.
 * Words consumed as colours, materials and garments stay as relevance hints (`boosts`).
 */
import { canonicalColour, colourLabel, knownColourTerms, resolveColour } from "./search-colours";
import type { FilterKey, SearchFilters } from "./search-filters";
import { GLUE_WORDS, STOP_WORDS, normalizeText, singular, tokenize, type Token } from "./search-text";

export interface ParseContext {
  /** The catalogue's colour names (Color option values). Without them, known colour words are accepted as they are. */
  colourNames?: readonly string[];
  /** The catalogue's product types. Without them (or `typeFamily`), garment words stay text. */
  productTypes?: readonly string[];
  stores?: readonly { id: string; name: string }[];
  /** The catalogue's sizes (Size option values), to keep their spelling ("EU 48"). */
  sizes?: readonly string[];
  /** Whether the catalogue's text has a word; materials are parsed only when it does. */
  hasWord?: (word: string) => boolean;
  /** Product-type family of a garment word or product type ("jumper" → "knitwear"); "other" for none. */
  typeFamily?: (text: string) => string;
}

export interface ParsedChip {
  key: FilterKey;
  value: string | number | boolean;
  label: string;
}

export interface ParsedQuery {
  /** The words left, as typed. */
  text: string;
  /** The words left, normalised, without stop words: what the text search matches. */
  terms: string[];
  /** The filters found. */
  filters: SearchFilters;
  chips: ParsedChip[];
  /** Normalised words consumed as colours, materials and garments (relevance hints). */
  boosts: string[];
}

/** Material words (normalised phrase → filter value). Multi-word ones are matched first. */
export const MATERIALS: Record<string, string> = Object.fromEntries(
  (
    "organic cotton|pima cotton|slub cotton|brushed cotton|waxed cotton|loopback cotton|cotton twill|cotton poplin|" +
    "french terry|boiled wool|merino wool|selvedge denim|raw denim|rigid denim|stretch denim|japanese denim|organic denim|" +
    "linen blend|wool blend|cashmere blend|alpaca blend|mohair blend|faux leather|vegan leather|faux fur|" +
    "cotton|linen|wool|merino|cashmere|silk|satin|velvet|corduroy|tweed|flannel|fleece|jersey|denim|chambray|poplin|oxford|" +
    "seersucker|canvas|twill|suede|leather|nylon|polyester|viscose|rayon|lyocell|tencel|modal|acrylic|lambswool|alpaca|" +
    "mohair|crepe|chiffon|lace|broderie|gabardine|hopsack|boucle|sherpa|pique|shearling|hemp|elastane|spandex|mesh"
  )
    .split("|")
    .map((m) => [m, m]),
);
const MATERIAL_ALIASES: Record<string, string> = { cord: "corduroy", "linen-blend": "linen blend", "wool-blend": "wool blend", "cashmere-blend": "cashmere blend" };

const SIZE_WORDS: Record<string, string> = {
  xxs: "XXS",
  xs: "XS",
  s: "S",
  m: "M",
  l: "L",
  xl: "XL",
  xxl: "XXL",
  xxxl: "XXXL",
  "2xl": "XXL",
  "3xl": "XXXL",
  "4xl": "XXXXL",
  xxxxl: "XXXXL",
  small: "S",
  medium: "M",
  large: "L",
  "extra small": "XS",
  "extra large": "XL",
  "x-large": "XL",
  "xx-large": "XXL",
  "x-small": "XS",
  "one size": "One Size",
};

/** Garment pairs named by their first word (otherwise the last word, the head noun, decides). */
const FIRST_WORD_COMPOUNDS = /^(polo shirts?|polos? shirts?|suit jackets?|tank tops?|vest tops?|sweat ?shirts?)$/;

const MEN = "men|mens|man|male|males|menswear|gents|gentlemen|guys|mans";
const WOMEN = "women|womens|woman|ladies|lady|female|females|womenswear|womans";

/** Tokens with their consumed flags, and the normalised string to run patterns over. */
class Tokens {
  readonly list: Token[];
  readonly used: boolean[];
  constructor(list: Token[]) {
    this.list = list;
    this.used = list.map(() => false);
  }
  get length() {
    return this.list.length;
  }
  /** Index of the first free run of tokens equal to `words`, or -1. */
  find(words: string[], from = 0): number {
    outer: for (let i = from; i + words.length <= this.list.length; i++) {
      for (let j = 0; j < words.length; j++) if (this.used[i + j] || this.list[i + j].norm !== words[j]) continue outer;
      return i;
    }
    return -1;
  }
  take(i: number, n: number) {
    for (let j = i; j < i + n; j++) this.used[j] = true;
  }
  /**
   * Runs a global regex over the normalised tokens joined by spaces; every match that starts and
   * ends on token boundaries and covers free tokens only is handed to `onMatch` (return false to
   * leave it), and its tokens are consumed.
   */
  matchAll(re: RegExp, onMatch: (m: RegExpExecArray) => boolean | void) {
    const starts: number[] = [];
    let s = "";
    for (const t of this.list) {
      if (s) s += " ";
      starts.push(s.length);
      s += t.norm;
    }
    const ends = this.list.map((t, i) => starts[i] + t.norm.length);
    re.lastIndex = 0;
    for (let m = re.exec(s); m; m = re.exec(s)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      const a = starts.indexOf(m.index);
      const b = ends.indexOf(m.index + m[0].length);
      if (a < 0 || b < a || this.used.slice(a, b + 1).some(Boolean)) {
        re.lastIndex = m.index + 1;
        continue;
      }
      if (onMatch(m) !== false) this.take(a, b - a + 1);
      else re.lastIndex = m.index + 1;
    }
  }
}

const NUM = String.raw`[$£€]?(\d+(?:\.\d{1,2})?)[$£€]?(?: ?(?:usd|eur|gbp|dollars?|euros?|pounds?|bucks))?`;

function parsePrice(t: Tokens, f: SearchFilters, chips: ParsedChip[]) {
  const setMin = (v: number) => {
    if (f.priceMin === undefined) f.priceMin = v;
  };
  const setMax = (v: number) => {
    if (f.priceMax === undefined) f.priceMax = v;
  };
  const range = (a: string, b: string) => {
    const [lo, hi] = [Number(a), Number(b)].sort((x, y) => x - y);
    setMin(lo);
    setMax(hi);
  };
  t.matchAll(new RegExp(String.raw`(?:between|from) ${NUM} (?:and|to|-) ${NUM}`, "g"), (m) => range(m[1], m[2]));
  t.matchAll(new RegExp(String.raw`${NUM} ?(?:-|to) ?${NUM}`, "g"), (m) => range(m[1], m[2]));
  t.matchAll(
    new RegExp(String.raw`(?:under|below|less than|cheaper than|up to|upto|max|maximum|no more than|at most|lower than|beneath|within|<=?) ?${NUM}`, "g"),
    (m) => setMax(Number(m[1])),
  );
  t.matchAll(new RegExp(String.raw`${NUM} (?:or less|or under|and under|and below|or below|or cheaper|max)`, "g"), (m) => setMax(Number(m[1])));
  t.matchAll(
    new RegExp(String.raw`(?:over|above|more than|at least|min|minimum|greater than|starting at|from|higher than|>=?) ?${NUM}`, "g"),
    (m) => setMin(Number(m[1])),
  );
  t.matchAll(new RegExp(String.raw`${NUM}(?:\+| or more| and up| and above| or above| plus)`, "g"), (m) => setMin(Number(m[1])));
  if (f.priceMin !== undefined && f.priceMax !== undefined && f.priceMin > f.priceMax) [f.priceMin, f.priceMax] = [f.priceMax, f.priceMin];
  const currency = /£/.test(t.list.map((x) => x.raw).join(" ")) ? "£" : /€/.test(t.list.map((x) => x.raw).join(" ")) ? "€" : "$";
  const money = (n: number) => `${currency}${Number.isInteger(n) ? n : n.toFixed(2)}`;
  if (f.priceMin !== undefined) chips.push({ key: "priceMin", value: f.priceMin, label: `From ${money(f.priceMin)}` });
  if (f.priceMax !== undefined) chips.push({ key: "priceMax", value: f.priceMax, label: `Under ${money(f.priceMax)}` });
}

function catalogueSize(value: string, sizes: readonly string[] | undefined): string {
  const hit = sizes?.find((s) => s.toLowerCase() === value.toLowerCase());
  return hit ?? value;
}

function parseSizes(t: Tokens, ctx: ParseContext, f: SearchFilters, chips: ParsedChip[]) {
  const found: string[] = [];
  const letter = Object.keys(SIZE_WORDS)
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/-/g, "\\-"))
    .join("|");
  const add = (v: string) => {
    const value = catalogueSize(v, ctx.sizes);
    if (!found.some((x) => x.toLowerCase() === value.toLowerCase())) found.push(value);
  };
  // "size M", "size 32", "size eu 48", "size 8.5"
  t.matchAll(new RegExp(String.raw`(?:in )?sizes? (?:(eu|uk|us|it|fr) ?(\d{1,2}(?:\.5)?)|(${letter})|(\d{1,2}(?:\.5)?))(?![\w-])`, "g"), (m) => {
    if (m[1]) add(`${m[1].toUpperCase()} ${m[2]}`);
    else if (m[3]) add(SIZE_WORDS[m[3]]);
    else add(m[4]);
  });
  // Standalone letter sizes that are not words: XS, XL, XXL, 2XL…
  t.matchAll(/(?<![\w-])(?:in )?(xxs|xs|xl|xxl|xxxl|xxxxl|2xl|3xl|4xl|x-large|xx-large|x-small)(?![\w-])/g, (m) => add(SIZE_WORDS[m[1]]));
  // "EU 48" (tailoring), "W32" / "32W" / "waist 32" (jeans and trousers)
  t.matchAll(/(?<![\w-])eu ?(\d{2})(?![\w-])/g, (m) => add(`EU ${m[1]}`));
  t.matchAll(/(?<![\w-])(?:w(\d{2})|(\d{2})w|waist (\d{2}))(?![\w-])/g, (m) => add(m[1] ?? m[2] ?? m[3]));
  if (found.length) {
    f.sizes = found;
    for (const s of found) chips.push({ key: "sizes", value: s, label: `Size ${s}` });
  }
}

function parseGender(t: Tokens, f: SearchFilters, chips: ParsedChip[]) {
  let men = false;
  let women = false;
  t.matchAll(new RegExp(String.raw`(?<![\w-])(?:for )?(?:${MEN})(?![\w-])|(?<![\w-])for him(?![\w-])`, "g"), () => {
    men = true;
  });
  t.matchAll(new RegExp(String.raw`(?<![\w-])(?:for )?(?:${WOMEN})(?![\w-])|(?<![\w-])for her(?![\w-])`, "g"), () => {
    women = true;
  });
  if (men && women) {
    f.target_gender = "both";
    chips.push({ key: "target_gender", value: "both", label: "Men & women" });
  } else if (men) {
    f.target_gender = "menswear";
    chips.push({ key: "target_gender", value: "menswear", label: "Men" });
  } else if (women) {
    f.target_gender = "womenswear";
    chips.push({ key: "target_gender", value: "womenswear", label: "Women" });
  }
}

const titleCase = (s: string) => s.replace(/(^|[\s-])(\p{L})/gu, (_m, sep: string, c: string) => sep + c.toUpperCase());

function phrases<T>(entries: [string, T][]): { words: string[]; value: T }[] {
  return entries.map(([k, value]) => ({ words: k.split(" "), value })).sort((a, b) => b.words.length - a.words.length);
}

/** Parses a search query. `ctx` carries the catalogue's vocabulary (see ParseContext). */
export function parseSearchQuery(query: string, ctx: ParseContext = {}): ParsedQuery {
  const t = new Tokens(tokenize(query));
  const filters: SearchFilters = {};
  const chips: ParsedChip[] = [];
  const boosts: string[] = [];

  // Stores: their names as token sequences, longest first.
  if (ctx.stores?.length) {
    const storePhrases = phrases(ctx.stores.map((s) => [tokenize(s.name).map((x) => x.norm).join(" "), s] as [string, { id: string; name: string }]));
    const ids: string[] = [];
    for (const p of storePhrases) {
      if (!p.words.length || !p.words[0]) continue;
      for (let i = t.find(p.words); i >= 0; i = t.find(p.words, i + 1)) {
        t.take(i, p.words.length);
        if (!ids.includes(p.value.id)) {
          ids.push(p.value.id);
          chips.push({ key: "storeIds", value: p.value.id, label: p.value.name });
        }
      }
    }
    if (ids.length) filters.storeIds = ids;
  }

  parsePrice(t, filters, chips);

  t.matchAll(/(?<![\w-])(?:in stock|in-stock|available now|available)(?![\w-])/g, () => {
    if (!filters.available) chips.push({ key: "available", value: true, label: "In stock" });
    filters.available = true;
  });

  parseSizes(t, ctx, filters, chips);
  parseGender(t, filters, chips);

  // Materials, when the catalogue's text has them.
  const materials: string[] = [];
  for (const p of phrases([...Object.entries(MATERIALS), ...Object.entries(MATERIAL_ALIASES)])) {
    for (let i = t.find(p.words); i >= 0; i = t.find(p.words, i + 1)) {
      const known = !ctx.hasWord || p.value.split(" ").every((w) => ctx.hasWord!(w));
      if (!known) continue;
      t.take(i, p.words.length);
      boosts.push(...p.words);
      if (!materials.includes(p.value)) {
        materials.push(p.value);
        chips.push({ key: "materials", value: p.value, label: titleCase(p.value) });
      }
    }
  }
  if (materials.length) filters.materials = materials;

  // Colours: catalogue names and known colour words that select a catalogue colour.
  const colourTerms = new Set<string>(knownColourTerms().map((c) => c.replace(/-/g, " ")));
  for (const n of ctx.colourNames ?? []) colourTerms.add(tokenize(n).map((x) => x.norm).join(" "));
  const colours: string[] = [];
  for (const p of phrases([...colourTerms].map((c) => [c, c] as [string, string]))) {
    if (!p.words[0]) continue;
    for (let i = t.find(p.words); i >= 0; i = t.find(p.words, i + 1)) {
      const value = canonicalColour(p.value);
      if (ctx.colourNames && resolveColour(value, ctx.colourNames).length === 0) break;
      t.take(i, p.words.length);
      boosts.push(...p.words);
      if (!colours.includes(value)) {
        colours.push(value);
        chips.push({ key: "colors", value, label: colourLabel(value) });
      }
    }
  }
  if (colours.length) filters.colors = colours;

  // Garment types: a free word (or a free pair, "polo shirt") whose family has catalogue types.
  if (ctx.typeFamily && ctx.productTypes?.length) {
    const familyOf = ctx.typeFamily;
    const byFamily = new Map<string, string[]>();
    for (const pt of ctx.productTypes) {
      const fam = familyOf(pt);
      if (fam !== "other") byFamily.set(fam, [...(byFamily.get(fam) ?? []), pt]);
    }
    const types: string[] = [];
    const isWord = (i: number) => i < t.length && !t.used[i] && /^[a-z][a-z-]*$/.test(t.list[i].norm);
    const familyAt = (i: number) => (isWord(i) ? familyOf(t.list[i].norm) : "other");
    for (let i = 0; i < t.length; i++) {
      let family = familyAt(i);
      if (family === "other") continue;
      let len = 1;
      // Two garment words together are one garment: its head noun is the last word ("shirt
      // dress" is a dress), except compounds named by their first word ("polo shirt", "suit jacket").
      const next = familyAt(i + 1);
      if (next !== "other") {
        const pair = `${t.list[i].norm} ${t.list[i + 1].norm}`;
        family = FIRST_WORD_COMPOUNDS.test(pair) ? family : next;
        len = 2;
      }
      const matching = byFamily.get(family);
      if (!matching) continue;
      t.take(i, len);
      for (let j = i; j < i + len; j++) boosts.push(t.list[j].norm);
      for (const pt of matching) {
        if (!types.includes(pt)) {
          types.push(pt);
          chips.push({ key: "productTypes", value: pt, label: pt });
        }
      }
      i += len - 1;
    }
    if (types.length) filters.productTypes = types;
  }

  const parsedSomething = t.used.some(Boolean);
  const left = t.list.filter((_, i) => !t.used[i]).filter((x) => !(parsedSomething && GLUE_WORDS.has(x.norm)));
  const text = left.map((x) => x.raw).join(" ");
  const terms = left.map((x) => x.norm).filter((w) => !STOP_WORDS.has(w) && /[\p{L}\p{N}]/u.test(w));
  return { text, terms: [...new Set(terms)], filters, chips, boosts: [...new Set(boosts.map((b) => singular(normalizeText(b))))] };
}

/** The words of a text for searching, without parsing: normalised, stop words out. */
export function plainTerms(text: string): string[] {
  const terms = tokenize(text)
    .map((x) => x.norm)
    .filter((w) => !STOP_WORDS.has(w) && /[\p{L}\p{N}]/u.test(w));
  return [...new Set(terms)];
}
