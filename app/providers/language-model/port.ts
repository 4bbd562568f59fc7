/**
 * The language-model port: what the shopping assistant, the NLU query and the personalised
 * collections ask of a language model, whichever answers (LANGUAGE_MODEL):
 *
 * - `understand`: a shopper's message → an intent, slots (colours, garment types, materials, sizes,
 *   price bounds, gender, stores, free text, the product in question) and the search phrase the
 *   discovery engine runs;
 * - `reply`: the assistant's short answer, from the intent, the products the discovery engine
 *   retrieved and the facts the app looked up (size advice, orders) — a model never invents
 *   products: it only phrases what it is given;
 * - `describeCollection`: a title and a description for a personalised collection;
 * - `translateListing`: an imported Taobao listing (Chinese title, detail text, attributes) as an
 *   English title and description paragraphs, given the facts the garment glossary read from it
 *   (the local model answers with the glossary's own title and a description written from those
 *   facts; the original stays in the companion's `taobao_title`);
 * - `adCopy`: headline (≤ 40) and primary-text (≤ 500) variants for a product ad, from the
 *   product's facts and the request's brief, different from each other and from the copy to avoid.
 *
 * Every caller goes through this port, the Taobao import included: LANGUAGE_MODEL picks the model
 * for all of them.
 *
 * Inputs and outputs are zod schemas: `withValidation` checks both sides of every call, so an
 * adapter answering something malformed fails with a LanguageModelError instead of leaking it.
 * Adapters: ./local.server.ts (deterministic: the search query parser, rules, templates) and
 * ./openai.server.ts (chat completions of any OpenAI-compatible API).
 */
import { z } from "zod";
import { TargetGender } from "~/contract/common";
import { Hashtag, SOCIAL_PLATFORMS, SocialPlatform } from "~/contract/social-platforms";

export { Hashtag, SOCIAL_PLATFORMS, SocialPlatform };

export const ASSISTANT_INTENTS = [
  /** "black jeans under 80", "linen shirts for men" */
  "find_products",
  /** "anything similar?", "more like this" (a product in context) */
  "similar_products",
  /** "what goes with this?", "what can I wear with these jeans" */
  "complete_the_look",
  /** "what size should I get?", "does it run small?" */
  "size_help",
  /** "where is my order?" */
  "order_status",
  /** "how do I wash linen?", "what is your return policy?": answered from the knowledge base */
  "advice",
  /** "hi", "hello" */
  "greeting",
  /** "help", "what can you do?" */
  "help",
  /** nothing the assistant can act on */
  "unknown",
] as const;
export const AssistantIntent = z.enum(ASSISTANT_INTENTS);
export type AssistantIntent = z.infer<typeof AssistantIntent>;

export const LANGUAGE_MODEL_PROVIDERS = ["local", "openai"] as const;
export const LanguageModelProvider = z.enum(LANGUAGE_MODEL_PROVIDERS);
export type LanguageModelProvider = z.infer<typeof LanguageModelProvider>;

const Words = (max: number) => z.array(z.string().trim().min(1).max(60)).max(max);

/** What a message names. Catalogue values where the catalogue has them (product types, colour words, store ids). */
export const NluSlots = z.object({
  colors: Words(10),
  materials: Words(10),
  /** The catalogue's product types ("Jeans", "Knitwear"). */
  productTypes: Words(20),
  sizes: Words(10),
  priceMin: z.number().nonnegative().nullable(),
  priceMax: z.number().nonnegative().nullable(),
  /** The gender the message names; null when it names none (the shopper's preference applies). */
  target_gender: TargetGender.nullable(),
  storeIds: z.array(z.string().min(1).max(200)).max(10),
  /** The words left once the filters are taken out ("oversized", "wedding"). */
  text: z.string().max(300),
  /** The product the message is about (given with the message, or from the conversation). */
  product_id: z.string().max(200).nullable(),
});
export type NluSlots = z.infer<typeof NluSlots>;

export const emptySlots = (): NluSlots => ({
  colors: [],
  materials: [],
  productTypes: [],
  sizes: [],
  priceMin: null,
  priceMax: null,
  target_gender: null,
  storeIds: [],
  text: "",
  product_id: null,
});

export const NluResult = z.object({
  intent: AssistantIntent,
  confidence: z.number().min(0).max(1),
  slots: NluSlots,
  /** The search phrase the discovery engine runs for the message ("black jeans under 80"); "" when there is none. */
  query: z.string().max(500),
  provider: LanguageModelProvider,
});
export type NluResult = z.infer<typeof NluResult>;

