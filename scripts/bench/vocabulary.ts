/**
 * Vocabulary of the benchmark catalogue: the demo data's garments, colours, materials and stores
 * (prisma/demo/catalog-data.ts), extended so that 20,000 products look like a real multi-brand
 * catalogue: more garment types (drawn with the image of a related demo garment), more title
 * words, and more stores and vendors. Nothing here renders images: products point at the demo
 * renders (`/uploads/images/demo/<type>-<colour>-<pattern>.jpg`).
 */
import { GARMENTS, STORES, VENDORS, type Gender, type GarmentType, type StoreDef, type VendorDef } from "../../prisma/demo/catalog-data";

export interface BenchGarment extends GarmentType {
  /** The demo garment whose renders this type uses (its own key for demo types). */
  imageKey: string;
  /** Generic words a shopper types for this type ("shirt", "tee"…), first one canonical. */
  words: string[];
}

const byKey = (k: string) => {
  const g = GARMENTS.find((x) => x.key === k);
  if (!g) throw new Error(`unknown demo garment ${k}`);
  return g;
};

const WORDS: Record<string, string[]> = {
  "t-shirt": ["t-shirt", "tee", "tshirt"],
  polo: ["polo", "polo shirt"],
  shirt: ["shirt", "overshirt"],
  hoodie: ["hoodie", "sweatshirt"],
  sweater: ["sweater", "jumper", "knit"],
  cardigan: ["cardigan"],
  jacket: ["jacket"],
  coat: ["coat", "overcoat"],
  blazer: ["blazer", "suit jacket"],
  jeans: ["jeans", "denim"],
  trousers: ["trousers", "pants", "chinos"],
  shorts: ["shorts"],
  dress: ["dress"],
  skirt: ["skirt"],
};

/** Garment types added for the benchmark; each borrows the renders of a demo garment. */
const EXTRA: (Omit<BenchGarment, "sizes" | "tryon" | "top"> & { like: string })[] = [
  {
    key: "joggers",
    like: "trousers",
    imageKey: "trousers",
    kind: "trousers",
    productType: "Joggers",
    noun: "joggers",
    zh: "运动裤",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Relaxed", "Tapered", "Slim", "Wide-Leg", "Drawstring"],
    materials: ["Fleece", "Loopback Cotton", "French Terry", "Jersey", "Technical"],
    nouns: ["Joggers", "Sweatpants", "Track Pants"],
    price: [45, 130],
    colours: ["Black", "Navy", "Charcoal", "Olive", "Stone", "Khaki"],
    patterns: {},
    weight: { menswear: 5, womenswear: 3, both: 6 },
    words: ["joggers", "sweatpants", "track pants"],
  },
  {
    key: "gilet",
    like: "jacket",
    imageKey: "jacket",
    kind: "jacket",
    productType: "Gilets",
    noun: "gilet",
    zh: "马甲",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Padded", "Lightweight", "Quilted", "Classic", "Cropped"],
    materials: ["Nylon", "Technical", "Fleece", "Waxed Cotton", "Wool-Blend"],
    nouns: ["Gilet", "Puffer Vest", "Quilted Gilet", "Body Warmer"],
    price: [70, 240],
    colours: ["Black", "Navy", "Olive", "Khaki", "Stone", "Forest Green", "Chocolate"],
    patterns: {},
    weight: { menswear: 3, womenswear: 2, both: 3 },
    words: ["gilet", "vest", "body warmer"],
  },
  {
    key: "tank",
    like: "t-shirt",
    imageKey: "t-shirt",
    kind: "tshirt",
    productType: "Tank Tops",
    noun: "tank top",
    zh: "背心",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Ribbed", "Relaxed", "Slim", "Cropped", "Classic"],
    materials: ["Cotton", "Organic Cotton", "Jersey", "Linen-Blend", "Pima Cotton"],
    nouns: ["Tank Top", "Vest Top", "Ribbed Tank"],
    price: [19, 55],
    colours: ["Black", "Off White", "Navy", "Heather Grey", "Sage", "Terracotta", "Lilac", "Sand"],
    patterns: { stripes: 0.1 },
    weight: { menswear: 3, womenswear: 5, both: 3 },
    words: ["tank top", "tank", "vest top"],
  },
  {
    key: "blouse",
    like: "shirt",
    imageKey: "shirt",
    kind: "shirt",
    productType: "Blouses",
    noun: "blouse",
    zh: "女士衬衫",
    genders: ["womenswear"],
    fits: ["Relaxed", "Fluid", "Puff-Sleeve", "Cropped", "Classic", "Oversized"],
    materials: ["Silk", "Crepe", "Satin", "Cotton Poplin", "Broderie", "Linen"],
    nouns: ["Blouse", "Pussy-Bow Blouse", "Peasant Blouse", "Tie-Neck Blouse"],
    price: [55, 220],
    colours: ["Off White", "Sky Blue", "Black", "Blush", "Ecru", "Sage", "Navy", "Rust"],
    patterns: { stripes: 0.1, dots: 0.08 },
    weight: { womenswear: 8 },
    words: ["blouse"],
  },
  {
    key: "jumpsuit",
    like: "dress",
    imageKey: "dress",
    kind: "dress",
    productType: "Jumpsuits",
    noun: "jumpsuit",
    zh: "连体裤",
    genders: ["womenswear"],
    fits: ["Belted", "Relaxed", "Wide-Leg", "Utility", "Fitted"],
    materials: ["Linen", "Crepe", "Jersey", "Cotton Twill", "Satin"],
    nouns: ["Jumpsuit", "Boiler Suit", "Playsuit"],
    price: [80, 260],
    colours: ["Black", "Navy", "Sage", "Terracotta", "Cream", "Cobalt", "Forest Green"],
    patterns: {},
    weight: { womenswear: 4 },
    words: ["jumpsuit", "boiler suit", "playsuit"],
  },
  {
    key: "parka",
    like: "coat",
    imageKey: "coat",
    kind: "coat",
    productType: "Coats",
    noun: "parka",
    zh: "派克大衣",
    genders: ["menswear", "womenswear", "both"],
    fits: ["Padded", "Longline", "Hooded", "Oversized", "Classic"],
    materials: ["Nylon", "Technical", "Waxed Cotton", "Cotton Twill"],
    nouns: ["Parka", "Puffer Coat", "Quilted Coat", "Down Parka"],
    price: [160, 520],
    colours: ["Black", "Navy", "Camel", "Forest Green", "Charcoal", "Stone", "Chocolate"],
    patterns: {},
    weight: { menswear: 4, womenswear: 4, both: 4 },
    words: ["parka", "puffer"],
  },
];

