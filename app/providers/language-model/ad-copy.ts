/**
 * Ad copy from templates (the local language model's `adCopy`; the OpenAI adapter's fallback):
 * headlines and primary texts filled with the product's title, type, colours, price and brand and
 * the first sentence of the request's brief. Same input, same variants.
 *
 * Variants walk the headline × primary-text grid (coprime lengths, so every pair comes up) and
 * take the first pairs whose headline and text are new: new to this batch and to `avoid` (copy the
 * ad was offered before), so asking again gives other copy. Only when every template was used do
 * they fall back to new pairs of used lines, then to numbered ones.
 */
import { AD_HEADLINE_MAX, AD_PRIMARY_TEXT_MAX, type AdCopyRequest, type AdCopyVariant } from "./port";

const SYMBOLS: Record<string, string> = { USD: "$", EUR: "€", GBP: "£", CAD: "CA$", AUD: "A$", JPY: "¥", CNY: "CN¥" };

/** "$49", "$49.50", "49.00 CHF". */
export function adPrice(amount: string | null, currencyCode: string): string | null {
  if (amount === null) return null;
  const n = Number(amount);
  if (!Number.isFinite(n) || n <= 0) return null;
  const text = Number.isInteger(n) ? String(n) : n.toFixed(2);
  const symbol = SYMBOLS[currencyCode.toUpperCase()];
  return symbol ? `${symbol}${text}` : `${text} ${currencyCode.toUpperCase()}`;
}

/** Cut at a word boundary to at most `max` characters (an ellipsis marks the cut). */
export function clipWords(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  const head = t.slice(0, max - 1);
  // The cut falls inside a word unless the next character is a space: drop the partial word.
  const cut = (/\s/.test(t.charAt(max - 1)) ? head : head.replace(/\s+\S*$/, "")).replace(/[\s,;:–-]+$/, "");
  return `${cut || t.slice(0, max - 1)}…`;
}

const list = (items: string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);
const capital = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