export const ChatTurn = z.object({ role: z.enum(["user", "assistant"]), content: z.string().max(4000) });
export type ChatTurn = z.infer<typeof ChatTurn>;

const ProductRef = z.object({ id: z.string().min(1).max(200), title: z.string().max(300), productType: z.string().max(120) });

export const NluInput = z.object({
  message: z.string().trim().min(1).max(1000),
  /** The product in context (sent with the message, or the one the conversation is about). */
  product: ProductRef.nullable().default(null),
  /** The latest turns of the conversation, oldest first. */
  history: z.array(ChatTurn).max(20).default([]),
});
export type NluInput = z.input<typeof NluInput>;
/** NluInput with its defaults filled (what adapters receive). */
export type NluRequest = z.output<typeof NluInput>;

/** A product as the reply sees it: what a sentence may say about it. */
export const ReplyProduct = z.object({
  id: z.string().min(1).max(200),
  title: z.string().max(300),
  productType: z.string().max(120),
  vendor: z.string().max(200),
  price: z.string().max(40),
  currencyCode: z.string().max(8),
  available: z.boolean(),
});
export type ReplyProduct = z.infer<typeof ReplyProduct>;

export const ReplyFacts = z.object({
  /** The shopper's first name, when known. */
  firstName: z.string().max(100).nullable().default(null),
  /** The product asked about (similar, goes-with, size). */
  anchor: ReplyProduct.nullable().default(null),
  /** True when the anchor was found from the message's words rather than given. */
  anchorGuessed: z.boolean().default(false),
  /** The request in words, e.g. "black jeans under $80". */
  description: z.string().max(300).default(""),
  /** The products come from a looser search than asked (nothing matched every filter). */
  relaxed: z.boolean().default(false),
  /** How many products matched in all (find). */
  total: z.number().int().nonnegative().nullable().default(null),
  /** Every product that matches is sold out (find): the answer says so and offers notify-me. */
  soldOutOnly: z.boolean().default(false),
  /** Size advice: the store's recommendation (null when it has none) and the product's sizes. */
  sizeAdvice: z
    .object({ store: z.string().max(200).nullable(), recommendation: z.string().max(2000).nullable(), sizes: z.array(z.string().max(40)).max(60) })
    .nullable()
    .default(null),
  /** The shopper's latest orders (order status), newest first; null when not asked. */
  orders: z
    .array(
      z.object({
        name: z.string().max(40),
        status: z.string().max(40),
        placedAt: z.string().max(40),
        fulfillment: z.string().max(60).nullable(),
        tracking: z.string().max(200).nullable(),
        items: z.number().int().nonnegative(),
      }),
    )
    .max(10)
    .nullable()
    .default(null),
  /** Whether the shopper has an account (guests have no orders to show). */
  registered: z.boolean().default(true),
  /**
   * Knowledge entries that answer the question (advice, size help), best first, each with the
   * passage to quote: the reply uses them and nothing else for care, fit and policy facts.
   */
  knowledge: z
    .array(z.object({ title: z.string().max(160), excerpt: z.string().max(1000), source: z.string().max(500).nullable() }))
    .max(3)
    .default([]),
});
export type ReplyFacts = z.infer<typeof ReplyFacts>;

export const ReplyInput = z.object({
  message: z.string().trim().min(1).max(1000),
  intent: AssistantIntent,
  slots: NluSlots,
  products: z.array(ReplyProduct).max(24),
  facts: ReplyFacts.default(ReplyFacts.parse({})),
  history: z.array(ChatTurn).max(20).default([]),
});
export type ReplyInput = z.input<typeof ReplyInput>;
/** ReplyInput with its defaults filled (what adapters receive). */
export type ReplyRequest = z.output<typeof ReplyInput>;

export const ReplyOutput = z.object({
  text: z.string().trim().min(1).max(1500),
  /** Follow-up messages the shopper can send with one tap. */
  suggestions: z.array(z.string().trim().min(1).max(80)).max(5),
  provider: LanguageModelProvider,
});
export type ReplyOutput = z.infer<typeof ReplyOutput>;

export const CollectionCopyInput = z.object({
  prompt: z.string().trim().min(1).max(300),
  target_gender: TargetGender,
  products: z.array(z.object({ title: z.string().max(300), productType: z.string().max(120), vendor: z.string().max(200) })).min(1).max(60),
  /** The shopper's interests (taste words of metadata.interests). */
  interests: z.array(z.string().max(40)).max(8).default([]),
});
export type CollectionCopyInput = z.input<typeof CollectionCopyInput>;
/** CollectionCopyInput with its defaults filled (what adapters receive). */
export type CollectionCopyRequest = z.output<typeof CollectionCopyInput>;

