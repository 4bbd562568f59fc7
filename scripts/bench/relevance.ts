/**
 * The labelled relevance set of the search benchmark: queries a shopper types, each with the
 * products that answer it, derived from the generator's known attributes (./catalog.ts facts), so
 * the labels hold at any catalogue size. Only products a shopper may see count.
 *
 * A product is relevant when it matches every attribute the query names:
 * - garment: the product's type (a "shirt" is a shirt or a blouse, not a t-shirt or a polo shirt;
 *   a "coat" may be a parka); a named garment phrase ("trench coat", "midi dress") must be in the
 *   product's noun;
 * - colour: one of the product's colours has the word ("white" → Off White, "grey" → Heather Grey);
 * - material: the material's name has the words ("linen" → Linen and Linen-Blend);
 * - fit, pattern, store: the product's own;
 * - gender ("mens", "women's"): the product's target gender, or unisex;
 * - price ("under 60"): the lowest variant price is at most 60 ("over 400": the highest at least 400).
 * Typos and prefixes carry the labels of the query they stand for.
 *
 * Metrics, over the first 10 results: recall@10 = relevant found / min(10, relevant products)
 * (capped, so a broad query with 900 relevant products can reach 1), and MRR@10 = mean of
 * 1 / rank of the first relevant result (0 when none is in the first 10).
 */
import type { ProductFacts } from "./catalog";

export type QueryKind = "plain" | "synonym" | "typo" | "prefix" | "parsed" | "gendered" | "pattern" | "fit" | "store";

export interface LabelledQuery {
  q: string;
  kind: QueryKind;
  /** The query it stands for (typos, prefixes). */
  intended?: string;
  relevant: Set<string>;
}

interface Spec {
  type?: string[];
  noun?: string[];
  colour?: string;
  material?: string;
  fit?: string;
  pattern?: "stripes" | "check" | "dots";
  store?: string;
  gender?: "menswear" | "womenswear";
  under?: number;
  over?: number;
}

const words = (s: string) => s.toLowerCase().split(/[\s-]+/).filter(Boolean);

function matches(f: ProductFacts, s: Spec): boolean {
  if (s.type && !s.type.includes(f.type.key)) return false;
  if (s.noun && !s.noun.some((n) => f.noun.toLowerCase().includes(n))) return false;
  if (s.colour) {
    const want = words(s.colour);
    if (!f.colours.some((c) => want.every((w) => words(c).includes(w)))) return false;
  }
  if (s.material) {
    const want = words(s.material);
    const have = words(f.material.name);
    if (!want.every((w) => have.includes(w))) return false;
  }
  if (s.fit && f.fit.toLowerCase() !== s.fit.toLowerCase()) return false;
  if (s.pattern && f.pattern !== s.pattern) return false;
  if (s.store && f.store.name.toLowerCase() !== s.store.toLowerCase()) return false;
  if (s.gender && f.gender !== s.gender && f.gender !== "both") return false;
  if (s.under !== undefined && f.priceMin > s.under) return false;
  if (s.over !== undefined && f.priceMax < s.over) return false;
  return true;
}

/** Shirts include blouses (the same garment family for shoppers and in app/services/similar-products). */
const SHIRT = ["shirt", "blouse"];
/** Coats include parkas (product type "Coats"). */
const COAT = ["coat", "parka"];
const CHINOS = (f: ProductFacts) => f.type.key === "trousers" && (f.noun === "Chinos" || f.material.name === "Chino");

