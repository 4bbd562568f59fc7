/**
 * The assistant's answer to one message: understand (language-model port) → retrieve with the
 * discovery engine → look up facts → phrase (language-model port).
 *
 * Retrieval by intent:
 * - find_products: the text search (app/services/search) with the slots as filters and the
 *   shopper's gender preference when the message names none. When nothing matches every filter,
 *   the answer is "relaxed" (and says so): the garment type, gender and price bounds still hold
 *   and the colours, materials, sizes, stores and words are let go; without a garment type, the
 *   prompt ranking (rankForPrompt) of the words.
 *   A message that only narrows ("under $50", "in blue", "size M") refines the previous search.
 * - similar_products: similar products (attributes, text and image vectors) of the product in
 *   question: the one sent with the message, else the one the conversation is about, else the
 *   best search match of the message's words ("similar to a navy blazer").
 * - complete_the_look: frequently bought together (complementary types first) of that product.
 * - size_help: the product's store size recommendation and the product's sizes.
 * - order_status: the shopper's latest orders (the orders area's ownership rule).
 * - advice (care, materials, style, policies), size_help and unknown: the knowledge base
 *   (../knowledge/retrieval.server.ts) ranked for the message, with the product in question's
 *   material and garment words as context; the entries it cites are quoted in the reply and
 *   returned as the message's citations.
 * - greeting, help, unknown: no retrieval.
 */
import type { User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { ProductCard } from "~/contract/products";
import { gidTail } from "~/lib/gid";
import { hasSearchSlots, isRefinement, phraseFromSlots, refineSlots, describeSlots, type ChatTurn, type NluResult, type NluSlots, type ReplyFacts, type ReplyProduct } from "~/providers/language-model/port";
import { getProductCards } from "../catalog.server";
import { searchProducts, withMatchedVariants } from "../search/search.server";
import { resolveColour } from "~/lib/search-colours";
import { getSearchVocabulary } from "../search/vocabulary.server";
import { rankForPrompt } from "../search/rank-for-prompt.server";
import type { SearchFilters } from "~/lib/search-filters";
import { similarProducts } from "../similar-products.server";
import { frequentlyBoughtTogether } from "../recommendations.server";
import { genderFromInterests } from "../recommendations/scoring";
import { ownedOrdersWhere } from "../account-orders.server";
import type { KnowledgeCitation } from "~/contract/knowledge";
import { excerptFor, productContextTags, rankKnowledge } from "../knowledge/retrieval.server";

export type AssistantDeps = Pick<AppContext, "db" | "vectors" | "languageModel" | "log">;

/** Products in one answer. */
export const ANSWER_PRODUCTS = 6;
/** Earlier turns given to the language model. */
export const HISTORY_TURNS = 8;
/** Entries one answer cites at most. */
export const ANSWER_CITATIONS = 2;
/** A second entry is cited only when it scores at least this share of the first's. */
const SECOND_CITATION_SHARE = 0.6;
/** The intents whose answers draw on the knowledge base. */
const KNOWLEDGE_INTENTS: ReadonlySet<NluResult["intent"]> = new Set(["advice", "size_help", "unknown"]);

export interface AnswerLink {
  label: string;
  href: string;
}

/** What an assistant message keeps in Message.metadata. */
export interface AssistantMetadata {
  v: 1;
  intent: NluResult["intent"];
  confidence: number;
  slots: NluSlots;
  query: string;
  productIds: string[];
  links: AnswerLink[];
  suggestions: string[];
  /** The product the answer was about (similar, goes-with, size), or the first product found: what "it" means next. */
  anchorProductId: string | null;
  relaxed: boolean;
  /** The catalogue colours asked for (find): the products' cards show their variant of that colour. */
  matchColours?: string[];
  /** Which model understood the message and which phrased the reply. */
  provider: { nlu: string; reply: string };
  /** The knowledge entries the answer quotes, as they were then (an entry edited or deleted later keeps its citation). */
  citations?: KnowledgeCitation[];
}

export interface HistoryMessage {
  role: "user" | "assistant";
  content: string;
  product_id: string | null;
  metadata: unknown;
}

export interface Answer {
  text: string;
  products: ProductCard[];
  citations: KnowledgeCitation[];
  metadata: AssistantMetadata;
}

export function readMetadata(value: unknown): AssistantMetadata | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const m = value as Partial<AssistantMetadata>;
  if (m.v !== 1 || typeof m.intent !== "string") return null;
  return {
    v: 1,
    intent: m.intent,
    confidence: typeof m.confidence === "number" ? m.confidence : 0,
    slots: m.slots as NluSlots,
    query: typeof m.query === "string" ? m.query : "",
    productIds: Array.isArray(m.productIds) ? m.productIds.filter((x): x is string => typeof x === "string") : [],
    links: Array.isArray(m.links) ? m.links.filter((l): l is AnswerLink => !!l && typeof l.label === "string" && typeof l.href === "string") : [],
    suggestions: Array.isArray(m.suggestions) ? m.suggestions.filter((x): x is string => typeof x === "string") : [],
    anchorProductId: typeof m.anchorProductId === "string" ? m.anchorProductId : null,
    relaxed: m.relaxed === true,
    matchColours: Array.isArray(m.matchColours) ? m.matchColours.filter((x): x is string => typeof x === "string") : [],
    provider: m.provider ?? { nlu: "local", reply: "local" },
    citations: Array.isArray(m.citations) ? m.citations.filter(isCitation) : [],
  };
}

