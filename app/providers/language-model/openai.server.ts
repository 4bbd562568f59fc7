/**
 * A hosted language model through the OpenAI chat-completions protocol, which OpenAI and most
 * hosted and self-hosted servers speak (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL):
 *
 *   POST {base}/chat/completions   Authorization: Bearer {key}
 *   {model, messages: [{role, content}], temperature, max_tokens, response_format?: {type: "json_object"}}
 *   → {choices: [{message: {content}}]}
 *
 * - `understand` asks for a JSON object (intent, slots, query), checks it with zod and keeps the
 *   catalogue's own values (product types it does not know become words); when the answer is not
 *   valid JSON of that shape, the local parser answers instead (and the log says so).
 * - `reply` phrases the answer from the facts and products the app retrieved (never others), with
 *   the local template as the draft; suggestions stay the deterministic ones.
 * - `describeCollection` asks for {title, description} as JSON; invalid → the local template.
 * - `translateListing` asks for {title, description} as JSON from the Chinese listing and the
 *   glossary's facts; invalid JSON, or a title still in Chinese → the glossary (local) translation.
 * - `adCopy` asks for {variants: [{headline, primary_text}]} as JSON; over-long lines are cut at a
 *   word, repeats dropped, and the local templates make up any variant missing (invalid JSON → all).
 *
 * Requests have a deadline (OPENAI_TIMEOUT_MS) and are retried once on 429 and 5xx (Retry-After
 * honoured up to 5 s). Other failures throw a LanguageModelError with the server's message; the
 * factory (./index.server.ts) then answers with the local model for that call.
 */
import { z } from "zod";
import type { Logger } from "~/lib/logger.server";
import type { ParseContext } from "~/lib/query-parser";
import { TargetGender } from "~/contract/common";
import { hasCjk } from "~/providers/taobao/translate";
import { clipWords } from "./ad-copy";
import { hashtagOf } from "./socials-copy";
import {
  AD_HEADLINE_MAX,
  AD_PRIMARY_TEXT_MAX,
  AdCopyInput as AdCopyInputSchema,
  SocialsCopyInput as SocialsCopyInputSchema,
  SOCIAL_LIMITS,
  type SocialPost,
  AssistantIntent,
  CollectionCopyInput as CollectionCopyInputSchema,
  LanguageModelError,
  ListingTranslationInput as ListingTranslationInputSchema,
  NluInput as NluInputSchema,
  ReplyInput as ReplyInputSchema,
  emptySlots,
  phraseFromSlots,
  withValidation,
  type AdCopyVariant,
  type LanguageModelPort,
  type NluResult,
  type NluSlots,
} from "./port";

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

export interface OpenAiOptions {
  apiKey: string;
  baseUrl?: string;
  model?: string;
  timeoutMs?: number;
  /** Wait before the one retry when the server sends no Retry-After. */
  retryDelayMs?: number;
  /** Answers when the model's JSON is unusable, and drafts the replies. */
  local: LanguageModelPort;
  vocabulary?: () => Promise<ParseContext>;
  log?: Logger;
  fetch?: typeof fetch;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

const ChatCompletion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
});

const MAX_RETRY_AFTER_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function normaliseBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, "");
}

/** The model's NLU answer: lenient on shape (missing lists are empty), strict on types. */
const ModelSlots = z.object({
  colors: z.array(z.string()).default([]),
  materials: z.array(z.string()).default([]),
  productTypes: z.array(z.string()).default([]),
  sizes: z.array(z.string()).default([]),
  priceMin: z.number().nonnegative().nullable().default(null),
  priceMax: z.number().nonnegative().nullable().default(null),
  target_gender: TargetGender.nullable().default(null),
  text: z.string().default(""),
});
const ModelNlu = z.object({
  intent: AssistantIntent,
  confidence: z.number().min(0).max(1).default(0.8),
  slots: ModelSlots.default(ModelSlots.parse({})),
  query: z.string().max(500).optional(),
});
const ModelCopy = z.object({ title: z.string().trim().min(1).max(80), description: z.string().trim().min(1).max(500) });
/** The model's ad copy: lengths are fixed up after (a headline a little long is cut at a word, not thrown away). */
const ModelAdCopy = z.object({
  variants: z.array(z.object({ headline: z.string().trim().min(1).max(400), primary_text: z.string().trim().min(1).max(4000) })).min(1).max(20),
});
const ModelTranslation = z.object({ title: z.string().trim().min(3).max(120), description: z.string().trim().min(3).max(2000) });

