/**
 * The local language model (deterministic): intents and slots of shoppers' messages with the demo
 * catalogue's vocabulary (the search parser's context), the reply templates, the collection copy,
 * the slot helpers (refinements, phrases) and the port's validation.
 */
import { describe, expect, it } from "vitest";
import type { ParseContext } from "../../app/lib/query-parser";
import { parseSearchQuery } from "../../app/lib/query-parser";
import { typeFamily } from "../../app/services/similar-products.server";
import { COLOURS, GARMENTS, MATERIALS, STORES } from "../../prisma/demo/catalog-data";
import { createLocalLanguageModel, formatPrice, productPhrase, templateCollectionCopy, templateReply, titleFromPrompt, understandMessage } from "../../app/providers/language-model/local.server";
import {
  CollectionCopyInput,
  LanguageModelError,
  ReplyInput,
  describeSlots,
  emptySlots,
  isRefinement,
  phraseFromSlots,
  refineSlots,
  withValidation,
  type LanguageModelPort,
  type NluSlots,
  type ReplyProduct,
} from "../../app/providers/language-model/port";

const catalogueWords = new Set(
  [...Object.keys(MATERIALS), ...GARMENTS.flatMap((g) => [g.productType, ...g.nouns, ...g.fits])]
    .join(" ")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean),
);

const ctx: ParseContext = {
  colourNames: Object.keys(COLOURS),
  productTypes: [...new Set(GARMENTS.map((g) => g.productType))],
  stores: STORES.map((s) => ({ id: `store-${s.key}`, name: s.name })),
  sizes: ["XS", "S", "M", "L", "XL", "XXL", "28", "30", "32", "34", "EU 46", "EU 48"],
  hasWord: (w) => catalogueWords.has(w),
  typeFamily,
};

const understand = (message: string, product: { id: string } | null = null) => understandMessage({ message, product }, ctx);
const slots = (over: Partial<NluSlots> = {}): NluSlots => ({ ...emptySlots(), ...over });

describe("intents", () => {
  it.each([
    ["black jeans under 80", "find_products"],
    ["show me linen shirts for men", "find_products"],
    ["I'm looking for a red dress", "find_products"],
    ["cosy winter knits", "find_products"],
    ["under $50", "find_products"],
    ["what goes with this?", "complete_the_look"],
    ["What can I wear with black jeans?", "complete_the_look"],
    ["complete the look", "complete_the_look"],
    ["anything similar?", "similar_products"],
    ["something similar to a navy blazer", "similar_products"],
    ["show me alternatives", "similar_products"],
    ["more like this", "similar_products"],
    ["what size should I get?", "size_help"],
    ["does it run small?", "size_help"],
    ["how does it fit", "size_help"],
    ["where is my order?", "order_status"],
    ["track my package", "order_status"],
    ["has my order shipped", "order_status"],
    ["hi", "greeting"],
    ["Hello there!", "greeting"],
    ["thanks!", "greeting"],
    ["help", "help"],
    ["what can you do?", "help"],
    ["what's the weather like", "unknown"],
    ["asdfgh qwerty", "unknown"],
  ])("%s → %s", (message, intent) => {
    expect(understand(message).intent).toBe(intent);
  });

  it("a greeting with a request is the request", () => {
    const r = understand("hello, I'm looking for a navy linen shirt for men size M");
    expect(r.intent).toBe("find_products");
    expect(r.slots).toMatchObject({ colors: ["navy"], materials: ["linen"], productTypes: ["Shirts"], sizes: ["M"], target_gender: "menswear" });
    expect(r.query).not.toMatch(/hello|looking/);
  });

  it("is deterministic and gives a confidence", () => {
    const a = understand("black jeans under 80");
    expect(understand("black jeans under 80")).toEqual(a);
    expect(a.confidence).toBeGreaterThan(0.5);
    expect(understand("asdfgh").confidence).toBeLessThan(0.5);
  });
});