function isCitation(c: unknown): c is KnowledgeCitation {
  if (!c || typeof c !== "object") return false;
  const x = c as Record<string, unknown>;
  return typeof x.id === "string" && typeof x.title === "string" && typeof x.excerpt === "string" && (x.source === null || typeof x.source === "string");
}

/**
 * The knowledge entries that answer a message: the best one the retrieval cites, and a second
 * when it scores close to the first (a generic fit guide and the jeans one). `product` lends its
 * material and garment words as context.
 */
export async function citeKnowledge(deps: Pick<AssistantDeps, "db">, message: string, product: { id: string } | null): Promise<KnowledgeCitation[]> {
  const contextTags = product ? await productContextTags(deps.db, product.id) : [];
  const hits = await rankKnowledge({ db: deps.db }, message, { contextTags, limit: ANSWER_CITATIONS, citedOnly: true });
  const top = hits[0];
  if (!top) return [];
  return hits
    .filter((h) => h === top || h.score >= top.score * SECOND_CITATION_SHARE)
    .map((h) => ({ id: h.entry.id, title: h.entry.title, source: h.entry.source, excerpt: excerptFor(h.entry.content, message) }));
}

export const productHref = (p: { id: string; handle: string }) => `/products/${encodeURIComponent(gidTail(p.id))}/${encodeURIComponent(p.handle)}`;
export const searchHref = (query: string) => `/?search=${encodeURIComponent(query)}`;
/** The storefront's orders page (orders area). */
export const ORDERS_HREF = "/account/orders";

function replyProduct(c: ProductCard): ReplyProduct {
  return {
    id: c.id,
    title: c.title.slice(0, 300),
    productType: c.productType.slice(0, 120),
    vendor: c.vendor.slice(0, 200),
    price: c.priceRange.minVariantPrice.amount,
    currencyCode: c.priceRange.minVariantPrice.currencyCode,
    available: c.availableForSale,
  };
}

async function visibleCard(deps: AssistantDeps, id: string | null | undefined): Promise<ProductCard | null> {
  if (!id) return null;
  return (await getProductCards(deps.db, [id]))[0] ?? null;
}

