import { describe, expect, it } from "vitest";
import {
  composeFeed,
  countProducts,
  feedBatchSize,
  feedInsertionCount,
  insertionRequests,
  insertionSlots,
  insertionsBefore,
  interleave,
  orderInsertions,
  type FeedInsertion,
  type RawFeedPage,
} from "../../storefront/src/lib/home-feed";
import type { ApiClient } from "~/client";
import { FIRST_HOME_CURSOR, fetchHomeFeedPage, relatedPageFor } from "../../storefront/src/lib/home-feed-query";
import { card, collection, store, style } from "./storefront-fixtures";

const col = (id: string): FeedInsertion => ({ kind: "collection", collection: collection(id), products: [] });
const sto = (id: string): FeedInsertion => ({ kind: "store", store: store(id), products: [] });
const sty = (id: string): FeedInsertion => ({ kind: "style", style: style(id) });
const outfitOf = (id: string) => ({
  id,
  name: `Look ${id}`,
  description: null,
  image_url: null,
  source: "curated" as const,
  status: "published" as const,
  target_gender: "both" as const,
  sort_order: 0,
  product_ids: [card(6000).id],
  published_at: null,
  created_at: "2026-11-28T00:00:00.000Z",
  updated_at: "2026-11-28T00:00:00.000Z",
  products: [card(6000)],
});
const look = (id: string): FeedInsertion => ({ kind: "outfit", outfit: outfitOf(id), products: [card(6000)] });

describe("home feed sizes (SPEC §9)", () => {
  it("asks 6 items on the first page and 3 later", () => {
    expect(feedBatchSize(0)).toBe(6);
    expect(feedBatchSize(1)).toBe(3);
    expect(feedBatchSize(7)).toBe(3);
  });

  it("has 4 insertions on the first page and 2 later", () => {
    expect(feedInsertionCount(0)).toBe(4);
    expect(feedInsertionCount(1)).toBe(2);
    expect(insertionsBefore(0)).toBe(0);
    expect(insertionsBefore(1)).toBe(4);
    expect(insertionsBefore(3)).toBe(8);
  });
});

describe("insertion rotation", () => {
  it("pages each kind on its own: collection, store, style, outfit, collection…", () => {
    // slots 0..3: collection, store, style, outfit
    expect(insertionRequests(0)).toEqual([
      { kind: "collection", skip: 0, take: 1 },
      { kind: "store", skip: 0, take: 1 },
      { kind: "style", skip: 0, take: 1 },
      { kind: "outfit", skip: 0, take: 1 },
    ]);
    // slots 4..5: collection, store
    expect(insertionRequests(1)).toEqual([
      { kind: "collection", skip: 1, take: 1 },
      { kind: "store", skip: 1, take: 1 },
    ]);
    // slots 6..7: style, outfit
    expect(insertionRequests(2)).toEqual([
      { kind: "style", skip: 1, take: 1 },
      { kind: "outfit", skip: 1, take: 1 },
    ]);
    // The three-kind rotation still works as a parameter.
    expect(insertionRequests(0, ["collection", "store", "style"])).toEqual([
      { kind: "collection", skip: 0, take: 2 },
      { kind: "store", skip: 0, take: 1 },
      { kind: "style", skip: 0, take: 1 },
    ]);
  });

  it("orders a page's insertions by the rotation and skips kinds that ran out", () => {
    expect(orderInsertions(0, { collection: [col("c1"), col("c2")], store: [sto("s1")], style: [sty("y1")] }).map((i) => i.kind)).toEqual([
      "collection",
      "store",
      "style",
    ]);
    expect(orderInsertions(0, { collection: [col("c1")], style: [] }).map((i) => i.kind)).toEqual(["collection"]);
    expect(orderInsertions(1, { store: [sto("s2")], style: [sty("y2")] }).map((i) => i.kind)).toEqual(["store"]);
    expect(orderInsertions(2, { style: [sty("y2")], outfit: [look("o1")] }).map((i) => i.kind)).toEqual(["style", "outfit"]);
  });
});

