/**
 * The local language model: deterministic, offline, no model weights.
 *
 * - Understanding: rules find the intent (order status, size help, what goes with, similar,
 *   help, greeting; else finding products), then the search query parser of the discovery engine
 *   (app/lib/query-parser.ts, with the catalogue's vocabulary: colour names, product types,
 *   stores, sizes, words) takes the slots out of what is left: colours, materials, garment types,
 *   sizes, price bounds, gender, stores, and the words left. One parser for search and assistant.
 * - Replies and collection copy: templates filled with what the app retrieved. Same input, same text.
 * - Listing translation: the garment glossary (app/providers/taobao/translate.ts): the title it
 *   read from the Chinese words, the description written from the listing's facts.
 * - Ad copy: templates over the product's facts and the brief (./ad-copy.ts).
 */
import { glossaryTranslation } from "~/providers/taobao/translate";
import { templateAdCopy } from "./ad-copy";
import { templateSocialsCopy } from "./socials-copy";
import type { ParseContext } from "~/lib/query-parser";
import { parseSearchQuery } from "~/lib/query-parser";
import { normalizeText } from "~/lib/search-text";
import {
  emptySlots,
  describeSlots,
  withValidation,
  type AssistantIntent,
  type CollectionCopyRequest,
  type CollectionCopyOutput,
  type LanguageModelPort,
  type NluResult,
  type NluSlots,
  type ReplyRequest,
  type ReplyOutput,
  type ReplyProduct,
  CollectionCopyInput as CollectionCopyInputSchema,
  ListingTranslationInput as ListingTranslationInputSchema,
  NluInput as NluInputSchema,
  ReplyInput as ReplyInputSchema,
  AdCopyInput as AdCopyInputSchema,
  SocialsCopyInput as SocialsCopyInputSchema,
} from "./port";

export interface LocalLanguageModelOptions {
  /** The catalogue's vocabulary for the parser (colour names, product types, stores, sizes, words). */
  vocabulary?: () => Promise<ParseContext>;
}

// ---------------------------------------------------------------------------------------------
// Intent rules (over the normalised message: lower case, no accents, straight quotes)