/** The product the conversation is about: the latest one sent with a message, or the latest answer's. */
export function contextProductId(history: HistoryMessage[]): string | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m.role === "user" && m.product_id) return m.product_id;
    if (m.role === "assistant") {
      const meta = readMetadata(m.metadata);
      if (meta?.anchorProductId) return meta.anchorProductId;
    }
  }
  return null;
}

/** The latest search of the conversation (for refinements). */
function previousSearch(history: HistoryMessage[]): AssistantMetadata | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m.role !== "assistant") continue;
    const meta = readMetadata(m.metadata);
    if (meta && meta.intent === "find_products" && meta.slots) return meta;
    if (meta) return null;
  }
  return null;
}

function interestsOf(user: Pick<User, "metadata">): string {
  const m = user.metadata && typeof user.metadata === "object" && !Array.isArray(user.metadata) ? (user.metadata as { interests?: unknown }) : {};
  return typeof m.interests === "string" ? m.interests : "";
}

function searchFilters(slots: NluSlots, preference: "menswear" | "womenswear" | "both"): SearchFilters {
  const gender = slots.target_gender ?? (preference !== "both" ? preference : undefined);
  return {
    target_gender: gender ?? undefined,
    colors: slots.colors.length ? slots.colors : undefined,
    materials: slots.materials.length ? slots.materials : undefined,
    productTypes: slots.productTypes.length ? slots.productTypes : undefined,
    sizes: slots.sizes.length ? slots.sizes : undefined,
    storeIds: slots.storeIds.length ? slots.storeIds : undefined,
    priceMin: slots.priceMin ?? undefined,
    priceMax: slots.priceMax ?? undefined,
  };
}

/** The catalogue colour names of colour words ("black" → Black, Washed Black). */
const colourNamesOf = (colours: readonly string[], vocab: { colourNames: string[] }) => [...new Set(colours.flatMap((c) => resolveColour(c, vocab.colourNames)))];

/** Products in stock first (the order otherwise kept): a sold-out piece is no place to start. */
const inStockFirst = (cards: ProductCard[]) => [...cards.filter((c) => c.availableForSale), ...cards.filter((c) => !c.availableForSale)];

/**
 * A search of the answer: the products in stock that match, else (none in stock) the sold-out ones,
 * marked `soldOutOnly` so the answer says so and offers notify-me.
 */
async function searchPreferringStock(deps: AssistantDeps, query: string, filters: SearchFilters) {
  const run = (f: SearchFilters) =>
    searchProducts({ db: deps.db, vectors: deps.vectors, log: deps.log }, { query, page: 1, limit: ANSWER_PRODUCTS, filters: f, sort: "Relevance", skipAutoParsing: true });
  const inStock = await run({ ...filters, available: true });
  if (inStock.results.length > 0) return { products: inStock.results, total: inStock.filters.facets.total, soldOutOnly: false };
  const any = await run(filters);
  return { products: any.results, total: any.filters.facets.total, soldOutOnly: any.results.length > 0 };
}

async function findProducts(deps: AssistantDeps, slots: NluSlots, preference: "menswear" | "womenswear" | "both") {
  const filters = searchFilters(slots, preference);
  const found = await searchPreferringStock(deps, slots.text, filters);
  if (found.products.length > 0) return { ...found, relaxed: false };
  // Nothing matches every filter. The garment, the gender and the price bounds still hold (a
  // garment of another kind or price is not an answer to "jeans under $60"); colours, materials,
  // sizes, stores and words are let go, and the answer says so.
  if (slots.productTypes.length > 0) {
    if (!(slots.colors.length || slots.materials.length || slots.sizes.length || slots.storeIds.length || slots.text.trim())) return { products: [], total: 0, relaxed: false, soldOutOnly: false };
    const loose = await searchPreferringStock(deps, "", { target_gender: filters.target_gender, productTypes: filters.productTypes, priceMin: filters.priceMin, priceMax: filters.priceMax });
    return { products: loose.products, total: 0, relaxed: loose.products.length > 0, soldOutOnly: loose.soldOutOnly };
  }
  // No garment named ("something for a summer wedding"): the prompt ranking, which needs only
  // some of the words and ranks colours and materials rather than requiring them.
  const phrase = phraseFromSlots({ ...slots, sizes: [], storeIds: [] });
  if (!phrase) return { products: [], total: 0, relaxed: false, soldOutOnly: false };
  const { ranked } = await rankForPrompt({ db: deps.db, vectors: deps.vectors }, phrase, { limit: ANSWER_PRODUCTS, gender: filters.target_gender ?? null });
  const cards = await getProductCards(deps.db, ranked.map((r) => r.id));
  const products = await withMatchedVariants(deps.db, inStockFirst(cards), colourNamesOf(slots.colors, await getSearchVocabulary(deps.db)));
  return { products, total: 0, relaxed: products.length > 0, soldOutOnly: products.length > 0 && products.every((p) => !p.availableForSale) };
}