export const CollectionCopyOutput = z.object({
  title: z.string().trim().min(1).max(80),
  description: z.string().trim().min(1).max(500),
  provider: LanguageModelProvider,
});
export type CollectionCopyOutput = z.infer<typeof CollectionCopyOutput>;

/** A name/value pair as a listing states it ("材质成分" / "棉100%", or "Care" / "Machine wash"). */
const ListingAttribute = z.object({ name: z.string().max(200), value: z.string().max(2000) });

/**
 * What the garment glossary read from a listing (app/providers/taobao/translate.ts): the English
 * garment title, gender, material, colours and sizes. The local model writes the description from
 * these alone; a hosted model gets them as the facts it may not contradict.
 */
export const ListingFacts = z.object({
  title: z.string().trim().min(1).max(255),
  gender: TargetGender,
  material: z.string().max(200).nullable(),
  composition: z.string().max(500).nullable(),
  colours: z.array(z.string().max(200)).max(200),
  sizes: z.array(z.string().max(200)).max(200),
  attributes: z.array(ListingAttribute).max(200),
});
export type ListingFacts = z.infer<typeof ListingFacts>;

/** Cut to `max` instead of refusing: shops write listings of any length, and a model only needs the start. */
const clipped = (max: number) => z.string().transform((s) => s.trim().slice(0, max));

export const ListingTranslationInput = z.object({
  /** The listing's title as the shop wrote it (Chinese). */
  title: z.string().trim().min(1).transform((s) => s.slice(0, 500)),
  /** The detail text, as plain text. */
  description: clipped(4000).default(""),
  attributes: z
    .array(z.object({ name: clipped(200), value: clipped(500) }))
    .default([])
    .transform((xs) => xs.slice(0, 40)),
  facts: ListingFacts,
});
export type ListingTranslationInput = z.input<typeof ListingTranslationInput>;
/** ListingTranslationInput with its defaults filled and its texts cut (what adapters receive). */
export type ListingTranslationRequest = z.output<typeof ListingTranslationInput>;

export const ListingTranslation = z.object({
  /** The product title for the store (Shopify's limit is 255). */
  title: z.string().trim().min(1).max(255),
  /** Paragraphs of plain text (the caller escapes and wraps them). */
  description: z.array(z.string().trim().min(1).max(2000)).min(1).max(20),
  provider: LanguageModelProvider,
});
export type ListingTranslation = z.infer<typeof ListingTranslation>;

/** The ad's call to action (docs/product-ads.md): what the copy leads to. */
export const AD_CALLS_TO_ACTION = ["SHOP_NOW", "LEARN_MORE", "SIGN_UP"] as const;
export const AD_HEADLINE_MAX = 40;
export const AD_PRIMARY_TEXT_MAX = 500;

export const AdCopyVariant = z.object({
  headline: z.string().trim().min(1).max(AD_HEADLINE_MAX),
  primary_text: z.string().trim().min(1).max(AD_PRIMARY_TEXT_MAX),
});
export type AdCopyVariant = z.infer<typeof AdCopyVariant>;

export const AdCopyInput = z.object({
  product: z.object({
    title: z.string().trim().min(1).max(300),
    productType: z.string().max(120).default(""),
    /** The brand the shopper sees (the vendor's name, else the product's vendor text). */
    brand: z.string().max(200).default(""),
    colours: z.array(z.string().trim().min(1).max(60)).max(20).default([]),
    /** The lowest price, a decimal string ("49.00"). */
    price: z.string().max(40).nullable().default(null),
    currencyCode: z.string().max(8).default("USD"),
    target_gender: TargetGender.default("both"),
  }),
  /** The ad request's brief (audience, message, offer); "" without one. */
  brief: clipped(2000).default(""),
  call_to_action: z.enum(AD_CALLS_TO_ACTION).default("SHOP_NOW"),
  count: z.number().int().min(1).max(5),
  /** Copy the ad already has or was offered: the new variants say something else. */
  avoid: z.array(z.object({ headline: z.string().max(200), primary_text: z.string().max(2000) })).max(100).default([]),
});
export type AdCopyInput = z.input<typeof AdCopyInput>;
/** AdCopyInput with its defaults filled (what adapters receive). */
export type AdCopyRequest = z.output<typeof AdCopyInput>;

