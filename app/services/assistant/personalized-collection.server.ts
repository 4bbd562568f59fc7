/**
 * A personalised collection from a prompt (SPEC §7 "generate-personalized-collection"), stored as
 * one of the caller's collections with `is_ai_generated: true` and its `prompt`.
 *
 * 1. The discovery engine ranks the catalogue for the prompt (rankForPrompt: gender, price, stores
 *    and "in stock" restrict; colours, materials and garment types rank; words matched with typo
 *    correction, synonyms and the text vectors). The gender is the prompt's, else the shopper's
 *    preference (SPEC §4, from metadata.interests).
 * 2. The shopper's taste interests (metadata.interests without the gender words) add a bonus to
 *    the products whose text has them.
 * 3. A prompt that names garments keeps to them. Variety: at most 4 products of one product type
 *    (when the prompt names none) and 4 of one store while others are left, then the best of the
 *    rest; 12 products.
 * 4. The language-model port writes the title and description from the chosen products.
 * Nothing matching the prompt is a 422 that says so, and nothing is stored.
 */
import { Prisma, type User } from "@prisma/client";
import type { TargetGender } from "~/contract/common";
import type { ProductCard } from "~/contract/products";
import { unprocessableError } from "~/lib/domain-errors";
import { getProductCards } from "../catalog.server";
import { parseSearchQuery } from "~/lib/query-parser";
import { rankForPrompt } from "../search/rank-for-prompt.server";
import { anyOf } from "../search/tsquery";
import { getSearchVocabulary } from "../search/vocabulary.server";
import { loadShopperProfile } from "../recommendations/for-you.server";
import { createUserCollection } from "../user-collections.server";
import type { AssistantDeps } from "./answer.server";

export const PERSONALIZED_COLLECTION_SIZE = 12;
const CANDIDATES = 60;
const PER_TYPE = 4;
const PER_STORE = 4;
const INTEREST_BONUS = 0.75;

export const NOTHING_MATCHES = (prompt: string) =>
  `No products match "${prompt.length > 80 ? `${prompt.slice(0, 79)}…` : prompt}". Try other words, e.g. "linen shirts for summer" or "black jeans under $80".`;

/** Picks `size` ids from a ranked list, keeping variety of product types and stores while it can. */
export function pickVaried<T extends { id: string; productType: string; storeId: string | null }>(ranked: T[], size: number, opts: { perType?: number } = {}): T[] {
  const maxPerType = opts.perType ?? PER_TYPE;
  const picked: T[] = [];
  const perType = new Map<string, number>();
  const perStore = new Map<string, number>();
  for (const item of ranked) {
    if (picked.length >= size) break;
    const type = item.productType.toLowerCase();
    const store = item.storeId ?? "";
    if ((perType.get(type) ?? 0) >= maxPerType || (store && (perStore.get(store) ?? 0) >= PER_STORE)) continue;
    picked.push(item);
    perType.set(type, (perType.get(type) ?? 0) + 1);
    if (store) perStore.set(store, (perStore.get(store) ?? 0) + 1);
  }
  for (const item of ranked) {
    if (picked.length >= size) break;
    if (!picked.includes(item)) picked.push(item);
  }
  return picked;
}

export async function generatePersonalizedCollection(deps: AssistantDeps, caller: User, rawPrompt: string) {
  const { db } = deps;
  const prompt = rawPrompt.replace(/\s+/g, " ").trim();
  const [vocab, profile] = await Promise.all([getSearchVocabulary(db), loadShopperProfile(db, caller.id)]);
  const parsed = parseSearchQuery(prompt, vocab.parseContext).filters;
  const named = parsed.target_gender;
  const preference = profile?.targetGender ?? "both";
  const gender: TargetGender | null = named && named !== "both" ? named : preference !== "both" ? preference : null;

  const { ranked } = await rankForPrompt({ db, vectors: deps.vectors }, prompt, { limit: CANDIDATES, gender });
  if (ranked.length === 0) throw unprocessableError(NOTHING_MATCHES(prompt));

  const interests = profile?.interests ?? [];
  const bonus = new Set<string>();
  const interestQuery = interests.length ? anyOf(interests.flatMap((i) => i.split(/[\s-]+/)).filter((w) => w.length >= 3)) : null;
  if (interestQuery) {
    const rows = await db.$queryRaw<{ id: string }[]>(
      Prisma.sql`SELECT p.id FROM products p WHERE p.id = ANY(${ranked.map((r) => r.id)}::text[]) AND p.search_vector @@ to_tsquery('english', ${interestQuery})`,
    );
    for (const r of rows) bonus.add(r.id);
  }
  const order = ranked
    .map((r, i) => ({ id: r.id, score: r.score + (bonus.has(r.id) ? INTEREST_BONUS : 0), i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((r) => r.id);
  let cards = await getProductCards(db, order);
  // A prompt that names garments ("black jeans under $100") gets those garments (the ranking
  // only prefers them); variety is then kept across stores only.
  const wanted = new Set((parsed.productTypes ?? []).map((t) => t.toLowerCase()));
  const ofWanted = wanted.size ? cards.filter((c) => wanted.has(c.productType.toLowerCase())) : [];
  if (ofWanted.length) cards = ofWanted;
  const chosen: ProductCard[] = pickVaried(cards, PERSONALIZED_COLLECTION_SIZE, { perType: ofWanted.length ? PERSONALIZED_COLLECTION_SIZE : PER_TYPE });
  if (chosen.length === 0) throw unprocessableError(NOTHING_MATCHES(prompt));

  const copy = await deps.languageModel.describeCollection({
    prompt: prompt.slice(0, 300),
    target_gender: gender ?? "both",
    products: chosen.map((p) => ({ title: p.title.slice(0, 300), productType: p.productType.slice(0, 120), vendor: p.vendor.slice(0, 200) })),
    interests: interests.slice(0, 8).map((i) => i.slice(0, 40)),
  });
  const collection = await createUserCollection(db, caller.id, {
    name: copy.title,
    description: copy.description,
    product_ids: chosen.map((p) => p.id),
    is_ai_generated: true,
    prompt,
    image_url: chosen.find((p) => p.featuredImage)?.featuredImage?.url ?? null,
  });
  deps.log.info({ userId: caller.id, collectionId: collection.id, products: chosen.length, provider: copy.provider, interestsMatched: bonus.size }, "personalised collection generated");
  return { ...collection, products: chosen };
}