/** JSON inside a model answer: the whole text, or the first {...} block (some models wrap it in prose or fences). */
export function extractJson(text: string): unknown {
  const trimmed = text.trim().replace(/^```(?:json)?\s*/i, "").replace(/\s*```$/, "");
  try {
    return JSON.parse(trimmed);
  } catch {
    const start = trimmed.indexOf("{");
    const end = trimmed.lastIndexOf("}");
    if (start >= 0 && end > start) {
      try {
        return JSON.parse(trimmed.slice(start, end + 1));
      } catch {
        /* not JSON */
      }
    }
    return undefined;
  }
}

function nluSystemPrompt(ctx: ParseContext): string {
  const types = (ctx.productTypes ?? []).slice(0, 120).join(", ");
  const colours = (ctx.colourNames ?? []).slice(0, 80).join(", ");
  return [
    "You read messages sent to the shopping assistant of a fashion store and answer ONLY a JSON object:",
    '{"intent": one of "find_products" | "similar_products" | "complete_the_look" | "size_help" | "order_status" | "advice" | "greeting" | "help" | "unknown",',
    ' "confidence": number 0..1,',
    ' "slots": {"colors": [colour words, lower case], "materials": [..], "productTypes": [product types of the catalogue only], "sizes": [..],',
    '           "priceMin": number|null, "priceMax": number|null, "target_gender": "menswear"|"womenswear"|null, "text": "other words that describe the product"},',
    ' "query": "a short search phrase for the catalogue, e.g. black jeans under 80"}',
    "Intents: find_products = the shopper describes what to find; similar_products = pieces like a given one; complete_the_look = what goes with a piece;",
    "size_help = sizes and fit; order_status = their orders and deliveries; advice = garment care, materials, styling, or the store's returns, shipping and payment policies; greeting = hello or thanks only; help = what the assistant can do; unknown = anything else.",
    types ? `Product types of the catalogue: ${types}.` : "",
    colours ? `Colours of the catalogue: ${colours}.` : "",
    "Prices are numbers without currency. Leave a slot empty when the message does not say it.",
  ]
    .filter(Boolean)
    .join("\n");
}

const REPLY_SYSTEM = [
  "You are the shopping assistant of a fashion store. Answer the shopper in at most three short sentences, friendly and concrete.",
  "Use ONLY the facts and products given in the JSON (their titles, vendors and prices). Never invent products, prices, sizes, stock, orders or policies.",
  "When knowledge entries are given, answer from their excerpts and name the guide you quote by its title; they are shown to the shopper as citations.",
  "The products are shown to the shopper as cards under your answer: refer to them, do not list every one.",
  "If no products are given, say so and suggest how to refine. The draft is a correct answer you may rephrase. Answer in plain text, no markdown.",
  "Never recommend a product whose inStock is false as the one to start with; when every product is sold out (soldOutOnly), say plainly that only sold-out ones match and that the shopper can ask to be notified when they are back.",
].join("\n");

const COPY_SYSTEM = [
  "You name personal fashion collections. Answer ONLY a JSON object {\"title\": at most 60 characters, \"description\": one or two sentences, at most 300 characters}.",
  "Describe only the products given (their types and vendors); do not invent materials, prices or brands.",
].join("\n");

const ModelSocialsCopy = z.object({
  posts: z.array(z.object({ platform: z.string(), caption: z.string().min(1), hashtags: z.array(z.string()).default([]) })).min(1),
});

const SOCIALS_COPY_SYSTEM = [
  "You write social media posts for a fashion store's products.",
  "For each platform asked, write one caption in that platform's manner and a list of hashtags (without '#').",
  "Use only the product facts given; never invent prices, discounts or materials.",
  'Answer with JSON only: {"posts": [{"platform": "instagram", "caption": "...", "hashtags": ["..."]}]}.',
].join(" ");

