/**
 * "Complete the look" server-rendered with a seeded query cache: a published look (its name, the
 * other products of the look, a "Save look" button), the engine's look when no published one holds
 * the product, and nothing at all when there is neither. Effects do not run; the API client fails if called.
 */
import { describe, expect, it } from "vitest";
import type { QueryClient } from "@tanstack/react-query";
import type { ProductCard } from "~/contract";
import type { OutfitDetail, OutfitProposal } from "~/contract/outfits";
import { CompleteTheLook, completeTheLookKey } from "../../../storefront/src/components/CompleteTheLook";
import { renderWithSession } from "../../helpers/storefront-render";

const card = (n: number, title: string): ProductCard => ({
  id: `gid://shopify/Product/${n}`,
  title,
  handle: `p-${n}`,
  vendor: "Demo",
  productType: "Shirts",
  availableForSale: true,
  featuredImage: { url: `/images/p-${n}.jpg`, altText: title },
  priceRange: { minVariantPrice: { amount: "40.00", currencyCode: "USD" }, maxVariantPrice: { amount: "40.00", currencyCode: "USD" } },
  target_gender: "menswear",
  colorHexes: [],
  storeId: null,
});
const shirt = card(1, "Navy Oxford Shirt");
const chinos = card(2, "Stone Chinos");
const coat = card(3, "Wool Overcoat");

const look: OutfitDetail = {
  id: "o1",
  name: "City Smart",
  description: "Shirt, chinos and a coat",
  image_url: null,
  source: "curated",
  status: "published",
  target_gender: "menswear",
  sort_order: 0,
  product_ids: [shirt.id, chinos.id, coat.id],
  published_at: "2026-11-28T09:00:00.000Z",
  created_at: "2026-11-28T09:00:00.000Z",
  updated_at: "2026-11-28T09:00:00.000Z",
  products: [shirt, chinos, coat],
};
const proposal: OutfitProposal = {
  key: "k",
  name: "Navy Oxford Shirt look",
  target_gender: "menswear",
  product_ids: [shirt.id, chinos.id],
  products: [shirt, chinos],
  score: 0.9,
  attributes: { groups: ["top", "bottom"], harmony: "neutral", co_purchase: 1 },
};

const render = (data: { outfits: OutfitDetail[]; proposal: OutfitProposal | null }) =>
  renderWithSession("/products/p-1", <CompleteTheLook productId={shirt.id} />, (qc: QueryClient) => qc.setQueryData(completeTheLookKey(shirt.id), data));
const count = (html: string, testId: string) => html.split(`data-testid="${testId}"`).length - 1;

describe("Complete the look (server render)", () => {
  it("shows a published look: heading, name, description, the other products, a Save look button", () => {
    const html = render({ outfits: [look], proposal: null });
    expect(html).toMatch(/<h2 id="[^"]+" class="section-title">Complete the look<\/h2>/);
    expect(html).toContain('aria-label="City Smart"');
    expect(html).toContain("Shirt, chinos and a coat");
    // The product on the page is not repeated in its own look.
    expect(count(html, "product-card")).toBe(2);
    expect(html).toContain('aria-label="Stone Chinos"');
    expect(html).toContain('aria-label="Wool Overcoat"');
    expect(html).not.toContain('aria-label="Navy Oxford Shirt"');
    expect(html).toContain('aria-label="Save look City Smart"');
    expect(count(html, "outfit-proposal")).toBe(0);
  });

  it("falls back to the engine's look when no published look holds the product", () => {
    const html = render({ outfits: [], proposal });
    expect(html).toContain("Complete the look");
    expect(count(html, "outfit-proposal")).toBe(1);
    expect(html).toContain("Pieces that go with it");
    expect(count(html, "product-card")).toBe(1);
    expect(html).not.toContain("Save look");
  });

  it("renders nothing when there is no look at all", () => {
    const html = render({ outfits: [], proposal: null });
    expect(html).not.toContain("Complete the look");
  });

  it("shows a loading note before the looks arrive", () => {
    const html = renderWithSession("/products/p-1", <CompleteTheLook productId={shirt.id} />);
    expect(html).toContain("Complete the look");
    expect(html).toContain("Loading looks…");
  });
});

describe("a look in the home feed (server render)", () => {
  it("shows as an insertion: its kind, name as the heading, description and products", async () => {
    const { FeedInsertion } = await import("../../../storefront/src/components/FeedInsertion");
    const html = renderWithSession("/", <FeedInsertion insertion={{ kind: "outfit", outfit: look, products: look.products }} gender="menswear" />);
    expect(html).toContain('data-kind="outfit"');
    expect(html).toContain('<p class="insertion__kind">Complete the look</p>');
    expect(html).toContain('<h2 id="ins-outfit-o1" class="insertion__title">City Smart</h2>');
    expect(html).toContain("Shirt, chinos and a coat");
    expect(count(html, "product-card")).toBe(3);
  });
});

describe("looks saved in a collection (server render)", () => {
  it("lists each saved look with its products and a Remove button; nothing when there is none", async () => {
    const { CollectionOutfits, collectionOutfitsKey } = await import("../../../storefront/src/components/CollectionOutfits");
    const html = renderWithSession("/my-collections/c1", <CollectionOutfits collectionId="c1" />, (qc) => qc.setQueryData(collectionOutfitsKey("c1"), { data: { items: [look] } }));
    expect(html).toContain("Saved looks");
    expect(html).toContain('aria-label="Remove look City Smart"');
    expect(count(html, "product-card")).toBe(3);
    const none = renderWithSession("/my-collections/c1", <CollectionOutfits collectionId="c1" />, (qc) => qc.setQueryData(collectionOutfitsKey("c1"), { data: { items: [] } }));
    expect(none).not.toContain("Saved looks");
  });
});