/** The product a message means when none was given: the best search match of its words. */
async function guessAnchor(deps: AssistantDeps, slots: NluSlots, preference: "menswear" | "womenswear" | "both"): Promise<ProductCard | null> {
  if (!hasSearchSlots({ ...slots, target_gender: null })) return null;
  const found = await findProducts(deps, slots, preference);
  return found.products[0] ?? null;
}

async function sizeAdvice(deps: AssistantDeps, anchor: ProductCard | null, slots: NluSlots): Promise<ReplyFacts["sizeAdvice"]> {
  const storeId = anchor?.storeId ?? slots.storeIds[0] ?? null;
  const store = storeId ? await deps.db.store.findUnique({ where: { id: storeId }, select: { name: true, size_recommendation: true } }) : null;
  let sizes: string[] = [];
  if (anchor) {
    const options = await deps.db.productOption.findMany({ where: { product_id: anchor.id }, select: { name: true, values: true }, orderBy: { position: "asc" } });
    sizes = options.find((o) => o.name.toLowerCase() === "size")?.values.slice(0, 60) ?? [];
  }
  if (!store && !anchor) return null;
  const recommendation = store?.size_recommendation?.trim() || null;
  return { store: store?.name ?? null, recommendation: recommendation ? recommendation.slice(0, 2000) : null, sizes };
}

async function latestOrders(deps: AssistantDeps, user: User): Promise<NonNullable<ReplyFacts["orders"]>> {
  const orders = await deps.db.order.findMany({
    where: ownedOrdersWhere(user),
    orderBy: [{ created_at: "desc" }, { id: "asc" }],
    take: 3,
    select: { name: true, status: true, created_at: true, fulfillment_status: true, items: { select: { tracking_number: true }, orderBy: { created_at: "asc" } } },
  });
  return orders.map((o) => ({
    name: o.name.slice(0, 40),
    status: o.status,
    placedAt: o.created_at.toISOString(),
    fulfillment: o.fulfillment_status?.slice(0, 60) ?? null,
    tracking: o.items.find((i) => i.tracking_number)?.tracking_number?.slice(0, 200) ?? null,
    items: o.items.length,
  }));
}

export function historyTurns(history: HistoryMessage[]): ChatTurn[] {
  return history.slice(-HISTORY_TURNS).map((m) => ({ role: m.role, content: m.content.slice(0, 4000) }));
}

/**
 * Understands and answers one message. `product` is the product sent with the message (already
 * checked visible); `history` the conversation so far, oldest first.
 */