const AD_COPY_SYSTEM = [
  "You write copy for Facebook and Instagram ads of a fashion store. Answer ONLY a JSON object",
  `{"variants": [{"headline": at most ${AD_HEADLINE_MAX} characters, "primary_text": one to three sentences, at most 300 characters}, ...]} with exactly the number of variants asked.`,
  "Each variant says something different (angle, wording). Use only the product facts and the brief given: never invent materials, discounts, prices or claims.",
  "Do not repeat any headline or primary text listed under avoid. End the primary text with the call to action. Plain text, no hashtags, no emoji.",
].join("\n");

const TRANSLATE_SYSTEM = [
  "You translate Taobao fashion listings into English product copy for a Western online shop.",
  'Answer ONLY a JSON object {"title": "...", "description": "..."}.',
  "title: at most 70 characters, the garment with its cut, pattern and material (e.g. \"Relaxed Striped Linen Shirt\"); no marketing words, no seasons, no gender words, no brand names.",
  "description: two to four short sentences from the facts given (material, fit, colours, sizes, care); never invent facts.",
].join("\n");

export function createOpenAiLanguageModel(opts: OpenAiOptions): LanguageModelPort {
  const base = normaliseBaseUrl(opts.baseUrl ?? DEFAULT_OPENAI_BASE_URL);
  const model = opts.model ?? DEFAULT_OPENAI_MODEL;
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const retryDelayMs = opts.retryDelayMs ?? 500;
  const doFetch = opts.fetch ?? fetch;
  const vocabulary = opts.vocabulary ?? (async () => ({}));
  const url = `${base}/chat/completions`;

  async function chat(messages: ChatMessage[], o: { json: boolean; maxTokens: number }): Promise<string> {
    const body = JSON.stringify({
      model,
      messages,
      temperature: 0,
      max_tokens: o.maxTokens,
      ...(o.json ? { response_format: { type: "json_object" } } : {}),
    });
    for (let attempt = 1; attempt <= 2; attempt++) {
      let res: Response;
      try {
        res = await doFetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${opts.apiKey}`, "content-type": "application/json", accept: "application/json" },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        const err = e as Error;
        if (err.name === "TimeoutError" || err.name === "AbortError") {
          throw new LanguageModelError(`The language model did not answer within ${timeoutMs} ms (${url})`, { retryable: true, cause: e });
        }
        throw new LanguageModelError(`The language model at ${base} could not be reached: ${err.message}`, { retryable: true, cause: e });
      }
      if (res.ok) {
        const text = await res.text();
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new LanguageModelError(`The language model answered ${res.status} with a body that is not JSON`);
        }
        const completion = ChatCompletion.safeParse(parsed);
        if (!completion.success) throw new LanguageModelError("The language model's answer is not a chat completion (no choices[0].message)");
        const content = completion.data.choices[0].message.content ?? "";
        return content;
      }
      const detail = await errorDetail(res);
      const retryable = res.status === 429 || res.status >= 500;
      if (retryable && attempt === 1) {
        opts.log?.warn({ status: res.status, detail }, "language model request failed; retrying once");
        await sleep(retryAfterMs(res.headers.get("retry-after")) ?? retryDelayMs);
        continue;
      }
      throw new LanguageModelError(`The language model answered ${res.status}${detail ? `: ${detail}` : ""}`, { status: res.status, retryable });
    }
    throw new LanguageModelError("The language model did not answer");
  }

  const historyMessages = (history: { role: "user" | "assistant"; content: string }[]): ChatMessage[] =>
    history.slice(-6).map((t) => ({ role: t.role, content: t.content.slice(0, 1000) }));

  return withValidation({
    name: "openai",
    async understand(raw) {
      const input = NluInputSchema.parse(raw);
      const ctx = await vocabulary();
      const context = input.product ? `\nThe shopper is looking at: ${input.product.title} (${input.product.productType}).` : "";
      const content = await chat(
        [{ role: "system", content: nluSystemPrompt(ctx) + context }, ...historyMessages(input.history), { role: "user", content: input.message }],
        { json: true, maxTokens: 300 },
      );
      const parsed = ModelNlu.safeParse(extractJson(content));
      if (!parsed.success) {
        opts.log?.warn({ answer: content.slice(0, 300) }, "the language model's NLU answer is not valid JSON of the expected shape; using the local parser");
        return opts.local.understand(input);
      }
      const slots = catalogueSlots(parsed.data.slots, ctx);
      slots.product_id = input.product?.id ?? null;
      const query = parsed.data.query?.trim() || phraseFromSlots(slots);
      const result: NluResult = { intent: parsed.data.intent, confidence: parsed.data.confidence, slots, query, provider: "openai" };
      return result;
    },
    async reply(raw) {
      const input = ReplyInputSchema.parse(raw);
      const draft = await opts.local.reply(input);
      const facts = {
        message: input.message,
        intent: input.intent,
        request: input.facts.description,
        products: input.products.slice(0, 8).map((p) => ({ title: p.title, type: p.productType, vendor: p.vendor, price: `${p.price} ${p.currencyCode}`, inStock: p.available })),
        anchor: input.facts.anchor ? { title: input.facts.anchor.title, type: input.facts.anchor.productType } : null,
        sizeAdvice: input.facts.sizeAdvice,
        orders: input.facts.orders,
        relaxed: input.facts.relaxed,
        soldOutOnly: input.facts.soldOutOnly,
        knowledge: input.facts.knowledge,
        draft: draft.text,
      };
      const content = await chat(
        [{ role: "system", content: REPLY_SYSTEM }, ...historyMessages(input.history), { role: "user", content: JSON.stringify(facts) }],
        { json: false, maxTokens: 220 },
      );
      const text = content.replace(/\s+/g, " ").trim().slice(0, 1500);
      return { text: text || draft.text, suggestions: draft.suggestions, provider: text ? "openai" : "local" };
    },
    async describeCollection(raw) {
      const input = CollectionCopyInputSchema.parse(raw);
      const content = await chat(
        [
          { role: "system", content: COPY_SYSTEM },
          {
            role: "user",
            content: JSON.stringify({
              prompt: input.prompt,
              gender: input.target_gender,
              interests: input.interests,
              products: input.products.slice(0, 20).map((p) => ({ title: p.title, type: p.productType, vendor: p.vendor })),
            }),
          },
        ],
        { json: true, maxTokens: 200 },
      );
      const parsed = ModelCopy.safeParse(extractJson(content));
      if (!parsed.success) {
        opts.log?.warn({ answer: content.slice(0, 300) }, "the language model's collection copy is not valid JSON; using the local template");
        return opts.local.describeCollection(input);
      }
      return { title: parsed.data.title.slice(0, 80), description: parsed.data.description.slice(0, 500), provider: "openai" };
    },
    async translateListing(raw) {
      const input = ListingTranslationInputSchema.parse(raw);
      const f = input.facts;
      const content = await chat(
        [
          { role: "system", content: TRANSLATE_SYSTEM },
          {
            role: "user",
            content: JSON.stringify({
              title: input.title,
              detail: input.description.slice(0, 1500),
              attributes: input.attributes.slice(0, 20),
              facts: { garment: f.title, gender: f.gender, composition: f.composition, colours: f.colours, sizes: f.sizes },
            }),
          },
        ],
        { json: true, maxTokens: 600 },
      );
      const parsed = ModelTranslation.safeParse(extractJson(content));
      if (!parsed.success) {
        opts.log?.warn({ answer: content.slice(0, 300) }, "the language model's listing translation is not valid JSON; using the glossary");
        return opts.local.translateListing(input);
      }
      // A title left in Chinese would reach the storefront untranslated; the glossary's is English.
      if (hasCjk(parsed.data.title)) {
        opts.log?.warn({ title: parsed.data.title }, "the language model left the listing title in Chinese; using the glossary");
        return opts.local.translateListing(input);
      }
      const description = parsed.data.description
        .split(/\n+/)
        .map((l) => l.trim())
        .filter(Boolean)
        .slice(0, 20);
      return { title: parsed.data.title, description, provider: "openai" };
    },
    async adCopy(raw) {
      const input = AdCopyInputSchema.parse(raw);
      const content = await chat(
        [
          { role: "system", content: AD_COPY_SYSTEM },
          {
            role: "user",
            content: JSON.stringify({
              count: input.count,
              product: input.product,
              brief: input.brief.slice(0, 1500),
              call_to_action: input.call_to_action,
              avoid: input.avoid.slice(-20),
            }),
          },
        ],
        { json: true, maxTokens: 300 + input.count * 200 },
      );
      const parsed = ModelAdCopy.safeParse(extractJson(content));
      if (!parsed.success) {
        opts.log?.warn({ answer: content.slice(0, 300) }, "the language model's ad copy is not valid JSON; using the local templates");
        return opts.local.adCopy(input);
      }
      const key = (v: { headline: string; primary_text: string }) => `${v.headline.trim().toLowerCase()}\n${v.primary_text.trim().toLowerCase()}`;
      const seen = new Set(input.avoid.map(key));
      const variants: AdCopyVariant[] = [];
      for (const v of parsed.data.variants) {
        const clean = { headline: clipWords(v.headline, AD_HEADLINE_MAX), primary_text: clipWords(v.primary_text, AD_PRIMARY_TEXT_MAX) };
        if (seen.has(key(clean)) || variants.length >= input.count) continue;
        seen.add(key(clean));
        variants.push(clean);
      }
      if (variants.length === 0) return opts.local.adCopy(input);
      // Fewer than asked (repeats, or the model gave fewer): the templates make up the rest.
      if (variants.length < input.count) {
        const more = await opts.local.adCopy({ ...input, count: input.count - variants.length, avoid: [...input.avoid, ...variants] });
        variants.push(...more.variants);
      }
      return { variants, provider: "openai" };
    },
    async socialsCopy(raw) {
      const input = SocialsCopyInputSchema.parse(raw);
      const content = await chat(
        [
          { role: "system", content: SOCIALS_COPY_SYSTEM },
          { role: "user", content: JSON.stringify({ platforms: input.platforms, product: input.product }) },
        ],
        { json: true, maxTokens: 300 + input.platforms.length * 300 },
      );
      const parsed = ModelSocialsCopy.safeParse(extractJson(content));
      const local = await opts.local.socialsCopy(input);
      if (!parsed.success) {
        opts.log?.warn({ answer: content.slice(0, 300) }, "the language model's social posts are not valid JSON; using the local templates");
        return local;
      }
      // A platform the model skipped (or answered twice) gets the template's post.
      const posts: SocialPost[] = input.platforms.map((platform) => {
        const hit = parsed.data.posts.find((p) => p.platform.trim().toLowerCase() === platform);
        if (!hit) return local.posts.find((p) => p.platform === platform)!;
        const tags = [...new Set(hit.hashtags.map((h) => hashtagOf(h)).filter(Boolean))].slice(0, SOCIAL_LIMITS[platform].hashtags);
        return { platform, caption: clipWords(hit.caption, SOCIAL_LIMITS[platform].caption), hashtags: tags };
      });
      return { posts, provider: "openai" };
    },
  });
}

/** The model's slots in the catalogue's values: known product types only (others become words), lower-case colours. */
export function catalogueSlots(s: z.output<typeof ModelSlots>, ctx: ParseContext): NluSlots {
  const known = ctx.productTypes ?? [];
  const types: string[] = [];
  const words: string[] = [s.text.trim()];
  for (const t of s.productTypes) {
    const hit = known.find((k) => k.toLowerCase() === t.trim().toLowerCase());
    if (hit) types.push(hit);
    else if (known.length === 0) types.push(t.trim());
    else words.push(t.trim().toLowerCase());
  }
  const clean = (xs: string[], lower = true) => [...new Set(xs.map((x) => (lower ? x.trim().toLowerCase() : x.trim())).filter((x) => x && x.length <= 60))].slice(0, 10);
  let { priceMin, priceMax } = s;
  if (priceMin !== null && priceMax !== null && priceMin > priceMax) [priceMin, priceMax] = [priceMax, priceMin];
  return {
    ...emptySlots(),
    colors: clean(s.colors),
    materials: clean(s.materials),
    productTypes: [...new Set(types)].slice(0, 20),
    sizes: clean(s.sizes, false),
    priceMin,
    priceMax,
    target_gender: s.target_gender === "both" ? null : s.target_gender,
    text: words.filter(Boolean).join(" ").slice(0, 300),
  };
}

async function errorDetail(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === "string") return body.error.slice(0, 300);
    if (body.error && typeof body.error.message === "string") return body.error.message.slice(0, 300);
    if (typeof body.message === "string") return body.message.slice(0, 300);
  } catch {
    /* not JSON */
  }
  return text.slice(0, 200);
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.min(Math.max(0, at - Date.now()), MAX_RETRY_AFTER_MS) : null;
}
