/**
 * Colour words of the search (pure). A colour filter value is a lower-case colour term: a basic
 * colour family ("blue"), a shade ("navy"), or one of the catalogue's own colour names
 * ("sky blue"). It selects the catalogue's colour names (the variants' Color option values):
 * - a name equal to the value;
 * - for a family, every catalogue colour of that family ("blue": Navy, Sky Blue, Cobalt, Indigo…);
 * - for a shade the catalogue does not have, its family's colours (navy → a catalogue's "Blue"),
 *   the plain family name when the catalogue has it, else every colour of the family.
 * So synonyms map only onto colours the catalogue really has.
 */

export const COLOUR_FAMILIES = ["black", "white", "grey", "beige", "brown", "red", "pink", "orange", "yellow", "green", "blue", "purple", "multicolour"] as const;
export type ColourFamily = (typeof COLOUR_FAMILIES)[number];

/** Other spellings of the family words. */
const FAMILY_ALIASES: Record<string, ColourFamily> = {
  gray: "grey",
  multicolor: "multicolour",
  "multi-colour": "multicolour",
  "multi-color": "multicolour",
  multi: "multicolour",
};

/** Shades and named colours → family. Multi-word names are matched as phrases. */
export const SHADES: Record<string, ColourFamily> = {
  // black
  onyx: "black",
  "washed black": "black",
  ebony: "black",
  // white
  "off white": "white",
  "off-white": "white",
  ivory: "white",
  cream: "white",
  "optic white": "white",
  // grey
  charcoal: "grey",
  "heather grey": "grey",
  "heather gray": "grey",
  slate: "grey",
  ash: "grey",
  silver: "grey",
  graphite: "grey",
  "light grey": "grey",
  "dark grey": "grey",
  // beige
  ecru: "beige",
  stone: "beige",
  sand: "beige",
  oatmeal: "beige",
  khaki: "beige",
  taupe: "beige",
  nude: "beige",
  bone: "beige",
  // brown
  camel: "brown",
  chocolate: "brown",
  tan: "brown",
  cognac: "brown",
  mocha: "brown",
  coffee: "brown",
  espresso: "brown",
  chestnut: "brown",
  tobacco: "brown",
  // red
  burgundy: "red",
  maroon: "red",
  wine: "red",
  crimson: "red",
  scarlet: "red",
  cherry: "red",
  oxblood: "red",
  // pink
  blush: "pink",
  rose: "pink",
  coral: "pink",
  fuchsia: "pink",
  magenta: "pink",
  salmon: "pink",
  "dusty pink": "pink",
  // orange
  rust: "orange",
  terracotta: "orange",
  apricot: "orange",
  peach: "orange",
  tangerine: "orange",
  copper: "orange",
  // yellow
  mustard: "yellow",
  gold: "yellow",
  lemon: "yellow",
  ochre: "yellow",
  butter: "yellow",
  // green
  olive: "green",
  sage: "green",
  "forest green": "green",
  emerald: "green",
  mint: "green",
  lime: "green",
  "bottle green": "green",
  "army green": "green",
  jade: "green",
  // blue
  navy: "blue",
  cobalt: "blue",
  indigo: "blue",
  "sky blue": "blue",
  "light blue": "blue",
  "dark blue": "blue",
  "royal blue": "blue",
  "baby blue": "blue",
  teal: "blue",
  turquoise: "blue",
  aqua: "blue",
  denim: "blue",
  "mid wash": "blue",
  "light wash": "blue",
  "dark wash": "blue",
  petrol: "blue",
  // purple
  lilac: "purple",
  lavender: "purple",
  violet: "purple",
  plum: "purple",
  mauve: "purple",
  aubergine: "purple",
};

export function normalizeColour(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** The family of a colour word or of a catalogue colour name ("Sky Blue" → blue, "Forest Green" → green), or null. */
export function colourFamily(name: string): ColourFamily | null {
  const n = normalizeColour(name);
  if ((COLOUR_FAMILIES as readonly string[]).includes(n)) return n as ColourFamily;
  if (FAMILY_ALIASES[n]) return FAMILY_ALIASES[n];
  if (SHADES[n]) return SHADES[n];
  // The last word that names a family or a shade: "Washed Black", "Dusty Rose", "Deep Navy".
  const words = n.split(/[\s/-]+/);
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i];
    if ((COLOUR_FAMILIES as readonly string[]).includes(w)) return w as ColourFamily;
    if (FAMILY_ALIASES[w]) return FAMILY_ALIASES[w];
    if (SHADES[w]) return SHADES[w];
  }
  return null;
}

/** Every colour term the parser recognises without the catalogue (families, aliases, shades). */
export function knownColourTerms(): string[] {
  return [...COLOUR_FAMILIES, ...Object.keys(FAMILY_ALIASES), ...Object.keys(SHADES)];
}

/** The canonical filter value of a colour term: aliases become their family ("gray" → "grey"). */
export function canonicalColour(term: string): string {
  const n = normalizeColour(term);
  return FAMILY_ALIASES[n] ?? n.replace(/-/g, " ");
}

/**
 * The catalogue colour names a filter value selects (see the module comment). `names` are the
 * catalogue's colour names as spelled there; the answer keeps their spelling.
 */
export function resolveColour(value: string, names: readonly string[]): string[] {
  const v = canonicalColour(value);
  const exact = names.filter((n) => normalizeColour(n) === v);
  const isFamily = (COLOUR_FAMILIES as readonly string[]).includes(v);
  if (isFamily) {
    return [...new Set([...exact, ...names.filter((n) => colourFamily(n) === v)])];
  }
  if (exact.length) return exact;
  const family = colourFamily(v);
  if (!family) return [];
  const plain = names.filter((n) => normalizeColour(n) === family);
  if (plain.length) return plain;
  return names.filter((n) => colourFamily(n) === family);
}

/** A label for a colour value: "sky blue" → "Sky Blue". */
export function colourLabel(value: string): string {
  return canonicalColour(value).replace(/\b\w/g, (c) => c.toUpperCase());
}