export async function answerMessage(
  deps: AssistantDeps,
  input: { user: User; message: string; product: ProductCard | null; history: HistoryMessage[] },
): Promise<Answer> {
  const { user, message, history } = input;
  const preference = genderFromInterests(interestsOf(user));
  const contextId = input.product ? null : contextProductId(history);
  const context = input.product ?? (await visibleCard(deps, contextId));
  const turns = historyTurns(history);

  const nlu = await deps.languageModel.understand({
    message,
    product: context ? { id: context.id, title: context.title.slice(0, 300), productType: context.productType.slice(0, 120) } : null,
    history: turns,
  });
  let slots = nlu.slots;
  let query = nlu.query;
  const intent = nlu.intent;

  let products: ProductCard[] = [];
  let anchor: ProductCard | null = null;
  const facts: Partial<ReplyFacts> = { firstName: user.first_name?.slice(0, 100) ?? null, registered: user.auth_provider !== "guest" };
  const links: AnswerLink[] = [];

  switch (intent) {
    case "find_products": {
      const previous = previousSearch(history);
      if (previous && isRefinement(slots)) {
        slots = refineSlots(previous.slots, slots);
        query = phraseFromSlots(slots);
      }
      const found = hasSearchSlots(slots) ? await findProducts(deps, slots, preference) : { products: [], total: 0, relaxed: false, soldOutOnly: false };
      products = found.products;
      facts.relaxed = found.relaxed;
      facts.total = found.total;
      facts.soldOutOnly = found.soldOutOnly;
      if (products.length && query) links.push({ label: "See all results", href: searchHref(query) });
      break;
    }
    case "similar_products":
    case "complete_the_look":
    case "size_help": {
      anchor = context;
      // Size advice for a store named in the message needs no product.
      if (!anchor && !(intent === "size_help" && slots.storeIds.length > 0)) {
        anchor = await guessAnchor(deps, slots, preference);
        facts.anchorGuessed = !!anchor;
      }
      if (anchor) {
        facts.anchor = replyProduct(anchor);
        links.push({ label: anchor.title.slice(0, 120), href: productHref(anchor) });
      }
      if (intent === "similar_products" && anchor) {
        const r = await similarProducts(deps.db, anchor.id, { page: 1, limit: ANSWER_PRODUCTS, completeProductData: false, target_gender: slots.target_gender ?? undefined }, deps.vectors);
        products = r.results as ProductCard[];
      } else if (intent === "complete_the_look" && anchor) {
        const r = await frequentlyBoughtTogether(
          { db: deps.db, vectors: deps.vectors, log: deps.log },
          anchor.id,
          { page: 1, limit: ANSWER_PRODUCTS, exclude: [], target_gender: slots.target_gender ?? undefined },
        );
        products = r.results;
      } else if (intent === "size_help") {
        facts.sizeAdvice = await sizeAdvice(deps, anchor, slots);
      }
      break;
    }
    case "order_status": {
      if (user.auth_provider !== "guest") facts.orders = await latestOrders(deps, user);
      links.push({ label: "My orders", href: ORDERS_HREF });
      break;
    }
    default:
      break;
  }
  const citations = KNOWLEDGE_INTENTS.has(intent) ? await citeKnowledge(deps, message, anchor ?? context) : [];
  facts.knowledge = citations.map((c) => ({ title: c.title.slice(0, 160), excerpt: c.excerpt.slice(0, 1000), source: c.source?.slice(0, 500) ?? null }));
  facts.description = describeSlots(slots).slice(0, 300);

  const reply = await deps.languageModel.reply({
    message,
    intent,
    slots,
    products: products.map(replyProduct),
    facts,
    history: turns,
  });

  return {
    text: reply.text,
    products,
    citations,
    metadata: {
      v: 1,
      intent,
      confidence: nlu.confidence,
      slots,
      query,
      productIds: products.map((p) => p.id),
      links,
      suggestions: reply.suggestions,
      anchorProductId: anchor?.id ?? (intent === "find_products" ? (products[0]?.id ?? null) : null),
      relaxed: facts.relaxed ?? false,
      matchColours: intent === "find_products" && slots.colors.length ? colourNamesOf(slots.colors, await getSearchVocabulary(deps.db)) : [],
      provider: { nlu: nlu.provider, reply: reply.provider },
      citations,
    },
  };
}