describe("slots (through the search parser)", () => {
  it("colour, type and price: black jeans under 80", () => {
    const r = understand("black jeans under 80");
    expect(r.slots).toEqual(slots({ colors: ["black"], productTypes: ["Jeans"], priceMax: 80 }));
    expect(r.query).toBe("black jeans under 80");
  });

  it("the same filters as the search parser", () => {
    for (const q of ["navy linen shirt for men under $80 size M", "red dress for women between 50 and 100", "Tidewater Denim jeans"]) {
      const parsed = parseSearchQuery(q, ctx).filters;
      const s = understand(q).slots;
      expect(s.colors).toEqual(parsed.colors ?? []);
      expect(s.productTypes).toEqual(parsed.productTypes ?? []);
      expect(s.priceMax).toBe(parsed.priceMax ?? null);
      expect(s.priceMin).toBe(parsed.priceMin ?? null);
      expect(s.storeIds).toEqual(parsed.storeIds ?? []);
    }
    expect(understand("Tidewater Denim jeans").slots.storeIds).toEqual(["store-tidewater-denim"]);
  });

  it("gender from the message, or from whom it is for", () => {
    expect(understand("a jumper for my dad").slots).toMatchObject({ productTypes: ["Knitwear"], target_gender: "menswear", text: "" });
    expect(understand("a dress for my sister").slots.target_gender).toBe("womenswear");
    expect(understand("shirts for women").slots.target_gender).toBe("womenswear");
    expect(understand("shirts").slots.target_gender).toBeNull();
  });

  it("words that describe the product stay as text; filler words do not", () => {
    expect(understand("cosy winter knits").slots).toMatchObject({ productTypes: ["Knitwear"], text: "cosy winter" });
    expect(understand("can you show me something oversized please").slots.text).toBe("oversized");
  });

  it("the product in context is the slot's product", () => {
    expect(understand("what goes with this?", { id: "gid://shopify/Product/1" }).slots.product_id).toBe("gid://shopify/Product/1");
    expect(understand("what goes with black jeans?").slots).toMatchObject({ colors: ["black"], productTypes: ["Jeans"], product_id: null });
  });

  it("intent phrases are taken out of the product phrase", () => {
    expect(productPhrase("What goes with black jeans?")).toBe("black jeans");
    expect(productPhrase("Something similar to a navy blazer")).toBe("a navy blazer");
    expect(productPhrase("Hi! I'm looking for a red dress")).toBe("a red dress");
  });
});

describe("slot helpers", () => {
  it("describes and re-phrases slots", () => {
    const s = slots({ colors: ["black"], productTypes: ["Jeans"], priceMax: 80, sizes: ["32"], target_gender: "menswear" });
    expect(describeSlots(s)).toBe("black jeans for men in size 32 under $80");
    const phrase = phraseFromSlots(s);
    const back = parseSearchQuery(phrase, ctx).filters;
    expect(back).toMatchObject({ colors: ["black"], productTypes: ["Jeans"], priceMax: 80, sizes: ["32"], target_gender: "menswear" });
    expect(describeSlots(slots({ text: "wedding", priceMin: 20, priceMax: 50 }))).toBe("wedding $20–$50");
  });

  it("a message that only narrows refines the previous request", () => {
    const previous = slots({ colors: ["black"], productTypes: ["Jeans"], priceMax: 80 });
    const next = understand("under $50").slots;
    expect(isRefinement(next)).toBe(true);
    expect(refineSlots(previous, next)).toMatchObject({ colors: ["black"], productTypes: ["Jeans"], priceMax: 50 });
    expect(refineSlots(previous, understand("in blue").slots)).toMatchObject({ colors: ["blue"], productTypes: ["Jeans"], priceMax: 80 });
    // A minimum above the old maximum drops the old maximum.
    expect(refineSlots(previous, understand("over 100").slots)).toMatchObject({ priceMin: 100, priceMax: null });
    expect(isRefinement(understand("linen shirts").slots)).toBe(false);
  });
});

const product = (i: number, over: Partial<ReplyProduct> = {}): ReplyProduct => ({
  id: `gid://shopify/Product/${i}`,
  title: `Slim Jean ${i}`,
  productType: "Jeans",
  vendor: "Tidewater Denim",
  price: "72",
  currencyCode: "USD",
  available: true,
  ...over,
});

const reply = (input: Parameters<typeof ReplyInput.parse>[0]) => templateReply(ReplyInput.parse(input));