const variantKey = (v: AdCopyVariant) => `${v.headline.toLowerCase()}\n${v.primary_text.toLowerCase()}`;

export const AdCopyOutput = z.object({
  variants: z
    .array(AdCopyVariant)
    .min(1)
    .max(5)
    .refine((vs) => new Set(vs.map(variantKey)).size === vs.length, "variants must differ from each other"),
  provider: LanguageModelProvider,
});
export type AdCopyOutput = z.infer<typeof AdCopyOutput>;

/** What each platform takes (captions are cut at a word, hashtags beyond the count dropped). */
export const SOCIAL_LIMITS: Record<SocialPlatform, { caption: number; hashtags: number }> = {
  instagram: { caption: 2200, hashtags: 30 },
  tiktok: { caption: 2200, hashtags: 8 },
  pinterest: { caption: 500, hashtags: 20 },
  facebook: { caption: 5000, hashtags: 5 },
};
export const SocialsCopyInput = z.object({
  product: z.object({
    title: z.string().trim().min(1).max(300),
    productType: z.string().max(120).default(""),
    brand: z.string().max(200).default(""),
    /** The store the product is sold by (our Store entity), "" without one. */
    store: z.string().max(200).default(""),
    colours: z.array(z.string().trim().min(1).max(60)).max(20).default([]),
    materials: z.array(z.string().trim().min(1).max(60)).max(10).default([]),
    price: z.string().max(40).nullable().default(null),
    currencyCode: z.string().max(8).default("USD"),
    target_gender: TargetGender.default("both"),
  }),
  platforms: z.array(SocialPlatform).min(1).max(SOCIAL_PLATFORMS.length),
});
export type SocialsCopyInput = z.input<typeof SocialsCopyInput>;
/** SocialsCopyInput with its defaults filled (what adapters receive). */
export type SocialsCopyRequest = z.output<typeof SocialsCopyInput>;

export const SocialPost = z.object({
  platform: SocialPlatform,
  caption: z.string().trim().min(1).max(5000),
  hashtags: z.array(Hashtag).max(30),
});
export type SocialPost = z.infer<typeof SocialPost>;

export const SocialsCopyOutput = z.object({
  posts: z.array(SocialPost).min(1).max(SOCIAL_PLATFORMS.length),
  provider: LanguageModelProvider,
});
export type SocialsCopyOutput = z.infer<typeof SocialsCopyOutput>;

export interface LanguageModelPort {
  readonly name: LanguageModelProvider;
  understand(input: NluInput): Promise<NluResult>;
  reply(input: ReplyInput): Promise<ReplyOutput>;
  describeCollection(input: CollectionCopyInput): Promise<CollectionCopyOutput>;
  translateListing(input: ListingTranslationInput): Promise<ListingTranslation>;
  /** Headline and primary-text variants for a product ad (docs/product-ads.md "AI creatives"). */
  adCopy(input: AdCopyInput): Promise<AdCopyOutput>;
  /** A caption and hashtags per platform for a product post (issue 19 "Product socials content"). */
  socialsCopy(input: SocialsCopyInput): Promise<SocialsCopyOutput>;
}

/** A language model that could not answer: unreachable, timed out, refused the request, or answered nonsense. */
export class LanguageModelError extends Error {
  constructor(
    message: string,
    readonly opts: { status?: number; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message);
    this.name = "LanguageModelError";
  }
}

function check<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; ");
  throw new LanguageModelError(`${what} is invalid: ${issues}`);
}

/**
 * The port with its schemas enforced: inputs are parsed (defaults filled) before the adapter sees
 * them, outputs are parsed before the caller does. A bad input is the caller's bug and a bad
 * output the adapter's; both throw a LanguageModelError naming the field.
 */