/** [query, kind, spec, intended?] — kept in one readable table. */
const QUERIES: [string, QueryKind, Spec | ((f: ProductFacts) => boolean), string?][] = [
  // plain: garment with colour, material, named styles
  ["navy linen shirt", "plain", { type: SHIRT, colour: "navy", material: "linen" }],
  ["white oxford shirt", "plain", { type: SHIRT, colour: "white", material: "oxford" }],
  ["black t-shirt", "plain", { type: ["t-shirt"], colour: "black" }],
  ["grey hoodie", "plain", { type: ["hoodie"], colour: "grey" }],
  ["cashmere sweater", "plain", { type: ["sweater"], material: "cashmere" }],
  ["merino cardigan", "plain", { type: ["cardigan"], material: "merino" }],
  ["camel wool coat", "plain", { type: COAT, colour: "camel", material: "wool" }],
  ["olive utility jacket", "plain", { noun: ["utility jacket"], colour: "olive" }],
  ["silk slip dress", "plain", { noun: ["slip dress"], material: "silk" }],
  ["linen trousers", "plain", { type: ["trousers"], material: "linen" }],
  ["selvedge jeans", "plain", { type: ["jeans"], material: "selvedge" }],
  ["corduroy trousers", "plain", { type: ["trousers"], material: "corduroy" }],
  ["denim skirt", "plain", { type: ["skirt"], material: "denim" }],
  ["suede jacket", "plain", { type: ["jacket"], material: "suede" }],
  ["tweed blazer", "plain", { type: ["blazer"], material: "tweed" }],
  ["linen blazer", "plain", { type: ["blazer"], material: "linen" }],
  ["fleece hoodie", "plain", { type: ["hoodie"], material: "fleece" }],
  ["navy polo shirt", "plain", { type: ["polo"], colour: "navy" }],
  ["satin midi skirt", "plain", { noun: ["midi skirt"], material: "satin" }],
  ["wrap dress", "plain", { noun: ["wrap dress"] }],
  ["trench coat", "plain", { noun: ["trench coat"] }],
  ["bomber jacket", "plain", { noun: ["bomber jacket"] }],
  ["puffer vest", "plain", { noun: ["puffer vest"] }],
  ["silk blouse", "plain", { type: ["blouse"], material: "silk" }],
  ["linen jumpsuit", "plain", { type: ["jumpsuit"], material: "linen" }],
  ["track pants", "plain", { noun: ["track pants"] }],
  ["mustard cardigan", "plain", { type: ["cardigan"], colour: "mustard" }],
  ["sage midi dress", "plain", { noun: ["midi dress"], colour: "sage" }],
  ["washed black jeans", "plain", { type: ["jeans"], colour: "washed black" }],
  ["light wash jeans", "plain", { type: ["jeans"], colour: "light wash" }],
  ["forest green sweater", "plain", { type: ["sweater"], colour: "forest green" }],
  ["stone chinos", "plain", (f) => CHINOS(f) && f.colours.includes("Stone")],
  ["cardigan", "plain", { type: ["cardigan"] }],
  ["parka", "plain", { type: ["parka"] }],
  ["lambswool jumper", "plain", { type: ["sweater"], material: "lambswool" }],
  ["seersucker shorts", "plain", { type: ["shorts"], material: "seersucker" }],

  // synonyms (words the catalogue's titles do not use)
  ["pullover", "synonym", (f) => f.type.key === "sweater" || f.noun.toLowerCase().includes("pullover")],
  ["slacks", "synonym", { type: ["trousers"] }],
  ["sweatpants", "synonym", { type: ["joggers"] }],
  ["anorak", "synonym", { type: ["parka"] }],
  ["tshirt", "synonym", { type: ["t-shirt"] }],
  ["knitwear", "synonym", { type: ["sweater", "cardigan"] }],

  // typos (the labels of the intended query)
  ["shrit", "typo", { type: SHIRT }, "shirt"],
  ["jaket", "typo", { type: ["jacket"] }, "jacket"],
  ["sweter", "typo", { type: ["sweater"] }, "sweater"],
  ["hoddie", "typo", { type: ["hoodie"] }, "hoodie"],
  ["trousres", "typo", { type: ["trousers"] }, "trousers"],
  ["cardigen", "typo", { type: ["cardigan"] }, "cardigan"],
  ["blazr", "typo", { type: ["blazer"] }, "blazer"],
  ["lnen shirt", "typo", { type: SHIRT, material: "linen" }, "linen shirt"],
  ["cashmire sweater", "typo", { type: ["sweater"], material: "cashmere" }, "cashmere sweater"],
  ["jeens", "typo", { type: ["jeans"] }, "jeans"],
  ["skrit", "typo", { type: ["skirt"] }, "skirt"],
  ["blouce", "typo", { type: ["blouse"] }, "blouse"],
  ["navy linnen shirt", "typo", { type: SHIRT, colour: "navy", material: "linen" }, "navy linen shirt"],
  ["corduory trousers", "typo", { type: ["trousers"], material: "corduroy" }, "corduroy trousers"],
  ["merino cardgan", "typo", { type: ["cardigan"], material: "merino" }, "merino cardigan"],

  // prefixes (as typed, before the word is finished)
  ["hood", "prefix", { type: ["hoodie"] }, "hoodie"],
  ["cardi", "prefix", { type: ["cardigan"] }, "cardigan"],
  ["blaz", "prefix", { type: ["blazer"] }, "blazer"],
  ["trou", "prefix", { type: ["trousers"] }, "trousers"],
  ["jumps", "prefix", { type: ["jumpsuit"] }, "jumpsuit"],
  ["corduro", "prefix", { material: "corduroy" }, "corduroy"],
  ["gile", "prefix", { type: ["gilet"] }, "gilet"],
  ["linen shi", "prefix", { type: SHIRT, material: "linen" }, "linen shirt"],

  // parsed: price clauses
  ["black jeans under 60", "parsed", { type: ["jeans"], colour: "black", under: 60 }],
  ["black jeans under 100", "parsed", { type: ["jeans"], colour: "black", under: 100 }],
  ["linen shirt under 50", "parsed", { type: SHIRT, material: "linen", under: 50 }],
  ["wool coat under 250", "parsed", { type: COAT, material: "wool", under: 250 }],
  ["dress under 100", "parsed", { type: ["dress"], under: 100 }],
  ["cashmere sweater under 150", "parsed", { type: ["sweater"], material: "cashmere", under: 150 }],
  ["hoodie under 60", "parsed", { type: ["hoodie"], under: 60 }],
  ["white tee under 30", "parsed", { type: ["t-shirt"], colour: "white", under: 30 }],
  ["blazer under $200", "parsed", { type: ["blazer"], under: 200 }],
  ["coats over 400", "parsed", { type: COAT, over: 400 }],

  // gendered
  ["mens linen shirt", "gendered", { type: SHIRT, material: "linen", gender: "menswear" }],
  ["womens wool coat", "gendered", { type: COAT, material: "wool", gender: "womenswear" }],
  ["men's hoodie", "gendered", { type: ["hoodie"], gender: "menswear" }],
  ["women's jeans", "gendered", { type: ["jeans"], gender: "womenswear" }],
  ["mens black jeans", "gendered", { type: ["jeans"], colour: "black", gender: "menswear" }],
  ["womens linen trousers", "gendered", { type: ["trousers"], material: "linen", gender: "womenswear" }],
  ["men's cashmere sweater", "gendered", { type: ["sweater"], material: "cashmere", gender: "menswear" }],
  ["women's blazer", "gendered", { type: ["blazer"], gender: "womenswear" }],
  ["mens shorts", "gendered", { type: ["shorts"], gender: "menswear" }],
  ["womens parka", "gendered", { type: ["parka"], gender: "womenswear" }],
  ["mens black jeans under 100", "gendered", { type: ["jeans"], colour: "black", gender: "menswear", under: 100 }],

  // patterns
  ["striped t-shirt", "pattern", { type: ["t-shirt"], pattern: "stripes" }],
  ["polka dot dress", "pattern", { type: ["dress"], pattern: "dots" }],
  ["checked blazer", "pattern", { type: ["blazer"], pattern: "check" }],
  ["striped shirt", "pattern", { type: SHIRT, pattern: "stripes" }],
  ["checked coat", "pattern", { type: COAT, pattern: "check" }],
  ["polka dot blouse", "pattern", { type: ["blouse"], pattern: "dots" }],

  // fits
  ["oversized hoodie", "fit", { type: ["hoodie"], fit: "oversized" }],
  ["wide-leg trousers", "fit", { type: ["trousers"], fit: "wide-leg" }],
  ["double-breasted coat", "fit", { type: COAT, fit: "double-breasted" }],
  ["slim jeans", "fit", { type: ["jeans"], fit: "slim" }],
  ["relaxed linen shirt", "fit", { type: SHIRT, fit: "relaxed", material: "linen" }],
  ["chunky cardigan", "fit", { type: ["cardigan"], fit: "chunky" }],
  ["high-waisted trousers", "fit", { type: ["trousers"], fit: "high-waisted" }],

  // stores
  ["northwind shirt", "store", { type: SHIRT, store: "Northwind" }],
  ["tidewater denim jeans", "store", { type: ["jeans"], store: "Tidewater Denim" }],
  ["kestrel outdoor jacket", "store", { type: ["jacket"], store: "Kestrel Outdoor" }],
  ["marlowe dress", "store", { type: ["dress"], store: "Marlowe" }],
  ["quarry knitwear cardigan", "store", { type: ["cardigan"], store: "Quarry Knitwear" }],
];