describe("reply templates", () => {
  it("find: how many, what, and a first pick with its price", () => {
    const r = reply({ message: "black jeans under 80", intent: "find_products", slots: slots({ colors: ["black"], productTypes: ["Jeans"], priceMax: 80 }), products: [product(1), product(2)], facts: { total: 14 } });
    expect(r.text).toBe("Here are 2 black jeans under $80 (of 14 I found). The Slim Jean 1 by Tidewater Denim ($72.00) is a good place to start.");
    expect(r.suggestions).toContain("What goes with it?");
    expect(r.suggestions).toContain("Under $50");
  });

  it("find: a sold-out piece is never the place to start; only sold-out ones: said plainly, with notify-me", () => {
    const s = slots({ colors: ["black"], productTypes: ["Jeans"] });
    const mixed = reply({ message: "black jeans", intent: "find_products", slots: s, products: [product(1, { available: false }), product(2)] });
    expect(mixed.text).toBe("Here are 2 black jeans. The Slim Jean 2 by Tidewater Denim ($72.00) is a good place to start. One of them is sold out.");
    const soldOut = reply({ message: "black jeans", intent: "find_products", slots: s, products: [product(1, { available: false }), product(2, { available: false })], facts: { soldOutOnly: true } });
    expect(soldOut.text).toBe(
      'Only sold-out ones match black jeans: the Slim Jean 1 by Tidewater Denim and the Slim Jean 2 by Tidewater Denim. Open one and tap "Notify me when back in stock" to hear as soon as it\'s back.',
    );
    expect(soldOut.text).not.toContain("good place to start");
  });

  it("find: nothing, and the relaxed answer", () => {
    const s = slots({ colors: ["purple"], productTypes: ["Jeans"] });
    expect(reply({ message: "purple jeans", intent: "find_products", slots: s, products: [] }).text).toMatch(/^I couldn't find purple jeans right now/);
    expect(reply({ message: "purple jeans", intent: "find_products", slots: s, products: [product(1)], facts: { relaxed: true } }).text).toMatch(/^Nothing matched purple jeans exactly/);
  });

  it("similar and goes-with name the product, and ask for one when there is none", () => {
    const anchor = product(9, { title: "Navy Blazer", productType: "Blazers" });
    expect(reply({ message: "similar?", intent: "similar_products", slots: slots(), products: [product(1)], facts: { anchor } }).text).toBe("Here is 1 piece similar to the Navy Blazer.");
    expect(reply({ message: "similar?", intent: "similar_products", slots: slots(), products: [] }).text).toMatch(/^Which product do you mean\?/);
    const look = reply({
      message: "what goes with this",
      intent: "complete_the_look",
      slots: slots(),
      products: [product(1), product(2, { productType: "Shirts" })],
      facts: { anchor, anchorGuessed: true },
    });
    expect(look.text).toBe("To go with the Navy Blazer, try these jeans and shirts. (I took the Navy Blazer as the piece you meant.)");
  });

  it("size help quotes the store's advice and lists the sizes", () => {
    const anchor = product(3);
    const withAdvice = reply({ message: "what size?", intent: "size_help", slots: slots(), products: [], facts: { anchor, sizeAdvice: { store: "Tidewater Denim", recommendation: "Runs small: take one size up.", sizes: ["30", "32", "34"] } } });
    expect(withAdvice.text).toBe('Tidewater Denim recommends: "Runs small: take one size up.". It comes in 30, 32 and 34.');
    const without = reply({ message: "what size?", intent: "size_help", slots: slots(), products: [], facts: { anchor, sizeAdvice: { store: "Tidewater Denim", recommendation: null, sizes: ["M"] } } });
    expect(without.text).toMatch(/^Tidewater Denim has not shared size advice for the Slim Jean 3\. It comes in M\./);
    expect(reply({ message: "what size?", intent: "size_help", slots: slots(), products: [] }).text).toMatch(/^Open the product/);
  });

  it("order status: guests, no orders, the latest order", () => {
    expect(reply({ message: "my order", intent: "order_status", slots: slots(), products: [], facts: { registered: false } }).text).toMatch(/^Sign in to see your orders/);
    expect(reply({ message: "my order", intent: "order_status", slots: slots(), products: [], facts: { orders: [] } }).text).toMatch(/^I can't find any orders/);
    const r = reply({
      message: "my order",
      intent: "order_status",
      slots: slots(),
      products: [],
      facts: { orders: [{ name: "#1042", status: "open", placedAt: "2026-11-03T10:00:00.000Z", fulfillment: "FULFILLED", tracking: "1Z999", items: 2 }] },
    });
    expect(r.text).toBe("Your latest order #1042, placed on 3 Nov 2026, is shipped; tracking number 1Z999. You can follow it in My orders.");
  });

  it("greeting, help and unknown offer examples", () => {
    const hi = reply({ message: "hi", intent: "greeting", slots: slots(), products: [], facts: { firstName: "Ada" } });
    expect(hi.text).toMatch(/^Hi Ada! I'm your shopping assistant/);
    expect(hi.suggestions.length).toBeGreaterThan(0);
    expect(reply({ message: "Thanks!", intent: "greeting", slots: slots(), products: [] }).text).toBe("You're welcome! Anything else I can find for you?");
    expect(reply({ message: "help", intent: "help", slots: slots(), products: [] }).text).toMatch(/^I can find products/);
    expect(reply({ message: "?", intent: "unknown", slots: slots(), products: [] }).text).toMatch(/^Sorry, I didn't catch that/);
  });

  it("formats prices by currency", () => {
    expect(formatPrice("72", "USD")).toBe("$72.00");
    expect(formatPrice("19.5", "EUR")).toBe("€19.50");
    expect(formatPrice("10", "CHF")).toBe("10.00 CHF");
  });
});

describe("collection copy", () => {
  it("title from the prompt, description from the products", () => {
    const copy = templateCollectionCopy(
      CollectionCopyInput.parse({
        prompt: "linen shirts for summer",
        target_gender: "menswear",
        products: [
          { title: "A", productType: "Shirts", vendor: "Saltmarsh" },
          { title: "B", productType: "Shorts", vendor: "Verdant" },
          { title: "C", productType: "Shirts", vendor: "Northwind" },
        ],
        interests: ["minimalist"],
      }),
    );
    expect(copy.title).toBe("Linen Shirts for Summer");
    expect(copy.description).toBe('3 pieces for men picked for "linen shirts for summer": shirts and shorts from Saltmarsh, Verdant and 1 more. Chosen with your interests in mind: minimalist.');
    expect(titleFromPrompt("x ".repeat(80)).length).toBeLessThanOrEqual(61);
  });
});

describe("the local model through the port", () => {
  it("understands with the vocabulary it is given and validates its inputs", async () => {
    const lm = createLocalLanguageModel({ vocabulary: async () => ctx });
    expect(lm.name).toBe("local");
    const r = await lm.understand({ message: "black jeans under 80" });
    expect(r).toMatchObject({ intent: "find_products", provider: "local", slots: { colors: ["black"], productTypes: ["Jeans"], priceMax: 80 } });
    await expect(lm.understand({ message: "   " })).rejects.toBeInstanceOf(LanguageModelError);
    await expect(lm.understand({ message: "x".repeat(1001) })).rejects.toThrow(/understand input is invalid: message/);
    const copy = await lm.describeCollection({ prompt: "black jeans", target_gender: "both", products: [{ title: "A", productType: "Jeans", vendor: "V" }] });
    expect(copy.provider).toBe("local");
  });

  it("an adapter's malformed output is refused", async () => {
    const broken: LanguageModelPort = {
      name: "openai",
      understand: async () => ({ intent: "dance" }) as never,
      reply: async () => ({ text: "", suggestions: [], provider: "openai" }),
      describeCollection: async () => ({ title: "x".repeat(200), description: "d", provider: "openai" }),
      translateListing: async () => ({ title: "Shirt", description: [], provider: "openai" }),
      adCopy: async () => ({ variants: [], provider: "openai" }),
      socialsCopy: async () => ({ posts: [], provider: "openai" }),
    };
    const lm = withValidation(broken);
    await expect(lm.understand({ message: "hi" })).rejects.toThrow(/openai understand output is invalid/);
    await expect(lm.reply({ message: "hi", intent: "greeting", slots: slots(), products: [] })).rejects.toThrow(/reply output is invalid: text/);
    await expect(lm.describeCollection({ prompt: "p", target_gender: "both", products: [{ title: "a", productType: "b", vendor: "c" }] })).rejects.toThrow(/title/);
    const facts = { title: "Shirt", gender: "both" as const, material: null, composition: null, colours: [], sizes: [], attributes: [] };
    await expect(lm.translateListing({ title: "衬衫", facts })).rejects.toThrow(/openai translateListing output is invalid: description/);
  });
});
