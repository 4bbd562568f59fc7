/**
 * Results that match the request (issue 20, item 6): a search for a colour carries, on each card,
 * the variant of that colour (its id, image and colour) so the card shows the black pair and
 * links to it; and the shopping assistant (local language model) starts with a product in stock,
 * saying plainly when only sold-out ones match.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearSearchCaches } from "../../app/services/search/search.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { createProduct, pgid, vgid, type ProductFixture } from "./products-fixtures";

let app: TestApp;

const P = (n: number, title: string, productType: string, colours: Record<string, string>, extra: Partial<ProductFixture> = {}): ProductFixture => ({
  n,
  title,
  productType,
  gender: "both",
  price: 60 + n,
  colours,
  sizes: ["S", "M"],
  // One image per colour: the first colour's is the product's featured image.
  images: Object.keys(colours).length,
  companion: false,
  vendor: "Tidewater Denim",
  tags: [productType.toLowerCase()],
  ...extra,
});

interface MatchedVariant {
  id: string;
  title: string;
  colour: string;
  colorHex: string | null;
  image: { url: string; altText: string | null } | null;
  availableForSale: boolean;
}
interface Card {
  id: string;
  title: string;
  availableForSale: boolean;
  featuredImage: { url: string } | null;
  matchedVariant?: MatchedVariant;
}

const search = (body: Record<string, unknown>) => app.api("POST", "/search", { body });
const byId = (cards: Card[], id: string) => cards.find((c) => c.id === id);

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  // Light wash first: its photo is the product's featured image (the bug: "black jeans" showed it).
  await createProduct(db, P(1, "Slim Jeans", "Jeans", { "Light Wash": "#8fabcb", Black: "#1c1c1e" }));
  await createProduct(db, P(2, "Straight Jeans", "Jeans", { Indigo: "#2d3a5e", "Washed Black": "#2b2b2b" }));
  await createProduct(db, P(3, "Wide Jeans", "Jeans", { "Light Wash": "#8fabcb" }));
  // Sold out in every colour.
  await createProduct(db, P(4, "Barrel Jeans", "Jeans", { Black: "#1c1c1e" }, { inventory: 0 }));
  // Only sold-out corduroy trousers exist.
  await createProduct(db, P(5, "Cord Trousers", "Trousers", { Burgundy: "#6d1f2f" }, { inventory: 0, tags: ["trousers", "corduroy"] }));
  await createProduct(db, P(6, "Pleated Trousers", "Trousers", { Stone: "#c8bfae" }, { tags: ["trousers"] }));
  // Slim Jeans: the black S is sold out, the black M is not (the card shows the one in stock).
  await db.productVariant.update({ where: { id: vgid(1, 2) }, data: { inventory_quantity: 0, availableForSale: false } });
}, 120_000);
afterAll(() => app?.close());

describe("search: the card of a colour search shows and links the variant of that colour", () => {
  it('"black jeans": every card carries its black variant, in stock first, with that variant\'s image', async () => {
    clearSearchCaches(app.database.db);
    const r = await search({ query: "black jeans" });
    expect(r.status).toBe(200);
    expect(r.body.filters.applied.colors).toEqual(["black"]);
    const cards = r.body.results as Card[];
    expect(new Set(cards.map((c) => c.id))).toEqual(new Set([pgid(1), pgid(2), pgid(4)]));

    const slim = byId(cards, pgid(1))!;
    // The featured image stays the product's (light wash); the matched variant is the black M in stock.
    expect(slim.featuredImage?.url).toBe("/uploads/images/test/1-0.jpg");
    expect(slim.matchedVariant).toEqual({
      id: vgid(1, 3),
      title: "Black / M",
      colour: "Black",
      colorHex: "#1c1c1e",
      image: { url: "/uploads/images/test/1-1.jpg", altText: null },
      availableForSale: true,
    });
    // A shade of the family counts as the colour asked.
    expect(byId(cards, pgid(2))!.matchedVariant).toMatchObject({ colour: "Washed Black", image: { url: "/uploads/images/test/2-1.jpg" }, availableForSale: true });
    // Sold out everywhere: still the black variant, marked sold out.
    expect(byId(cards, pgid(4))!.matchedVariant).toMatchObject({ id: vgid(4, 0), colour: "Black", availableForSale: false });
  });

  it("a colour facet (filters.colors) and unparsed colour words (skipAutoParsing) pick the variant too", async () => {
    const facet = await search({ query: "jeans", filters: { colors: ["blue"] } });
    expect(facet.status).toBe(200);
    const cards = facet.body.results as Card[];
    expect(new Set(cards.map((c) => c.id))).toEqual(new Set([pgid(1), pgid(2), pgid(3)]));
    expect(byId(cards, pgid(1))!.matchedVariant).toMatchObject({ colour: "Light Wash", image: { url: "/uploads/images/test/1-0.jpg" } });
    expect(byId(cards, pgid(2))!.matchedVariant).toMatchObject({ colour: "Indigo", image: { url: "/uploads/images/test/2-0.jpg" } });

    const raw = await search({ query: "black jeans", skipAutoParsing: true });
    expect(raw.status).toBe(200);
    const slim = byId(raw.body.results as Card[], pgid(1));
    expect(slim?.matchedVariant).toMatchObject({ id: vgid(1, 3), colour: "Black" });
  });

  it("no colour asked: no matched variant (the card keeps the product's image)", async () => {
    const r = await search({ query: "jeans" });
    expect(r.status).toBe(200);
    expect(r.body.results.length).toBe(4);
    for (const c of r.body.results as Card[]) expect(c.matchedVariant).toBeUndefined();
  });

  it("a colour the catalogue does not have matches nothing; a bad filter is refused", async () => {
    const none = await search({ query: "jeans", filters: { colors: ["purple"] } });
    expect(none.status).toBe(200);
    expect(none.body.results).toEqual([]);
    const bad = await search({ query: "jeans", filters: { colors: [""] } });
    expect(bad.status).toBe(400);
  });
});

describe("assistant: prefers products in stock; says when only sold-out ones match", () => {
  async function ask(content: string) {
    const { token } = await app.createUser({ firstName: "Ada" });
    const conv = await app.api("POST", "/agent/conversations", { token, body: {} });
    expect(conv.status).toBe(201);
    const r = await app.api("POST", `/agent/conversations/${conv.body.id}/messages`, { token, body: { content } });
    expect(r.status).toBe(201);
    return r.body.reply as { content: string; intent: string; products: Card[] };
  }

  it('"black jeans": only pieces in stock, the first one named as the place to start, with its black variant', async () => {
    const reply = await ask("black jeans");
    expect(reply.intent).toBe("find_products");
    expect(reply.products.length).toBeGreaterThan(0);
    for (const p of reply.products) expect(p.availableForSale).toBe(true);
    expect(reply.products.map((p) => p.id)).not.toContain(pgid(4));
    expect(reply.content).toContain(`The ${reply.products[0].title} by Tidewater Denim`);
    expect(reply.content).toContain("good place to start");
    expect(reply.content).not.toContain("Barrel Jeans");
    expect(byId(reply.products, pgid(1))?.matchedVariant).toMatchObject({ colour: "Black", availableForSale: true });
  });

  it("only sold-out ones match: the answer says so, names them and offers notify-me", async () => {
    const reply = await ask("burgundy trousers");
    expect(reply.intent).toBe("find_products");
    expect(reply.products.map((p) => p.id)).toEqual([pgid(5)]);
    expect(reply.products[0].availableForSale).toBe(false);
    expect(reply.content).toMatch(/^Only sold-out ones match burgundy trousers: the Cord Trousers by Tidewater Denim\./);
    expect(reply.content).toContain("Notify me when back in stock");
    expect(reply.content).not.toContain("good place to start");
  });

  it("an empty message is refused", async () => {
    const { token } = await app.createUser();
    const conv = await app.api("POST", "/agent/conversations", { token, body: {} });
    const r = await app.api("POST", `/agent/conversations/${conv.body.id}/messages`, { token, body: { content: "" } });
    expect(r.status).toBe(400);
  });
});