export function withValidation(impl: LanguageModelPort): LanguageModelPort {
  return {
    name: impl.name,
    async understand(input) {
      const parsed = check(NluInput, input, "understand input");
      return check(NluResult, await impl.understand(parsed), `${impl.name} understand output`);
    },
    async reply(input) {
      const parsed = check(ReplyInput, input, "reply input");
      return check(ReplyOutput, await impl.reply(parsed), `${impl.name} reply output`);
    },
    async describeCollection(input) {
      const parsed = check(CollectionCopyInput, input, "describeCollection input");
      return check(CollectionCopyOutput, await impl.describeCollection(parsed), `${impl.name} describeCollection output`);
    },
    async translateListing(input) {
      const parsed = check(ListingTranslationInput, input, "translateListing input");
      return check(ListingTranslation, await impl.translateListing(parsed), `${impl.name} translateListing output`);
    },
    async adCopy(input) {
      const parsed = check(AdCopyInput, input, "adCopy input");
      return check(AdCopyOutput, await impl.adCopy(parsed), `${impl.name} adCopy output`);
    },
    async socialsCopy(input) {
      const parsed = check(SocialsCopyInput, input, "socialsCopy input");
      return check(SocialsCopyOutput, await impl.socialsCopy(parsed), `${impl.name} socialsCopy output`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Slots in words (pure; shared by the templates, the OpenAI adapter and the assistant)

const money = (n: number) => `$${Number.isInteger(n) ? n : n.toFixed(2)}`;

/** The price bounds in words: "under $80", "from $20", "$20–$50". */
export function priceWords(slots: Pick<NluSlots, "priceMin" | "priceMax">): string {
  const { priceMin: lo, priceMax: hi } = slots;
  if (lo !== null && hi !== null) return `${money(lo)}–${money(hi)}`;
  if (hi !== null) return `under ${money(hi)}`;
  if (lo !== null) return `from ${money(lo)}`;
  return "";
}

/** The request in words: "black linen shirts for men in size M under $80". */
export function describeSlots(slots: NluSlots): string {
  const types = slots.productTypes.map((t) => t.toLowerCase());
  const noun = slots.text.trim() && types.length === 0 ? slots.text.trim() : types.length === 0 ? "pieces" : types.length <= 2 ? types.join(" and ") : "pieces";
  const lead = [...slots.colors, ...slots.materials].join(" ");
  const extra = slots.text.trim() && types.length ? ` (${slots.text.trim()})` : "";
  const parts = [`${lead ? `${lead} ` : ""}${noun}${extra}`];
  if (slots.target_gender === "menswear") parts.push("for men");
  if (slots.target_gender === "womenswear") parts.push("for women");
  if (slots.sizes.length) parts.push(`in size ${slots.sizes.join(" or ")}`);
  const price = priceWords(slots);
  if (price) parts.push(price);
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

/** A search phrase the search parser reads back into the same slots ("black Jeans for men size M under 80"). */
export function phraseFromSlots(slots: NluSlots): string {
  const parts: string[] = [...slots.colors, ...slots.materials];
  if (slots.text.trim()) parts.push(slots.text.trim());
  parts.push(...slots.productTypes);
  if (slots.target_gender === "menswear") parts.push("for men");
  if (slots.target_gender === "womenswear") parts.push("for women");
  for (const s of slots.sizes) parts.push(`size ${s}`);
  if (slots.priceMin !== null && slots.priceMax !== null) parts.push(`between ${slots.priceMin} and ${slots.priceMax}`);
  else if (slots.priceMax !== null) parts.push(`under ${slots.priceMax}`);
  else if (slots.priceMin !== null) parts.push(`over ${slots.priceMin}`);
  return parts.join(" ").replace(/\s+/g, " ").trim().slice(0, 500);
}

/** Whether the slots hold anything to search for. */
export function hasSearchSlots(slots: NluSlots): boolean {
  return (
    slots.colors.length > 0 ||
    slots.materials.length > 0 ||
    slots.productTypes.length > 0 ||
    slots.sizes.length > 0 ||
    slots.priceMin !== null ||
    slots.priceMax !== null ||
    slots.target_gender !== null ||
    slots.storeIds.length > 0 ||
    slots.text.trim() !== ""
  );
}

/** Whether the slots only narrow a previous request (a colour, a price, a size) without naming what to find. */
export function isRefinement(slots: NluSlots): boolean {
  return hasSearchSlots(slots) && slots.productTypes.length === 0 && slots.text.trim() === "" && slots.storeIds.length === 0;
}

/** A previous request narrowed by a new one: the new values replace the old ones they name. */
export function refineSlots(previous: NluSlots, next: NluSlots): NluSlots {
  return {
    ...previous,
    colors: next.colors.length ? next.colors : previous.colors,
    materials: next.materials.length ? next.materials : previous.materials,
    sizes: next.sizes.length ? next.sizes : previous.sizes,
    priceMin: next.priceMin ?? (next.priceMax !== null && previous.priceMin !== null && previous.priceMin > next.priceMax ? null : previous.priceMin),
    priceMax: next.priceMax ?? (next.priceMin !== null && previous.priceMax !== null && previous.priceMax < next.priceMin ? null : previous.priceMax),
    target_gender: next.target_gender ?? previous.target_gender,
    product_id: next.product_id ?? previous.product_id,
  };
}