describe("interleave", () => {
  it("alternates, starting with the first list, then appends the rest", () => {
    expect(interleave([1, 2, 3], ["a", "b"])).toEqual([1, "a", 2, "b", 3]);
    expect(interleave([], ["a", "b"])).toEqual(["a", "b"]);
    expect(interleave([1], [])).toEqual([1]);
  });
});

describe("insertion slots", () => {
  it("spreads insertions evenly between products, never first", () => {
    expect(insertionSlots(12, 4)).toEqual([2, 5, 7, 10]);
    expect(insertionSlots(6, 2)).toEqual([2, 4]);
    expect(insertionSlots(2, 4)).toEqual([1, 1, 1, 2]);
    expect(insertionSlots(0, 2)).toEqual([0, 0]);
  });
});

describe("composeFeed", () => {
  const page = (random: number[], related: number[], insertions: FeedInsertion[] = []): RawFeedPage => ({
    random: random.map((i) => card(i)),
    related: related.map((i) => card(i)),
    insertions,
  });

  it("interleaves random and related items and places insertions between them", () => {
    const feed = composeFeed([page([1, 2, 3, 4, 5, 6], [11, 12, 13, 14, 15, 16], [col("c1"), sto("s1"), sty("y1"), col("c2")])]);
    expect(countProducts(feed)).toBe(12);
    const keys = feed.map((e) => (e.type === "product" ? e.product.id.replace("gid://shopify/Product/", "") : e.key));
    expect(keys).toEqual(["1", "11", "collection:c1", "2", "12", "3", "store:s1", "13", "4", "style:y1", "14", "5", "15", "collection:c2", "6", "16"]);
    expect(feed[0]).toMatchObject({ type: "product", source: "random" });
    expect(feed[1]).toMatchObject({ type: "product", source: "related" });
  });

  it("drops products and insertions an earlier page (or the other source) already showed", () => {
    const feed = composeFeed([page([1, 2], [2, 3], [col("c1")]), page([3, 4], [1, 5], [col("c1"), sto("s1")])]);
    const ids = feed.filter((e) => e.type === "product").map((e) => (e.type === "product" ? e.product.id : ""));
    expect(ids).toEqual([1, 2, 3, 4, 5].map((i) => `gid://shopify/Product/${i}`));
    expect(feed.filter((e) => e.type === "insertion").map((e) => e.key)).toEqual(["collection:c1", "store:s1"]);
    expect(new Set(feed.map((e) => e.key)).size).toBe(feed.length);
  });

  it("keeps insertions when a page has no products", () => {
    const feed = composeFeed([page([], [], [col("c1"), sto("s1")])]);
    expect(feed.map((e) => e.key)).toEqual(["collection:c1", "store:s1"]);
  });
});


