/**
 * The related feed under a product (product page and modal), as pure functions: sources are read
 * one after the other (customers also viewed, then similar products), page by page, and products
 * already shown (or the product itself) are dropped.
 */
import type { ProductCard } from "~/contract";
import { PRODUCT_RELATED_BATCH_DESKTOP, PRODUCT_RELATED_BATCH_MOBILE } from "./constants";

export type RelatedSource = "also-viewed" | "similar";

/** The sources of the related feed, in order. */
export const RELATED_SOURCES: readonly RelatedSource[] = ["also-viewed", "similar"];

export interface RelatedCursor {
  source: RelatedSource;
  /** Page of that source, from 1. */
  page: number;
}

export interface RelatedPage {
  cursor: RelatedCursor;
  products: ProductCard[];
  /** Whether this source has another page. */
  hasNextPage: boolean;
}

export const FIRST_RELATED_CURSOR: RelatedCursor = { source: RELATED_SOURCES[0], page: 1 };

/** The batch size of the product page feed: 12 in the mobile-like mode, else 20 (SPEC §9). */
export function relatedBatchSize(mobile: boolean): number {
  return mobile ? PRODUCT_RELATED_BATCH_MOBILE : PRODUCT_RELATED_BATCH_DESKTOP;
}

/** The cursor after a page: the same source's next page, else the next source's first, else none. */
export function nextRelatedCursor(last: RelatedPage, sources: readonly RelatedSource[] = RELATED_SOURCES): RelatedCursor | undefined {
  if (last.hasNextPage) return { source: last.cursor.source, page: last.cursor.page + 1 };
  const i = sources.indexOf(last.cursor.source);
  const next = i >= 0 ? sources[i + 1] : undefined;
  return next ? { source: next, page: 1 } : undefined;
}

/** The products of the pages in order, each once, never the product itself (`excludeId`). */
export function mergeRelated(pages: readonly RelatedPage[], excludeId?: string | null): ProductCard[] {
  const seen = new Set<string>(excludeId ? [excludeId] : []);
  const out: ProductCard[] = [];
  for (const page of pages) {
    for (const p of page.products) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      out.push(p);
    }
  }
  return out;
}
