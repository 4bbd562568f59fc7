/**
 * What a product is in a look (its garment group) and whether colours go together: the pure part
 * of the outfit proposals, kept apart so it is unit-tested without a database.
 */
export type GarmentGroup = "top" | "bottom" | "one-piece" | "outerwear" | "shoes" | "accessory";

// Order matters: "jacket dress" is a one-piece, "shirt jacket" is outerwear, "sweatshirt" a top.
const RULES: readonly [GarmentGroup, RegExp][] = [
  ["one-piece", /\b(dress(es)?|jumpsuits?|rompers?|playsuits?|overalls?|dungarees?|gowns?)\b/i],
  ["shoes", /\b(shoes?|sneakers?|trainers?|boots?|loafers?|sandals?|heels|mules?|flats|footwear)\b/i],
  ["outerwear", /\b(jackets?|coats?|blazers?|parkas?|overcoats?|gilets?|anoraks?|trench|bombers?|outerwear)\b/i],
  ["bottom", /\b(trousers?|pants|jeans|shorts|skirts?|chinos?|leggings|joggers?|culottes)\b/i],
  ["accessory", /\b(bags?|belts?|hats?|caps?|scarf|scarves|sunglasses|jewell?ery|necklaces?|watch(es)?|accessor(y|ies))\b/i],
  ["top", /\b(t-?shirts?|tees?|shirts?|polos?|blouses?|tops?|hoodies?|sweatshirts?|sweaters?|jumpers?|knitwear|cardigans?|tanks?|camis?)\b/i],
];

/** The garment group from the product type, then the title; null when neither says. */
export function garmentGroupOf(p: { productType: string; title: string }): GarmentGroup | null {
  for (const text of [p.productType, p.title]) {
    if (!text) continue;
    for (const [group, re] of RULES) if (re.test(text)) return group;
  }
  return null;
}

/**
 * The groups that complete a look around a seed's group, in the order they are filled: the first
 * list is required (no look without it), the second is added when the catalogue has one.
 */
export const COMPLEMENTS: Record<GarmentGroup, { required: GarmentGroup[]; optional: GarmentGroup[] }> = {
  top: { required: ["bottom"], optional: ["shoes", "outerwear"] },
  bottom: { required: ["top"], optional: ["shoes", "outerwear"] },
  "one-piece": { required: [], optional: ["shoes", "outerwear", "accessory"] },
  outerwear: { required: ["top", "bottom"], optional: ["shoes"] },
  shoes: { required: ["top", "bottom"], optional: [] },
  accessory: { required: ["top", "bottom"], optional: [] },
};

export type Harmony = "neutral" | "monochrome" | "analogous" | "complementary" | "mixed";

interface Hsl {
  h: number;
  s: number;
  l: number;
}

function hexToHsl(hex: string): Hsl | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const n = parseInt(m[1], 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => v / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l };
  const s = d / (1 - Math.abs(2 * l - 1));
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return { h: (h * 60 + 360) % 360, s, l };
}

/** Black, white, greys, navy-ish darks and washed-out tones go with anything. */
const isNeutral = (c: Hsl) => c.s < 0.18 || c.l < 0.16 || c.l > 0.92;
const hueGap = (x: number, y: number) => Math.min(Math.abs(x - y), 360 - Math.abs(x - y));

/**
 * How the products' main colours (first colour of each; products without one count as neutral)
 * go together. Neutrals never clash; the chromatic ones decide.
 */
export function harmonyOf(mainColours: (string | null)[]): Harmony {
  const chromatic = mainColours.map((h) => (h ? hexToHsl(h) : null)).filter((c): c is Hsl => c !== null && !isNeutral(c));
  if (chromatic.length <= 1) return "neutral";
  let widest = 0;
  for (let i = 0; i < chromatic.length; i++) for (let j = i + 1; j < chromatic.length; j++) widest = Math.max(widest, hueGap(chromatic[i].h, chromatic[j].h));
  if (widest <= 12) return "monochrome";
  if (widest <= 40) return "analogous";
  if (chromatic.length === 2 && widest >= 150) return "complementary";
  return "mixed";
}

export const HARMONY_SCORE: Record<Harmony, number> = { neutral: 1, monochrome: 0.9, analogous: 0.8, complementary: 0.7, mixed: 0.1 };

/** The same products in any order are the same proposal. */
export const proposalKey = (productIds: readonly string[]) => [...productIds].sort().join("|");