export function buildLabelledQueries(facts: ProductFacts[]): { queries: LabelledQuery[]; dropped: string[] } {
  const visible = facts.filter((f) => f.visible);
  const queries: LabelledQuery[] = [];
  const dropped: string[] = [];
  for (const [q, kind, spec, intended] of QUERIES) {
    const test = typeof spec === "function" ? spec : (f: ProductFacts) => matches(f, spec);
    const relevant = new Set(visible.filter(test).map((f) => f.id));
    if (relevant.size === 0) dropped.push(q);
    else queries.push({ q, kind, intended, relevant });
  }
  return { queries, dropped };
}

export interface QueryScore {
  q: string;
  kind: QueryKind;
  relevantCount: number;
  returned: number;
  hitsAt10: number;
  recallAt10: number;
  rrAt10: number;
}

export function scoreQuery(lq: LabelledQuery, rankedIds: string[]): QueryScore {
  const top = rankedIds.slice(0, 10);
  const hits = top.filter((id) => lq.relevant.has(id)).length;
  const first = top.findIndex((id) => lq.relevant.has(id));
  return {
    q: lq.q,
    kind: lq.kind,
    relevantCount: lq.relevant.size,
    returned: rankedIds.length,
    hitsAt10: hits,
    recallAt10: hits / Math.min(10, lq.relevant.size),
    rrAt10: first >= 0 ? 1 / (first + 1) : 0,
  };
}

export function aggregate(scores: QueryScore[]): { n: number; recallAt10: number; mrrAt10: number; zeroResults: number } {
  const n = scores.length;
  const mean = (f: (s: QueryScore) => number) => (n ? scores.reduce((a, s) => a + f(s), 0) / n : 0);
  return { n, recallAt10: mean((s) => s.recallAt10), mrrAt10: mean((s) => s.rrAt10), zeroResults: scores.filter((s) => s.returned === 0).length };
}