export const BENCH_GARMENTS: BenchGarment[] = [
  ...GARMENTS.map((g) => ({ ...g, imageKey: g.key, words: WORDS[g.key] ?? [g.noun] })),
  ...EXTRA.map(({ like, ...g }) => {
    const base = byKey(like);
    return { ...g, sizes: base.sizes, tryon: base.tryon, top: base.top };
  }),
];

/** Words some titles start with (a collection line or a season), for realistic variety. */
export const TITLE_QUALIFIERS = ["Everyday", "Weekend", "Heritage", "Utility", "Summer", "Winter", "Travel", "Studio", "Signature", "Archive", "Coastal", "City"];

/** Vendors added for the benchmark (the demo's seven plus these). */
export const BENCH_VENDORS: VendorDef[] = [
  ...VENDORS,
  { key: "harbour", name: "Harbour & Pine Ltd", handle: "harbour-and-pine", commission: 15, email: "trade@harbourpine.example" },
  { key: "marlowe", name: "Marlowe Group", handle: "marlowe-group", commission: 16, email: "wholesale@marlowe.example" },
  { key: "fjord", name: "Fjord Supply AS", handle: "fjord-supply", commission: 13, email: "hei@fjordsupply.example" },
  { key: "copperline", name: "Copperline Mills", handle: "copperline-mills", commission: 14, email: "mill@copperline.example" },
  { key: "larkspur", name: "Larkspur Studio", handle: "larkspur-studio", commission: 18, email: "studio@larkspur.example" },
  { key: "ironbridge", name: "Ironbridge Outfitters", handle: "ironbridge-outfitters", commission: 12, email: "ops@ironbridge.example" },
  { key: "solstice", name: "Solstice Collective", handle: "solstice-collective", commission: 17, email: "hello@solstice.example" },
  { key: "quarry", name: "Quarry Knitting Co.", handle: "quarry-knitting", commission: 15, email: "knit@quarry.example" },
];

const S = (key: string, name: string, vendor: string, gender: Gender, focus: string[], description: string): StoreDef => ({
  key,
  name,
  vendor,
  gender,
  focus,
  description,
  sizeRecommendation: "True to size; see the size chart for measurements.",
  monogram: name
    .split(/\s+/)
    .filter((w) => /^[A-Z]/.test(w))
    .map((w) => w[0])
    .join("")
    .slice(0, 2),
  logoColor: "#3a3d42",
});

