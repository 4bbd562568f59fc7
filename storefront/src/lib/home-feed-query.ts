/**
 * Fetching the home feed page by page through the API client. Composition (interleaving,
 * insertion positions) is in home-feed.ts; this file only asks the sources.
 *
 * Sources: random products seeded by the session (`recommendationsRandom`, cursor-paged, so pages
 * never repeat), related products (`recommendationsForYou`, which blends the shopper's recent
 * views; when it fails, what customers also viewed of the most recently viewed product), and
 * insertions (collections, stores, styles). Every call carries the gender filter.
 */
import type { ApiClient } from "~/client";
import type { ProductCard } from "~/contract";
import type { Gender } from "./gender-routing";
import { targetGenderParam } from "./gender-preference";
import { HOME_INSERTION_PRODUCTS } from "./constants";
import { feedBatchSize, insertionRequests, orderInsertions, type FeedInsertion, type InsertionKind, type RawFeedPage } from "./home-feed";

export interface HomeFeedCursor {
  /** Page index, from 0. */
  index: number;
  /** The random list's cursor (null on the first page). */
  randomCursor: string | null;
  /** Whether the random list has no more pages. */
  randomDone: boolean;
  /** How many related items earlier pages consumed, or null when the list has no more. */
  relatedOffset: number | null;
}

export interface HomeFeedPage extends RawFeedPage {
  cursor: HomeFeedCursor;
  next: HomeFeedCursor | undefined;
}

export const FIRST_HOME_CURSOR: HomeFeedCursor = { index: 0, randomCursor: null, randomDone: false, relatedOffset: 0 };

export interface HomeFeedParams {
  gender: Gender;
  /** The session id: the random order's seed. */
  seed: string;
  /** The most recently viewed product, for the related fallback. */
  recentProductId: string | null;
}

export function homeFeedKey(gender: Gender, seed: string | null) {
  return ["home-feed", { gender, seed }] as const;
}

/** A gender's products: its own and those for both (what the server answers; kept as a guard). */
function forGender(gender: Gender) {
  return (p: ProductCard) => gender === "both" || p.target_gender === "both" || p.target_gender === gender;
}

/** The 1-based page of a page-based list that starts at `offset` with pages of `limit` (offsets are multiples of it). */
export function relatedPageFor(offset: number, limit: number): number {
  return Math.floor(offset / limit) + 1;
}

async function related(api: ApiClient, params: HomeFeedParams, page: number, limit: number): Promise<{ products: ProductCard[]; hasNextPage: boolean }> {
  const target_gender = targetGenderParam(params.gender);
  try {
    const r = await api.recommendationsForYou({ query: { page, limit, target_gender, exclude: [] } });
    return { products: r.results, hasNextPage: r.pagination.hasNextPage };
  } catch (error) {
    if (!params.recentProductId) throw error;
    const r = await api.recommendationsCustomersAlsoViewed({ params: { id: params.recentProductId }, query: { page, limit, target_gender, exclude: [] } });
    return { products: r.results, hasNextPage: r.pagination.hasNextPage };
  }
}

async function insertions(api: ApiClient, params: HomeFeedParams, index: number): Promise<FeedInsertion[]> {
  const target_gender = targetGenderParam(params.gender);
  const keep = forGender(params.gender);
  const byKind: Partial<Record<InsertionKind, FeedInsertion[]>> = {};
  await Promise.all(
    insertionRequests(index).map(async ({ kind, skip, take }) => {
      try {
        if (kind === "collection") {
          const r = await api.collectionsInsertions({ query: { skip, take, target_gender } });
          byKind.collection = r.collections.map((c) => ({ kind: "collection", collection: c, products: c.products.filter(keep).slice(0, HOME_INSERTION_PRODUCTS) }));
        } else if (kind === "store") {
          const r = await api.storesInsertions({ query: { skip, take, target_gender } });
          byKind.store = r.stores.map((s) => ({ kind: "store", store: s, products: s.products.filter(keep).slice(0, HOME_INSERTION_PRODUCTS) }));
        } else if (kind === "outfit") {
          const r = await api.outfitsList({ query: { skip, take, target_gender } });
          byKind.outfit = r.outfits.map((o) => ({ kind: "outfit", outfit: o, products: o.products.filter(keep).slice(0, HOME_INSERTION_PRODUCTS) }));
        } else {
          const r = await api.stylesRandom({ query: { n: skip + take, seed: params.seed, target_gender } });
          byKind.style = r.styles.slice(skip, skip + take).map((s) => ({ kind: "style", style: s }));
        }
      } catch {
        // An insertion that cannot load is left out; the products still show.
        byKind[kind] = [];
      }
    }),
  );
  // Insertions without products have nothing to show.
  return orderInsertions(index, byKind).filter((i) => i.kind === "style" || i.products.length > 0);
}

/** One page of the home feed: random and related products and the page's insertions. */
export async function fetchHomeFeedPage(api: ApiClient, params: HomeFeedParams, cursor: HomeFeedCursor): Promise<HomeFeedPage> {
  const limit = feedBatchSize(cursor.index);
  const target_gender = targetGenderParam(params.gender);
  const none = { products: [] as ProductCard[], hasNextPage: false, cursor: null as string | null };
  const randomCall = cursor.randomDone
    ? Promise.resolve(none)
    : api.recommendationsRandom({
          query: { seed: params.seed, limit, target_gender, exclude: [], ...(cursor.randomCursor ? { cursor: cursor.randomCursor } : {}) },
        })
        .then((r) => ({ products: r.results, hasNextPage: r.pagination.hasNextPage && !!r.pagination.cursor, cursor: r.pagination.cursor }));
  // Related items and insertions enrich the feed; when they fail the random items still show.
  // Page sizes change after the first page (6, then 3): the page number follows the items consumed.
  const relatedPage = cursor.relatedOffset !== null ? relatedPageFor(cursor.relatedOffset, limit) : null;
  const relatedCall = relatedPage !== null ? related(api, params, relatedPage, limit).catch(() => none) : Promise.resolve(none);
  const [random, rel, ins] = await Promise.all([randomCall, relatedCall, insertions(api, params, cursor.index)]);
  const keep = forGender(params.gender);
  const randomDone = !random.hasNextPage;
  const relatedOffset = rel.hasNextPage && cursor.relatedOffset !== null ? cursor.relatedOffset + limit : null;
  const next: HomeFeedCursor | undefined =
    !randomDone || relatedOffset !== null ? { index: cursor.index + 1, randomCursor: randomDone ? null : random.cursor, randomDone, relatedOffset } : undefined;
  return {
    cursor,
    next,
    random: random.products.filter(keep),
    related: rel.products.filter(keep),
    insertions: ins,
  };
}