/** The brief's first sentence, as a sentence of the ad (at most 220 characters). */
export function briefSentence(brief: string): string {
  const first = brief.replace(/\s+/g, " ").trim().split(/(?<=[.!?])\s/)[0] ?? "";
  if (!first) return "";
  const s = clipWords(capital(first), 220);
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

const CTA: Record<AdCopyRequest["call_to_action"], string> = { SHOP_NOW: "Shop now", LEARN_MORE: "Learn more", SIGN_UP: "Sign up to hear first" };

type Facts = {
  title: string;
  /** The title as a whole headline. */
  full: string;
  /** The title inside a longer headline. */
  short: string;
  type: string;
  brand: string;
  colour: string;
  colours: string;
  price: string | null;
  brief: string;
  cta: string;
  who: string;
};

function factsOf(input: AdCopyRequest): Facts {
  const p = input.product;
  const colours = [...new Set(p.colours.map((c) => c.toLowerCase()))].slice(0, 4);
  return {
    title: p.title.replace(/\s+/g, " ").trim(),
    full: clipWords(p.title, AD_HEADLINE_MAX),
    short: clipWords(p.title, 26),
    type: p.productType.trim().toLowerCase(),
    brand: p.brand.replace(/\s+/g, " ").trim(),
    colour: colours[0] ?? "",
    colours: list(colours),
    price: adPrice(p.price, p.currencyCode),
    brief: briefSentence(input.brief),
    cta: CTA[input.call_to_action],
    who: p.target_gender === "menswear" ? " for men" : p.target_gender === "womenswear" ? " for women" : "",
  };
}

/** A template gives null when a fact it needs is missing (the line is then skipped). */
type Template = (f: Facts) => string | null;

const HEADLINES: Template[] = [
  (f) => f.full,
  (f) => `New in: ${f.short}`,
  (f) => (f.price ? `${f.short}, ${f.price}` : null),
  (f) => (f.brand && f.type ? `${capital(f.colour ? `${f.colour} ${f.type}` : f.type)} by ${f.brand}` : null),
  (f) => `Meet the ${f.short}`,
  (f) => (f.brand ? `${f.brand}: ${f.short}` : null),
  (f) => (f.type ? `Your next ${f.type}` : null),
  (f) => `${f.short} is here`,
  (f) => (f.type ? `${capital(f.type)}${f.who}, made to wear` : null),
  (f) => (f.price ? `Now ${f.price}: ${f.short}` : null),
  (f) => `Wear it now: ${f.short}`,
];

const PRIMARY: Template[] = [
  (f) => `${f.title}${f.brand ? ` by ${f.brand}` : ""}${f.colours ? `, in ${f.colours}` : ""}. ${f.brief} ${f.cta}${f.price ? ` from ${f.price}` : ""}.`,
  (f) => `Meet the ${f.title}${f.type ? `: a ${f.colour ? `${f.colour} ` : ""}${f.type}` : ""}${f.brand ? ` from ${f.brand}` : ""}${f.who}. ${f.brief} ${f.cta}.`,
  (f) => `${f.brief} The ${f.title} comes${f.colours ? ` in ${f.colours}` : " ready to wear"}${f.price ? `, for ${f.price}` : ""}. ${f.cta}.`,
  (f) => `${f.brand ? `Made by ${f.brand}: ` : ""}the ${f.title}. ${f.colours ? `Available in ${f.colours}. ` : ""}${f.brief} ${f.cta}${f.price ? ` – ${f.price}` : ""}.`,
  (f) => `Looking for ${f.type ? `a new ${f.type}` : "something new"}${f.who}? The ${f.title}${f.brand ? ` from ${f.brand}` : ""} is it. ${f.brief} ${f.cta}.`,
  (f) => `${f.price ? `${f.price}. ` : ""}${f.title}${f.colours ? ` in ${f.colours}` : ""}. ${f.brief} Tap ${f.cta.toLowerCase()} before your size is gone.`,
  (f) => `${f.brief} ${f.brand ? `${f.brand} made the ${f.title}` : `The ${f.title} is made`} to be worn every day${f.colour ? `, in ${f.colour} and more` : ""}. ${f.cta}.`,
];

const tidy = (s: string) =>
  s
    .replace(/\s+/g, " ")
    .replace(/\s+([.,!?])/g, "$1")
    .replace(/\.\./g, ".")
    .replace(/([.!?…])\./g, "$1")
    .trim();

function lines(templates: Template[], f: Facts, max: number): string[] {
  const out: string[] = [];
  for (const t of templates) {
    const raw = t(f);
    if (raw === null) continue;
    const line = tidy(raw);
    if (!line || line.length > max) {
      if (line && max === AD_PRIMARY_TEXT_MAX) out.push(clipWords(line, max));
      continue;
    }
    out.push(line);
  }
  return [...new Set(out)];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** `count` variants (1–5) for the request: deterministic, different from each other and from `avoid`. */
export function templateAdCopy(input: AdCopyRequest): AdCopyVariant[] {
  const f = factsOf(input);
  const heads = lines(HEADLINES, f, AD_HEADLINE_MAX);
  const texts = lines(PRIMARY, f, AD_PRIMARY_TEXT_MAX);
  if (heads.length === 0) heads.push(clipWords(f.title, AD_HEADLINE_MAX));
  const norm = (s: string) => s.trim().toLowerCase();
  const usedHeads = new Set(input.avoid.map((a) => norm(a.headline)));
  const usedTexts = new Set(input.avoid.map((a) => norm(a.primary_text)));
  const usedPairs = new Set(input.avoid.map((a) => `${norm(a.headline)}\n${norm(a.primary_text)}`));
  const pairKey = (v: AdCopyVariant) => `${norm(v.headline)}\n${norm(v.primary_text)}`;

  // Walk every (headline, text) pair once: with coprime step lengths index i hits (i mod H, i mod T) for all pairs.
  const H = heads.length;
  let T = texts.length;
  const textPool = [...texts];
  while (gcd(H, T) !== 1) textPool.push(textPool[T++ % texts.length]);
  const grid: AdCopyVariant[] = [];
  for (let i = 0; i < H * T; i++) grid.push({ headline: heads[i % H], primary_text: textPool[i % T] });

  const out: AdCopyVariant[] = [];
  const take = (ok: (v: AdCopyVariant) => boolean) => {
    for (const v of grid) {
      if (out.length >= input.count) return;
      if (usedPairs.has(pairKey(v)) || !ok(v)) continue;
      out.push(v);
      usedPairs.add(pairKey(v));
      usedHeads.add(norm(v.headline));
      usedTexts.add(norm(v.primary_text));
    }
  };
  take((v) => !usedHeads.has(norm(v.headline)) && !usedTexts.has(norm(v.primary_text)));
  take((v) => !usedHeads.has(norm(v.headline)) || !usedTexts.has(norm(v.primary_text)));
  take(() => true);
  // Every pair was offered before: numbered variants of the first lines keep the batch distinct.
  for (let n = 2; out.length < input.count; n++) {
    const tag = ` (${n})`;
    const v = { headline: clipWords(heads[0], AD_HEADLINE_MAX - tag.length) + tag, primary_text: clipWords(textPool[n % T], AD_PRIMARY_TEXT_MAX - tag.length) + tag };
    if (usedPairs.has(pairKey(v))) continue;
    out.push(v);
    usedPairs.add(pairKey(v));
  }
  return out;
}