describe("fetchHomeFeedPage (fake client)", () => {
  function fakeApi(opts: { randomPages?: number; forYouFails?: boolean } = {}) {
    const calls: { name: string; input: any }[] = [];
    const pageOf = (prefix: number, n: number, offset: number) => Array.from({ length: n }, (_, i) => card(prefix + offset + i));
    const api = {
      recommendationsRandom: async (input: any) => {
        calls.push({ name: "random", input });
        const index = input.query.cursor ? Number(input.query.cursor) : 0;
        const last = index + 1 >= (opts.randomPages ?? 5);
        return { results: pageOf(1000, input.query.limit, index * 10), reasons: [], source: "random", seed: "s", pagination: { hasNextPage: !last, hasPreviousPage: index > 0, currentPage: null, cursor: last ? null : String(index + 1), limit: input.query.limit } };
      },
      recommendationsForYou: async (input: any) => {
        calls.push({ name: "for-you", input });
        if (opts.forYouFails) throw new Error("down");
        return { results: pageOf(2000, input.query.limit, (input.query.page - 1) * input.query.limit), reasons: [], source: "personalized", pagination: { hasNextPage: true, hasPreviousPage: false, currentPage: input.query.page, cursor: null, limit: input.query.limit } };
      },
      recommendationsCustomersAlsoViewed: async (input: any) => {
        calls.push({ name: "also-viewed", input });
        return { results: [card(3000)], reasons: [], source: "co-viewed", pagination: { hasNextPage: false, hasPreviousPage: false, currentPage: 1, cursor: null, limit: 6 } };
      },
      collectionsInsertions: async (input: any) => {
        calls.push({ name: "collections", input });
        return { collections: Array.from({ length: input.query.take }, (_, i) => ({ ...collection(`c${input.query.skip + i}`), products: [card(4000 + i)] })) };
      },
      storesInsertions: async (input: any) => {
        calls.push({ name: "stores", input });
        return { stores: [{ ...store(`s${input.query.skip}`), products: [card(5000)] }] };
      },
      stylesRandom: async (input: any) => {
        calls.push({ name: "styles", input });
        return { styles: Array.from({ length: input.query.n }, (_, i) => style(`y${i}`)), seed: "s" };
      },
      outfitsList: async (input: any) => {
        calls.push({ name: "outfits", input });
        return { outfits: [outfitOf(`o${input.query.skip}`)], total: 1, skip: input.query.skip, take: input.query.take };
      },
    } as unknown as ApiClient;
    return { api, calls };
  }

  it("asks 6 of each source on the first page with the gender and the session seed, and 4 insertions", async () => {
    const { api, calls } = fakeApi();
    const page = await fetchHomeFeedPage(api, { gender: "menswear", seed: "session-1", recentProductId: null }, FIRST_HOME_CURSOR);
    const random = calls.find((c) => c.name === "random")!;
    expect(random.input.query).toMatchObject({ seed: "session-1", limit: 6, target_gender: "menswear" });
    expect(random.input.query.cursor).toBeUndefined();
    expect(calls.find((c) => c.name === "for-you")!.input.query).toMatchObject({ page: 1, limit: 6, target_gender: "menswear" });
    expect(calls.find((c) => c.name === "collections")!.input.query).toEqual({ skip: 0, take: 1, target_gender: "menswear" });
    expect(calls.find((c) => c.name === "outfits")!.input.query).toEqual({ skip: 0, take: 1, target_gender: "menswear" });
    expect(page.random).toHaveLength(6);
    expect(page.related).toHaveLength(6);
    expect(page.insertions.map((i) => i.kind)).toEqual(["collection", "store", "style", "outfit"]);
    expect(page.next).toEqual({ index: 1, randomCursor: "1", randomDone: false, relatedOffset: 6 });
  });

  it("later pages ask 3 of each, continue the random cursor and the related offset", async () => {
    const { api, calls } = fakeApi();
    const page = await fetchHomeFeedPage(api, { gender: "both", seed: "s", recentProductId: null }, { index: 1, randomCursor: "1", randomDone: false, relatedOffset: 6 });
    expect(calls.find((c) => c.name === "random")!.input.query).toMatchObject({ cursor: "1", limit: 3 });
    expect(calls.find((c) => c.name === "random")!.input.query.target_gender).toBeUndefined();
    // items 6..8 of for-you are page 3 at 3 a page
    expect(calls.find((c) => c.name === "for-you")!.input.query).toMatchObject({ page: 3, limit: 3 });
    expect(relatedPageFor(6, 3)).toBe(3);
    expect(page.insertions).toHaveLength(2);
    expect(page.next?.relatedOffset).toBe(9);
  });

  it("falls back to customers-also-viewed of the last viewed product when for-you fails, and ends when both run out", async () => {
    const { api, calls } = fakeApi({ randomPages: 1, forYouFails: true });
    const page = await fetchHomeFeedPage(api, { gender: "both", seed: "s", recentProductId: "gid://shopify/Product/7" }, FIRST_HOME_CURSOR);
    expect(calls.find((c) => c.name === "also-viewed")!.input.params).toEqual({ id: "gid://shopify/Product/7" });
    expect(page.related.map((p) => p.id)).toEqual(["gid://shopify/Product/3000"]);
    expect(page.next).toBeUndefined();
  });
});
