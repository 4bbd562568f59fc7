/**
 * Home feed composition (SPEC §9), as pure functions: no React, no network.
 *
 * A feed page asks each product source for a batch (6 items on the first page, 3 later): the
 * random source (seeded by the session, so pages do not repeat) and the related source (for-you,
 * or what customers also viewed of the recently viewed products). The two are interleaved
 * (random, related, random, …), products already shown on an earlier page are dropped, and the
 * page's insertions (4 on the first page, 2 later) are spread evenly between its products.
 * Insertions rotate through collections, stores, styles and published looks (outfits), each kind
 * paged on its own.
 */
import type { Collection, ProductCard, Store, Style } from "~/contract";
import type { OutfitDetail } from "~/contract/outfits";
import {
  HOME_FEED_FIRST_PAGE,
  HOME_FEED_LATER_PAGE,
  HOME_INSERTIONS_FIRST_PAGE,
  HOME_INSERTIONS_LATER_PAGE,
} from "./constants";

export type InsertionKind = "collection" | "store" | "style" | "outfit";

/** The order insertion kinds take turns in. */
export const INSERTION_ROTATION: readonly InsertionKind[] = ["collection", "store", "style", "outfit"];

export type FeedInsertion =
  | { kind: "collection"; collection: Collection; products: ProductCard[] }
  | { kind: "store"; store: Store; products: ProductCard[] }
  /** A style's products are loaded by its tile. */
  | { kind: "style"; style: Style }
  | { kind: "outfit"; outfit: OutfitDetail; products: ProductCard[] };

export type ProductSource = "random" | "related";

export type FeedEntry =
  | { type: "product"; key: string; product: ProductCard; source: ProductSource }
  | { type: "insertion"; key: string; insertion: FeedInsertion };

/** What one page of the feed fetched, before composition. */
export interface RawFeedPage {
  random: ProductCard[];
  related: ProductCard[];
  insertions: FeedInsertion[];
}

/** Items asked of each product source on a page (0-based): 6 on the first, 3 on later ones. */
export function feedBatchSize(pageIndex: number): number {
  return pageIndex <= 0 ? HOME_FEED_FIRST_PAGE : HOME_FEED_LATER_PAGE;
}

/** Insertions on a page (0-based): 4 on the first, 2 on later ones. */
export function feedInsertionCount(pageIndex: number): number {
  return pageIndex <= 0 ? HOME_INSERTIONS_FIRST_PAGE : HOME_INSERTIONS_LATER_PAGE;
}

/** How many insertions the pages before `pageIndex` hold. */
export function insertionsBefore(pageIndex: number): number {
  let n = 0;
  for (let p = 0; p < pageIndex; p++) n += feedInsertionCount(p);
  return n;
}

export interface InsertionRequest {
  kind: InsertionKind;
  /** How many of this kind earlier pages used (the list offset to ask for). */
  skip: number;
  /** How many of this kind this page shows. */
  take: number;
}

/**
 * What a page asks of each insertion kind. Slot i of the whole feed is of kind
 * `INSERTION_ROTATION[i % 3]`; the skip of a kind counts its slots on earlier pages.
 */
export function insertionRequests(pageIndex: number, rotation: readonly InsertionKind[] = INSERTION_ROTATION): InsertionRequest[] {
  const start = insertionsBefore(pageIndex);
  const count = feedInsertionCount(pageIndex);
  const out: InsertionRequest[] = [];
  for (const kind of rotation) {
    let skip = 0;
    let take = 0;
    for (let i = 0; i < start + count; i++) {
      if (rotation[i % rotation.length] !== kind) continue;
      if (i < start) skip++;
      else take++;
    }
    if (take > 0) out.push({ kind, skip, take });
  }
  return out;
}

/** The order of a page's insertions: kinds in rotation order, starting where the last page stopped. */
export function orderInsertions(pageIndex: number, byKind: Partial<Record<InsertionKind, FeedInsertion[]>>, rotation: readonly InsertionKind[] = INSERTION_ROTATION): FeedInsertion[] {
  const start = insertionsBefore(pageIndex);
  const count = feedInsertionCount(pageIndex);
  const queues: Partial<Record<InsertionKind, FeedInsertion[]>> = {};
  for (const k of rotation) queues[k] = [...(byKind[k] ?? [])];
  const out: FeedInsertion[] = [];
  for (let i = start; i < start + count; i++) {
    const next = queues[rotation[i % rotation.length]]?.shift();
    if (next) out.push(next);
  }
  return out;
}

/** a0, b0, a1, b1, …, then whatever is left of the longer list. */
export function interleave<A, B = A>(a: readonly A[], b: readonly B[]): (A | B)[] {
  const out: (A | B)[] = [];
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (i < a.length) out.push(a[i]);
    if (i < b.length) out.push(b[i]);
  }
  return out;
}

/**
 * Where insertions go among `productCount` products: the product index each one is placed before,
 * spread evenly (never before the first product unless there are none), non-decreasing.
 */
export function insertionSlots(productCount: number, insertionCount: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < insertionCount; i++) {
    if (productCount <= 0) {
      out.push(0);
      continue;
    }
    const slot = Math.round(((i + 1) * productCount) / (insertionCount + 1));
    out.push(Math.min(productCount, Math.max(1, slot)));
  }
  return out;
}

export function insertionKey(ins: FeedInsertion): string {
  switch (ins.kind) {
    case "collection":
      return `collection:${ins.collection.id}`;
    case "store":
      return `store:${ins.store.id}`;
    case "style":
      return `style:${ins.style.id}`;
    case "outfit":
      return `outfit:${ins.outfit.id}`;
  }
}

/**
 * The whole feed from its raw pages: each page's products interleaved (random first), without
 * products or insertions shown before, with the page's insertions spread between its products.
 */
export function composeFeed(pages: readonly RawFeedPage[]): FeedEntry[] {
  const seen = new Set<string>();
  const out: FeedEntry[] = [];
  for (const page of pages) {
    const products: FeedEntry[] = [];
    const tagged = interleave(
      page.random.map((product) => ({ product, source: "random" as const })),
      page.related.map((product) => ({ product, source: "related" as const })),
    );
    for (const { product, source } of tagged) {
      const key = `product:${product.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      products.push({ type: "product", key, product, source });
    }
    const insertions: FeedEntry[] = [];
    for (const insertion of page.insertions) {
      const key = insertionKey(insertion);
      if (seen.has(key)) continue;
      seen.add(key);
      insertions.push({ type: "insertion", key, insertion });
    }
    const slots = insertionSlots(products.length, insertions.length);
    let next = 0;
    products.forEach((entry, i) => {
      while (next < insertions.length && slots[next] === i) out.push(insertions[next++]);
      out.push(entry);
    });
    while (next < insertions.length) out.push(insertions[next++]);
  }
  return out;
}

/** How many product entries a composed feed holds. */
export function countProducts(entries: readonly FeedEntry[]): number {
  return entries.reduce((n, e) => n + (e.type === "product" ? 1 : 0), 0);
}