const GREETING = /^(?:hi|hello|hey|hiya|howdy|yo|greetings|good (?:morning|afternoon|evening)|thanks|thank you|cheers)(?: there)?\b[\s,!.]*/;
const HELP = /^(?:help|help me|\?+)$|\bwhat (?:can|do) you do\b|\bhow (?:does|do) (?:this|you|it) work\b|\bwho are you\b|\bwhat are you\b|\bhow can you help\b/;
const ORDER =
  /\bwhere(?:'s| is| are)? my (?:order|orders|parcel|package|delivery|stuff|purchase)s?\b|\bmy (?:last |latest |recent |previous )?(?:order|parcel|package|delivery|purchase)s?\b|\border status\b|\btrack(?:ing)? (?:my |the )?(?:order|package|parcel|delivery)\b|\btracking (?:number|code|link)\b|\b(?:has|did) (?:my order|it) (?:ship|shipped|arrive|arrived|dispatch)\b|\bwhen will my (?:order|parcel|package|delivery)\b/;
const SIZE =
  /\b(?:what|which) size\b|\bsize (?:guide|chart|advice|help|recommendations?|tips?)\b|\bsizing\b|\b(?:does|do|will|would) (?:it|this|they|these|that) fit\b|\bhow (?:does|do) (?:it|this|they|these) fit\b|\btrue to size\b|\b(?:runs?|fits?|comes?) (?:small|large|big|true)\b|\bmy size\b|\bsize (?:up|down)\b/;
const GOES_WITH =
  /\b(?:goes?|go|going) (?:well |nicely )?with\b|\b(?:pair|wear|match|style|combine)(?:es|ed|ing)? (?:it |this |these |them |that |those )?with\b|\bcomplete (?:the|my|this) (?:look|outfit)\b|\boutfit (?:with|around)\b|\bwhat to wear with\b|\bcomplements?\b|\bmatching\b/;
const SIMILAR =
  /\bsimilar\b|\b(?:more|something|anything|others?|items?|ones?|pieces?) like (?:this|that|it|these|those|the|a|an)\b|\blike (?:this|that) one\b|\balternatives?\b|\blook-?alikes?\b|\bother options\b|\bsame style\b/;
const FIND = /\b(?:show|find|search|looking for|look for|do you have|have you got|got any|i need|i want|i'd like|id like|recommend|suggest|get me|buy)\b/;
/** Words of the store's policies: a question with them is never a product search. */
const POLICY_WORDS = /\b(?:returns?|refunds?|exchanges?|exchange it|shipping|ship to|deliver(?:y|ies)?|postage|policy|policies)\b/;
/** Questions the knowledge base answers: care, materials, style guides and the store's policies. */
const ADVICE =
  /\b(?:wash|washing|launder|dry[ -]?clean(?:ing)?|tumble[ -]?dry|dryer|iron|ironing|bleach|stains?|shrink|shrinks|shrunk|pilling|pills|moths?|care (?:for|label|labels|instructions)|look after|clean (?:it|this|them|these|my|a|an))\b|\b(?:returns?|refunds?|exchanges?|exchange it|shipping|ship to|deliver(?:y|ies)?|postage|cancel(?:l?ing)? (?:my |an |the )?order|pay(?:ment)? (?:with|by|methods?)|policy|policies)\b|\bwhat (?:is|are|does) [\w\s-]{0,30}(?:made of|mean|means)\b|\bwhat is (?:linen|wool|merino|cashmere|silk|denim|selvedge|cotton|viscose|lyocell|tencel|polyester|satin|suede)\b|\bdifference between\b|\bhow (?:do|should|can) (?:i|you) (?:style|layer|dress|build)\b|\bhow to (?:style|layer|dress|build)\b|\bwhat (?:should i|to) wear (?:to|for|at)\b|\bsmart casual\b|\bcapsule wardrobe\b|\bdress code\b|\bwhich colou?rs? (?:go|goes|work|match)\b/;

/** Phrases that carry the intent, not the product: taken out before the slots are parsed. */
const INTENT_PHRASES: RegExp[] = [
  /\b(?:can|could|would|will) you (?:please )?(?:show|find|recommend|suggest|get|help)(?: me)?(?: with| to find)?\b/g,
  /\b(?:i'm|im|i am|we're|we are) (?:looking|searching|shopping) for\b/g,
  /\b(?:i'd like|id like|i would like|i want|i need|show me|find me|get me|looking for|look for|do you have|have you got|got any|recommend|suggest|please|pls|thanks|thank you)\b/g,
  /\b(?:what|which) (?:goes|go) (?:well |nicely )?with\b/g,
  /\b(?:goes?|go|going) (?:well |nicely )?with\b/g,
  /\b(?:pair|wear|match|style|combine)(?:es|ed|ing)? (?:it |this |these |them |that |those )?with\b/g,
  /\bcomplete (?:the|my|this) (?:look|outfit)\b|\boutfit (?:with|around)\b|\bwhat to wear with\b|\bcomplements?\b|\bmatching\b/g,
  /\b(?:something|anything|more|others?|items?|ones?|pieces?) (?:similar )?(?:to|like)\b|\bsimilar(?: to)?\b|\balternatives?(?: to)?\b|\blook-?alikes?(?: of)?\b|\bother options\b|\bsame style(?: as)?\b/g,
  /\b(?:what|which) size\b|\bsize (?:guide|chart|advice|help|recommendations?|tips?)\b|\bsizing\b|\b(?:does|do|will|would) (?:it|this|they|these|that) fit\b|\bhow (?:does|do) (?:it|this|they|these) fit\b|\btrue to size\b|\b(?:runs?|fits?|comes?) (?:small|large|big|true)\b|\bmy size\b|\bsize (?:up|down)\b/g,
];

/** Words that name no product: left out of the text slot. */
const GENERIC = new Set(
  (
    "clothes clothing stuff thing things one ones piece pieces outfit outfits wear options option else other others style styles " +
    "this that it these those them something anything everything what which where how there here should would could can get got " +
    "like love nice good great cool new buy shop shopping hi hello hey thanks please today now really very maybe also too well " +
    "ok okay yes no sure i'd id"
  ).split(" "),
);

/** People a shopper buys for: their gender when the message names no other. */
const MEN_PEOPLE = new Set(["dad", "dads", "father", "husband", "boyfriend", "brother", "son", "grandad", "grandpa", "grandfather", "uncle", "groom", "fiance"]);
const WOMEN_PEOPLE = new Set(["mum", "mom", "mums", "moms", "mother", "wife", "girlfriend", "sister", "daughter", "grandma", "grandmother", "aunt", "bride", "fiancee"]);

function normalise(message: string): string {
  return normalizeText(message).replace(/\s+/g, " ").trim();
}

/** The message without its intent phrases, for the slot parser. */
export function productPhrase(message: string): string {
  let s = ` ${normalise(message).replace(GREETING, "")} `;
  for (const re of INTENT_PHRASES) s = s.replace(new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`), " ");
  return s
    .replace(/[?!.,;:]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Slots of a phrase through the search parser. */
export function slotsOf(phrase: string, ctx: ParseContext): { slots: NluSlots; filtersFound: boolean; knownWords: boolean } {
  const parsed = parseSearchQuery(phrase, ctx);
  const f = parsed.filters;
  let words = parsed.terms.filter((w) => !GENERIC.has(w) && !/^\d+$/.test(w));
  let gender = f.target_gender && f.target_gender !== "both" ? f.target_gender : null;
  const men = words.some((w) => MEN_PEOPLE.has(w));
  const women = words.some((w) => WOMEN_PEOPLE.has(w));
  if (!f.target_gender && men !== women) gender = men ? "menswear" : "womenswear";
  words = words.filter((w) => !MEN_PEOPLE.has(w) && !WOMEN_PEOPLE.has(w));
  const slots: NluSlots = {
    ...emptySlots(),
    colors: f.colors ?? [],
    materials: f.materials ?? [],
    productTypes: f.productTypes ?? [],
    sizes: f.sizes ?? [],
    priceMin: f.priceMin ?? null,
    priceMax: f.priceMax ?? null,
    target_gender: gender,
    storeIds: f.storeIds ?? [],
    text: words.join(" ").slice(0, 300),
  };
  const filtersFound = parsed.chips.some((c) => c.key !== "target_gender" || slots.target_gender !== null) || (men !== women && slots.productTypes.length > 0);
  const knownWords = words.length > 0 && (!ctx.hasWord || words.some((w) => ctx.hasWord!(w) || ctx.hasWord!(w.replace(/s$/, ""))));
  return { slots, filtersFound, knownWords };
}

/** Intent, slots and search phrase of a message (pure, given the vocabulary). */
export function understandMessage(input: { message: string; product?: { id: string } | null }, ctx: ParseContext): Omit<NluResult, "provider"> {
  const text = normalise(input.message);
  const phrase = productPhrase(input.message);
  const { slots, filtersFound, knownWords } = slotsOf(phrase, ctx);
  slots.product_id = input.product?.id ?? null;
  const query = phrase;
  const result = (intent: AssistantIntent, confidence: number): Omit<NluResult, "provider"> => ({ intent, confidence, slots, query: intent === "find_products" ? query : phrase });

  if (ORDER.test(text)) return result("order_status", 0.9);
  if (SIZE.test(text)) return result("size_help", 0.85);
  if (GOES_WITH.test(text)) return result("complete_the_look", 0.85);
  if (SIMILAR.test(text)) return result("similar_products", 0.85);
  // "Show me linen shirts that don't shrink" is shopping; "I want to return my jeans" is not.
  const shopping = FIND.test(text) && filtersFound && !/\bhow\b/.test(text) && !POLICY_WORDS.test(text);
  if (ADVICE.test(text) && !shopping) return result("advice", 0.8);
  if (HELP.test(text) && !filtersFound) return result("help", 0.9);
  const rest = text.replace(GREETING, "").replace(/[\s,!.?]+/g, " ").trim();
  if (GREETING.test(text) && (rest === "" || (!filtersFound && !knownWords))) return result("greeting", 0.95);
  if (filtersFound) return result("find_products", 0.9);
  if (knownWords) return result("find_products", 0.7);
  if (FIND.test(text) && slots.text) return result("find_products", 0.5);
  return result("unknown", 0.2);
}

// ---------------------------------------------------------------------------------------------
// Templates

const SYMBOLS: Record<string, string> = { USD: "$", EUR: "€", GBP: "£", CAD: "CA$", AUD: "A$", JPY: "¥", CNY: "CN¥" };

export function formatPrice(amount: string, currencyCode: string): string {
  const n = Number(amount);
  const value = Number.isFinite(n) ? n.toFixed(2) : amount;
  const symbol = SYMBOLS[currencyCode.toUpperCase()];
  return symbol ? `${symbol}${value}` : `${value} ${currencyCode}`;
}

const list = (items: string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);
const unique = (xs: string[]) => [...new Set(xs)];
const the = (p: ReplyProduct) => `the ${p.title}`;

function orderDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

function orderState(o: { status: string; fulfillment: string | null }): string {
  const status = o.status.toLowerCase();
  if (status === "cancelled" || status === "canceled") return "cancelled";
  const f = (o.fulfillment ?? "").toUpperCase();
  if (f === "FULFILLED") return "shipped";
  if (f === "PARTIALLY_FULFILLED") return "partly shipped";
  if (f === "IN_PROGRESS" || f === "PENDING_FULFILLMENT") return "being packed";
  if (f === "ON_HOLD") return "on hold";
  if (status === "closed") return "completed";
  return "being prepared";
}

const EXAMPLES = ["Black jeans under $80", "Linen shirts for men", "What goes with a navy blazer?", "Where is my order?"];

/** "Here is what our guide says", quoting the best entry and naming the others (the citations show every one). */
function knowledgeText(knowledge: ReplyRequest["facts"]["knowledge"]): string {
  const [best, ...more] = knowledge;
  if (!best) return "";
  const also = more.length ? ` See also ${list(more.map((k) => `"${k.title}"`))}.` : "";
  return `From our guide "${best.title}": ${best.excerpt}${also}`;
}

function typeWords(products: ReplyProduct[]): string[] {
  return unique(products.map((p) => p.productType.toLowerCase()).filter(Boolean)).slice(0, 3);
}

/** The template answer (pure). */
export function templateReply(input: ReplyRequest): Omit<ReplyOutput, "provider"> {
  const { intent, products, slots } = input;
  const f = input.facts;
  const n = products.length;
  const anchor = f.anchor;
  const description = f.description || describeSlots(slots);

  switch (intent) {
    case "find_products": {
      if (n === 0) {
        return {
          text: `I couldn't find ${description} right now. Try another colour, a wider price range or fewer words.`,
          suggestions: EXAMPLES.slice(0, 3),
        };
      }
      // A sold-out piece is never "a good place to start": the first one in stock is, and when only
      // sold-out ones match, the answer says so plainly and offers notify-me.
      const inStock = products.filter((p) => p.available);
      if (inStock.length === 0) {
        const names = list(products.slice(0, 3).map((p) => `${the(p)} by ${p.vendor}`));
        const what = f.relaxed ? `the closest pieces to ${description}` : description;
        return {
          text: `Only sold-out ones match ${what}: ${names}. Open one and tap "Notify me when back in stock" to hear as soon as it's back.`,
          suggestions: ["Anything similar?", ...EXAMPLES.slice(0, 2)],
        };
      }
      const top = inStock[0];
      const lead = f.relaxed
        ? `Nothing matched ${description} exactly, so here ${n === 1 ? "is the closest piece" : `are the ${n} closest pieces`} I found.`
        : n === 1
          ? `Here is the one match for ${description}.`
          : `Here are ${n} ${description}${f.total !== null && f.total > n ? ` (of ${f.total} I found)` : ""}.`;
      const soldOut = n - inStock.length;
      const pick = `${the(top).replace(/^the/, "The")} by ${top.vendor} (${formatPrice(top.price, top.currencyCode)}) is a good place to start.${soldOut > 0 ? ` ${soldOut === 1 ? "One of them is" : `${soldOut} of them are`} sold out.` : ""}`;
      const suggestions = ["What goes with it?", "Anything similar?"];
      if (slots.priceMax === null || slots.priceMax > 50) suggestions.push("Under $50");
      return { text: `${lead} ${pick}`, suggestions };
    }
    case "similar_products": {
      if (!anchor) {
        return {
          text: 'Which product do you mean? Open a product and ask me from there, or describe it, e.g. "similar to a navy blazer".',
          suggestions: ["Similar to a navy blazer", "Similar to black jeans"],
        };
      }
      const guessed = f.anchorGuessed ? ` (I took ${the(anchor)} as the piece you meant.)` : "";
      if (n === 0) return { text: `I couldn't find anything close to ${the(anchor)} yet.${guessed}`, suggestions: ["What goes with it?", ...EXAMPLES.slice(0, 1)] };
      return {
        text: `Here ${n === 1 ? "is 1 piece" : `are ${n} pieces`} similar to ${the(anchor)}.${guessed}`,
        suggestions: ["What goes with it?", "What size should I get?"],
      };
    }
    case "complete_the_look": {
      if (!anchor) {
        return {
          text: 'Tell me which piece you want to style: open a product and ask "what goes with this?", or name it, e.g. "what goes with black jeans?".',
          suggestions: ["What goes with black jeans?", "What goes with a white shirt?"],
        };
      }
      const guessed = f.anchorGuessed ? ` (I took ${the(anchor)} as the piece you meant.)` : "";
      if (n === 0) return { text: `I have no suggestions to go with ${the(anchor)} yet.${guessed}`, suggestions: ["Anything similar?", ...EXAMPLES.slice(0, 1)] };
      const kinds = typeWords(products);
      return {
        text: `To go with ${the(anchor)}, try ${kinds.length ? `these ${list(kinds)}` : "these pieces"}.${guessed}`,
        suggestions: ["Anything similar?", "What size should I get?"],
      };
    }
    case "size_help": {
      const advice = f.sizeAdvice;
      const sizes = advice?.sizes.length ? ` It comes in ${list(advice.sizes)}.` : "";
      // The store's own advice comes first; the fit guides add what applies to every store.
      const guide = f.knowledge.length ? ` ${knowledgeText(f.knowledge)}` : "";
      if (guide && !advice?.recommendation) {
        const lead = anchor ? `${advice?.store ?? "The store"} has not shared size advice for ${the(anchor)}.${sizes}` : "";
        return { text: `${lead}${guide}`.trim(), suggestions: anchor ? ["What goes with it?", "Anything similar?"] : EXAMPLES.slice(0, 2) };
      }
      if (guide && advice?.recommendation) {
        return { text: `${advice.store ?? "The store"} recommends: "${advice.recommendation}".${sizes}${guide}`, suggestions: anchor ? ["What goes with it?", "Anything similar?"] : EXAMPLES.slice(0, 2) };
      }
      if (anchor && advice?.recommendation) {
        return { text: `${advice.store ?? "The store"} recommends: "${advice.recommendation}".${sizes}`, suggestions: ["What goes with it?", "Anything similar?"] };
      }
      if (anchor) {
        return {
          text: `${advice?.store ?? "The store"} has not shared size advice for ${the(anchor)}.${sizes} Check the measurements on the product page; if it does not fit, you can return it.`,
          suggestions: ["What goes with it?", "Anything similar?"],
        };
      }
      if (advice?.recommendation) return { text: `${advice.store ?? "The store"} recommends: "${advice.recommendation}".`, suggestions: EXAMPLES.slice(0, 2) };
      return {
        text: "Open the product you're looking at and ask me again: I'll share the store's size advice and the sizes available.",
        suggestions: EXAMPLES.slice(0, 2),
      };
    }
    case "order_status": {
      if (!f.registered) return { text: "Sign in to see your orders: as a guest you have no order history yet.", suggestions: EXAMPLES.slice(0, 2) };
      const orders = f.orders ?? [];
      if (orders.length === 0) return { text: "I can't find any orders on your account yet. When you order, you can follow it in My orders.", suggestions: EXAMPLES.slice(0, 2) };
      const o = orders[0];
      const tracking = o.tracking ? `; tracking number ${o.tracking}` : "";
      const more = orders.length > 1 ? ` You have ${orders.length} recent orders; all of them are in My orders.` : " You can follow it in My orders.";
      return { text: `Your latest order ${o.name}, placed on ${orderDate(o.placedAt)}, is ${orderState(o)}${tracking}.${more}`, suggestions: EXAMPLES.slice(0, 2) };
    }
    case "advice": {
      if (f.knowledge.length) return { text: knowledgeText(f.knowledge), suggestions: ["What is your return policy?", ...EXAMPLES.slice(0, 2)] };
      return {
        text: "I don't have a guide on that yet. I can help with garment care, fit and sizing, materials, styling and our returns and shipping, or find products for you.",
        suggestions: ["How do I wash linen?", "What is your return policy?", ...EXAMPLES.slice(0, 1)],
      };
    }
    case "greeting":
      if (/^\s*(?:thanks|thank you|cheers|ta)\b/i.test(input.message)) {
        return { text: "You're welcome! Anything else I can find for you?", suggestions: EXAMPLES.slice(0, 3) };
      }
      return {
        text: `Hi${f.firstName ? ` ${f.firstName}` : ""}! I'm your shopping assistant. Ask me for products ("black jeans under $80"), for pieces similar to one you like or what goes with it, for size advice, or about your orders.`,
        suggestions: EXAMPLES,
      };
    case "help":
      return {
        text: 'I can find products from a description ("linen shirts for men under $60"), show similar pieces and what goes with a product, share a store\'s size advice, and check your latest orders. On a product, ask "what goes with this?" to style it.',
        suggestions: EXAMPLES,
      };
    default:
      // A question the rules did not recognise may still be one a guide answers.
      if (f.knowledge.length) return { text: knowledgeText(f.knowledge), suggestions: EXAMPLES.slice(0, 3) };
      return {
        text: 'Sorry, I didn\'t catch that. I can find products ("black jeans under $80"), suggest what goes with a piece, help with sizes and check your orders.',
        suggestions: EXAMPLES,
      };
  }
}