/** Stores added for the benchmark (the demo's fourteen plus these). */
export const BENCH_STORES: StoreDef[] = [
  ...STORES,
  S("harbour-and-pine", "Harbour & Pine", "harbour", "menswear", ["shirt", "sweater", "jacket"], "Coastal menswear in linen, cotton and lambswool."),
  S("harbour-women", "Harbour & Pine Women", "harbour", "womenswear", ["blouse", "dress", "cardigan"], "Relaxed coastal womenswear."),
  S("marlowe", "Marlowe", "marlowe", "womenswear", ["dress", "blouse", "skirt", "jumpsuit"], "Occasion dresses and fluid separates."),
  S("marlowe-men", "Marlowe Men", "marlowe", "menswear", ["blazer", "trousers", "shirt"], "Soft tailoring for men."),
  S("odessa-row", "Odessa Row", "marlowe", "both", ["t-shirt", "hoodie", "joggers"], "Heavyweight basics and loungewear."),
  S("fjord-supply", "Fjord Supply", "fjord", "both", ["parka", "gilet", "jacket", "sweater"], "Nordic outerwear for long winters."),
  S("fjord-trail", "Fjord Trail", "fjord", "menswear", ["jacket", "joggers", "gilet"], "Technical layers for the trail."),
  S("copperline-denim", "Copperline Denim", "copperline", "both", ["jeans", "jacket", "shirt"], "Selvedge denim from our own looms."),
  S("copperline-women", "Copperline Women", "copperline", "womenswear", ["jeans", "skirt", "jumpsuit"], "Women's denim cut for real bodies."),
  S("larkspur", "Larkspur", "larkspur", "womenswear", ["dress", "skirt", "blouse", "cardigan"], "Romantic prints and soft colours."),
  S("wren-and-co", "Wren & Co", "larkspur", "womenswear", ["tank", "t-shirt", "shorts"], "Summer staples in organic cotton."),
  S("ironbridge-workwear", "Ironbridge Workwear", "ironbridge", "menswear", ["jacket", "trousers", "shirt", "gilet"], "Canvas and twill workwear built to last."),
  S("ironbridge-street", "Ironbridge Street", "ironbridge", "both", ["hoodie", "t-shirt", "joggers", "jeans"], "Street basics with workwear roots."),
  S("solstice", "Solstice", "solstice", "both", ["t-shirt", "tank", "shorts", "shirt"], "Sunny-day clothing in natural fibres."),
  S("solstice-studio", "Solstice Studio", "solstice", "womenswear", ["dress", "jumpsuit", "blouse"], "Studio-made dresses and jumpsuits."),
  S("quarry-knitwear", "Quarry Knitwear", "quarry", "both", ["sweater", "cardigan"], "Chunky knits from British wool."),
  S("quarry-tailoring", "Quarry Tailoring", "quarry", "menswear", ["coat", "blazer", "trousers"], "Overcoats and tailoring in tweed and flannel."),
];

/** Garments bought together (tops with bottoms, layers over tops): drives frequently-bought-together. */
export const COMPLEMENTS: Record<string, string[]> = {
  "t-shirt": ["jeans", "shorts", "joggers", "trousers"],
  tank: ["shorts", "skirt", "jeans"],
  polo: ["shorts", "trousers", "jeans"],
  shirt: ["trousers", "jeans", "blazer", "shorts"],
  blouse: ["skirt", "trousers", "jeans"],
  hoodie: ["joggers", "jeans", "t-shirt"],
  sweater: ["jeans", "trousers", "shirt", "skirt"],
  cardigan: ["dress", "t-shirt", "skirt"],
  jacket: ["jeans", "t-shirt", "hoodie"],
  gilet: ["sweater", "shirt", "joggers"],
  coat: ["sweater", "trousers", "blazer"],
  parka: ["sweater", "jeans", "hoodie"],
  blazer: ["trousers", "shirt"],
  jeans: ["t-shirt", "shirt", "sweater", "jacket"],
  trousers: ["shirt", "blazer", "sweater"],
  joggers: ["hoodie", "t-shirt"],
  shorts: ["t-shirt", "shirt", "polo", "tank"],
  dress: ["cardigan", "jacket", "coat"],
  jumpsuit: ["cardigan", "jacket"],
  skirt: ["blouse", "sweater", "t-shirt"],
};
