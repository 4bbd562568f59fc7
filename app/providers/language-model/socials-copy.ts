/**
 * Social post copy from templates (the local language model's `socialsCopy`; the OpenAI adapter's
 * fallback): a caption in each platform's manner (Instagram: a short story and a call to the link
 * in bio; TikTok: one punchy line; Pinterest: a descriptive, searchable sentence; Facebook: a
 * plain announcement) filled with the product's title, type, material, colour, store and price,
 * and hashtags made from the same facts plus the platform's usual fashion tags. Same input, same
 * posts.
 */
import { adPrice, clipWords } from "./ad-copy";
import { SOCIAL_LIMITS, type SocialPlatform, type SocialPost, type SocialsCopyRequest } from "./port";

const list = (items: string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);
const capital = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

/** "#WoolCoat"-style tag text of some words: letters and digits only, words joined. */
export function hashtagOf(words: string): string {
  return words
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.toLowerCase())
    .join("")
    .slice(0, 100);
}

const PLATFORM_TAGS: Record<SocialPlatform, string[]> = {
  instagram: ["ootd", "fashion", "styleinspo", "newin"],
  tiktok: ["tiktokfashion", "fyp", "outfitideas"],
  pinterest: ["outfitideas", "styleinspiration", "fashion"],
  facebook: ["newarrivals", "fashion"],
};

/** Garments named only in the plural ("a pair of jeans"). */
const PLURAL_ONLY = /(jeans|trousers|shorts|leggings|pants|tights|joggers|chinos|overalls|pyjamas|pajamas|briefs|boxers)$/;

/** The catalogue's product types are plural ("Coats", "Dresses"); a post talks about one piece. */
export function singular(type: string): string {
  const t = type.trim().toLowerCase();
  if (!t || PLURAL_ONLY.test(t)) return t;
  if (/(ss|x|ch|sh)es$/.test(t)) return t.slice(0, -2);
  if (/[^aeiou]ies$/.test(t)) return `${t.slice(0, -3)}y`;
  if (/[^s]s$/.test(t)) return t.slice(0, -1);
  return t;
}

interface Facts {
  title: string;
  type: string;
  colour: string;
  material: string;
  store: string;
  brand: string;
  price: string | null;
  who: string;
}

function factsOf(input: SocialsCopyRequest): Facts {
  const p = input.product;
  const colours = [...new Set(p.colours.map((c) => c.toLowerCase().trim()))].slice(0, 3);
  const materials = [...new Set(p.materials.map((m) => m.toLowerCase().trim()))].slice(0, 2);
  return {
    title: p.title.replace(/\s+/g, " ").trim(),
    type: singular(p.productType),
    colour: list(colours),
    material: list(materials),
    store: p.store.replace(/\s+/g, " ").trim(),
    brand: p.brand.replace(/\s+/g, " ").trim(),
    price: adPrice(p.price, p.currencyCode),
    who: p.target_gender === "menswear" ? " for men" : p.target_gender === "womenswear" ? " for women" : "",
  };
}

/** "linen shirt in white and blue", "coat" — the piece described by what is known. */
function piece(f: Facts): string {
  const noun = f.type || "piece";
  const made = f.material ? `${f.material} ${noun}` : noun;
  return f.colour ? `${made} in ${f.colour}` : made;
}

function caption(platform: SocialPlatform, f: Facts): string {
  const from = f.store ? ` from ${f.store}` : f.brand ? ` by ${f.brand}` : "";
  const price = f.price ? ` ${f.price}.` : "";
  switch (platform) {
    case "instagram":
      return [`${f.title} ✨`, `${capital(piece(f))}${f.who}${from}.${price}`.trim(), "Tap the link in bio to shop."].join("\n\n");
    case "tiktok":
      return `POV: you found the ${piece(f)} you'll wear all season — ${f.title}${from}.${price}`.trim();
    case "pinterest":
      return `${f.title}: ${PLURAL_ONLY.test(f.type) ? "" : "a "}${piece(f)}${f.who}${from}. Save it for your next outfit idea.${price}`.trim();
    case "facebook":
      return `New in${f.store ? ` at ${f.store}` : ""}: ${f.title}. ${capital(piece(f))}${f.who}.${price ? ` Now${price}` : ""} Shop it today.`.trim();
  }
}

function hashtags(platform: SocialPlatform, f: Facts, input: SocialsCopyRequest): string[] {
  const p = input.product;
  const own = [
    f.type,
    ...p.materials.map((m) => m.toLowerCase()),
    f.store,
    f.brand,
    ...p.materials.slice(0, 1).flatMap((m) => (f.type ? [`${m} ${f.type}`] : [])),
    ...p.colours.slice(0, 2).flatMap((c) => (f.type ? [`${c} ${f.type}`] : [c])),
    p.target_gender === "menswear" ? "menswear" : p.target_gender === "womenswear" ? "womenswear" : "",
  ];
  const tags: string[] = [];
  for (const t of [...own.map(hashtagOf), ...PLATFORM_TAGS[platform]]) {
    if (t && !tags.includes(t)) tags.push(t);
  }
  return tags.slice(0, SOCIAL_LIMITS[platform].hashtags);
}

export function templateSocialsCopy(input: SocialsCopyRequest): SocialPost[] {
  const f = factsOf(input);
  return [...new Set(input.platforms)].map((platform) => ({
    platform,
    caption: clipWords(caption(platform, f), SOCIAL_LIMITS[platform].caption),
    hashtags: hashtags(platform, f, input),
  }));
}