// ---------------------------------------------------------------------------------------------
// Collection copy

const SMALL = new Set(["a", "an", "the", "and", "or", "for", "with", "of", "in", "on", "to", "by", "at", "under", "over"]);

export function titleFromPrompt(prompt: string): string {
  const words = prompt
    .replace(/\s+/g, " ")
    .replace(/[.!?,;:]+$/g, "")
    .trim()
    .split(" ");
  let t = words.map((w, i) => (i > 0 && SMALL.has(w.toLowerCase()) ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
  if (t.length > 60) t = `${t.slice(0, 59).replace(/\s+\S*$/, "").trimEnd()}…`;
  return t || "My Collection";
}

export function templateCollectionCopy(input: CollectionCopyRequest): Omit<CollectionCopyOutput, "provider"> {
  const products = input.products;
  const kinds = unique(products.map((p) => p.productType.toLowerCase()).filter(Boolean)).slice(0, 3);
  const vendors = unique(products.map((p) => p.vendor).filter(Boolean));
  const from = vendors.length === 0 ? "" : vendors.length <= 2 ? ` from ${list(vendors)}` : ` from ${vendors.slice(0, 2).join(", ")} and ${vendors.length - 2} more`;
  const gender = input.target_gender === "menswear" ? " for men" : input.target_gender === "womenswear" ? " for women" : "";
  const interests = input.interests;
  const taste = interests.length ? ` Chosen with your interests in mind: ${list(interests.slice(0, 3))}.` : "";
  const description = `${products.length} ${products.length === 1 ? "piece" : "pieces"}${gender} picked for "${input.prompt.trim().slice(0, 120)}"${kinds.length ? `: ${list(kinds)}` : ""}${from}.${taste}`;
  return { title: titleFromPrompt(input.prompt), description: description.slice(0, 500) };
}

// ---------------------------------------------------------------------------------------------

export function createLocalLanguageModel(opts: LocalLanguageModelOptions = {}): LanguageModelPort {
  const vocabulary = opts.vocabulary ?? (async () => ({}));
  return withValidation({
    name: "local",
    async understand(input) {
      const parsed = NluInputSchema.parse(input);
      return { ...understandMessage(parsed, await vocabulary()), provider: "local" };
    },
    async reply(input) {
      const parsed = ReplyInputSchema.parse(input);
      return { ...templateReply(parsed), provider: "local" };
    },
    async describeCollection(input) {
      return { ...templateCollectionCopy(CollectionCopyInputSchema.parse(input)), provider: "local" };
    },
    async translateListing(input) {
      return glossaryTranslation(ListingTranslationInputSchema.parse(input).facts);
    },
    async adCopy(input) {
      return { variants: templateAdCopy(AdCopyInputSchema.parse(input)), provider: "local" };
    },
    async socialsCopy(input) {
      return { posts: templateSocialsCopy(SocialsCopyInputSchema.parse(input)), provider: "local" };
    },
  });
}
