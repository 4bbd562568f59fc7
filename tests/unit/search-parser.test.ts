/**
 * The search query parser, with the demo catalogue's vocabulary as its context: colours,
 * materials, garment types, gender, price bounds, sizes, stores and availability become filters
 * and chips; the rest stays text.
 */
import { describe, expect, it } from "vitest";
import { parseSearchQuery, plainTerms, type ParseContext } from "../../app/lib/query-parser";
import { colourFamily, resolveColour } from "../../app/lib/search-colours";
import { typeFamily } from "../../app/services/similar-products.server";
import { COLOURS, GARMENTS, MATERIALS, STORES } from "../../prisma/demo/catalog-data";

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
  sizes: ["XS", "S", "M", "L", "XL", "XXL", "26", "28", "30", "32", "34", "EU 46", "EU 48", "EU 50"],
  hasWord: (w) => catalogueWords.has(w),
  typeFamily,
};

const parse = (q: string, c: ParseContext = ctx) => parseSearchQuery(q, c);

describe("colours", () => {
  it.each([
    ["red dress", ["red"], "Dresses"],
    ["navy shirt", ["navy"], "Shirts"],
    ["sky blue tee", ["sky blue"], "T-Shirts"],
    ["Forest Green hoodie", ["forest green"], "Hoodies & Sweatshirts"],
    ["off white polo", ["off white"], "Polos"],
    ["heather grey sweater", ["heather grey"], "Knitwear"],
    ["gray jeans", ["grey"], "Jeans"],
    ["black and white t-shirt", ["black", "white"], "T-Shirts"],
  ])("%s", (q, colors, type) => {
    const p = parse(q);
    expect(p.filters.colors).toEqual(colors);
    expect(p.filters.productTypes).toEqual([type]);
    expect(p.text).toBe("");
  });

  it("keeps a colour word the catalogue has no colour for as text", () => {
    const p = parse("neon jacket");
    expect(p.filters.colors).toBeUndefined();
    expect(p.text).toBe("neon");
    const noPurple = parse("purple shirt", { ...ctx, colourNames: ["Navy", "Black"] });
    expect(noPurple.filters.colors).toBeUndefined();
    expect(noPurple.terms).toEqual(["purple"]);
  });

  it("maps a shade onto the catalogue's colours only where they exist", () => {
    // The demo has Navy: navy selects Navy only.
    expect(resolveColour("navy", Object.keys(COLOURS))).toEqual(["Navy"]);
    // A catalogue with a plain Blue: navy means Blue there.
    expect(resolveColour("navy", ["Blue", "Sky Blue", "Red"])).toEqual(["Blue"]);
    // Without any blue, navy selects nothing (and the parser leaves the word as text).
    expect(resolveColour("navy", ["Red", "Black"])).toEqual([]);
    expect(parse("navy coat", { ...ctx, colourNames: ["Red", "Black"] }).filters.colors).toBeUndefined();
    // A family selects every colour of it.
    expect(new Set(resolveColour("blue", Object.keys(COLOURS)))).toEqual(new Set(["Navy", "Sky Blue", "Cobalt", "Indigo", "Mid Wash", "Light Wash", "Teal"]));
    expect(new Set(resolveColour("green", Object.keys(COLOURS)))).toEqual(new Set(["Olive", "Forest Green", "Sage"]));
    expect(new Set(resolveColour("red", Object.keys(COLOURS)))).toEqual(new Set(["Red", "Burgundy"]));
  });

  it("knows colour families of catalogue names", () => {
    expect(colourFamily("Washed Black")).toBe("black");
    expect(colourFamily("Heather Grey")).toBe("grey");
    expect(colourFamily("Terracotta")).toBe("orange");
    expect(colourFamily("Camel")).toBe("brown");
    expect(colourFamily("Dusty Rose")).toBe("pink");
    expect(colourFamily("Zebra")).toBeNull();
  });

  it("without a catalogue, accepts known colour words", () => {
    expect(parse("burgundy scarf", {}).filters.colors).toEqual(["burgundy"]);
  });
});

describe("materials", () => {
  it.each([
    ["linen shirt", ["linen"]],
    ["organic cotton tee", ["organic cotton"]],
    ["merino sweater", ["merino"]],
    ["cashmere and silk", ["cashmere", "silk"]],
    ["selvedge denim jeans", ["selvedge denim"]],
    ["linen-blend t-shirt", ["linen blend"]],
    ["cord trousers", ["corduroy"]],
  ])("%s", (q, materials) => {
    expect(parse(q).filters.materials).toEqual(materials);
  });

  it("are parsed only when the catalogue uses the word", () => {
    const p = parse("leather jacket");
    expect(p.filters.materials).toBeUndefined();
    expect(p.text).toBe("leather");
    expect(parse("leather jacket", { ...ctx, hasWord: () => true }).filters.materials).toEqual(["leather"]);
  });
});

describe("garment types", () => {
  it.each([
    ["shirts", ["Shirts"]],
    ["t-shirt", ["T-Shirts"]],
    ["t shirt", ["T-Shirts"]],
    ["tees", ["T-Shirts"]],
    ["polo shirt", ["Polos"]],
    ["jumper", ["Knitwear"]],
    ["cardigan", ["Knitwear"]],
    ["hoodie", ["Hoodies & Sweatshirts"]],
    ["sweatshirt", ["Hoodies & Sweatshirts"]],
    ["overcoat", ["Coats"]],
    ["trench coat", ["Coats"]],
    ["suit jacket", ["Blazers"]],
    ["blazer", ["Blazers"]],
    ["chinos", ["Trousers"]],
    ["pants", ["Trousers"]],
    ["jeans", ["Jeans"]],
    ["shirt dress", ["Dresses"]],
    ["skirts", ["Skirts"]],
    ["shorts", ["Shorts"]],
    ["jackets and coats", ["Jackets", "Coats"]],
  ])("%s → %j", (q, types) => {
    const p = parse(q);
    expect(p.filters.productTypes).toEqual(types);
    expect(p.text).toBe("");
    expect(p.chips.filter((c) => c.key === "productTypes").map((c) => c.value)).toEqual(types);
  });

  it("leaves garments the catalogue does not sell as text", () => {
    const p = parse("sneakers");
    expect(p.filters.productTypes).toBeUndefined();
    expect(p.text).toBe("sneakers");
  });

  it("needs the catalogue's types and a family function", () => {
    expect(parse("shirt", {}).filters.productTypes).toBeUndefined();
    expect(parse("shirt", {}).text).toBe("shirt");
  });
});

describe("gender", () => {
  it.each([
    ["men's shirts", "menswear"],
    ["mens shirts", "menswear"],
    ["shirts for men", "menswear"],
    ["menswear", "menswear"],
    ["gift for him", "menswear"],
    ["Women's dresses", "womenswear"],
    ["womens coat", "womenswear"],
    ["coat for women", "womenswear"],
    ["ladies jacket", "womenswear"],
    ["for her", "womenswear"],
    ["jeans for men and women", "both"],
  ])("%s → %s", (q, gender) => {
    const p = parse(q);
    expect(p.filters.target_gender).toBe(gender);
    expect(p.terms).not.toContain("men");
    expect(p.terms).not.toContain("women");
  });

  it("does not see gender in other words", () => {
    expect(parse("mango shirt").filters.target_gender).toBeUndefined();
    expect(parse("workmen boots").filters.target_gender).toBeUndefined();
  });

  it("labels the chip", () => {
    expect(parse("men's").chips).toEqual([{ key: "target_gender", value: "menswear", label: "Men" }]);
  });
});

describe("price bounds", () => {
  it.each([
    ["dress under 50", { priceMax: 50 }],
    ["below $80", { priceMax: 80 }],
    ["less than 30", { priceMax: 30 }],
    ["cheaper than £40", { priceMax: 40 }],
    ["up to 120 dollars", { priceMax: 120 }],
    ["50 or less", { priceMax: 50 }],
    ["<60", { priceMax: 60 }],
    ["over 100", { priceMin: 100 }],
    ["above $200", { priceMin: 200 }],
    ["more than 75", { priceMin: 75 }],
    ["at least 20", { priceMin: 20 }],
    ["150+", { priceMin: 150 }],
    ["between 20 and 50", { priceMin: 20, priceMax: 50 }],
    ["between 50 and 20", { priceMin: 20, priceMax: 50 }],
    ["from 30 to 90", { priceMin: 30, priceMax: 90 }],
    ["20-50", { priceMin: 20, priceMax: 50 }],
    ["$20-$50", { priceMin: 20, priceMax: 50 }],
    ["19.99 to 49.50", { priceMin: 19.99, priceMax: 49.5 }],
    ["over 20 under 80", { priceMin: 20, priceMax: 80 }],
  ].map(([q, bounds]) => ({ q: q as string, bounds: bounds as { priceMin?: number; priceMax?: number } })))("$q", ({ q, bounds }) => {
    const p = parse(q);
    expect({ priceMin: p.filters.priceMin, priceMax: p.filters.priceMax }).toEqual({ priceMin: undefined, priceMax: undefined, ...bounds });
    expect(p.terms.filter((t) => /\d/.test(t))).toEqual([]);
  });

  it("labels the chips with the currency typed", () => {
    expect(parse("under £40").chips).toEqual([{ key: "priceMax", value: 40, label: "Under £40" }]);
    expect(parse("between 20 and 50").chips).toEqual([
      { key: "priceMin", value: 20, label: "From $20" },
      { key: "priceMax", value: 50, label: "Under $50" },
    ]);
  });

  it("leaves numbers that are not prices alone", () => {
    const p = parse("501 jeans");
    expect(p.filters.priceMin).toBeUndefined();
    expect(p.filters.priceMax).toBeUndefined();
    expect(p.terms).toEqual(["501"]);
  });
});

describe("sizes", () => {
  it.each([
    ["shirt size M", ["M"]],
    ["size m", ["M"]],
    ["size small", ["S"]],
    ["size large hoodie", ["L"]],
    ["XL", ["XL"]],
    ["xxl tee", ["XXL"]],
    ["2xl", ["XXL"]],
    ["in xs", ["XS"]],
    ["jeans size 32", ["32"]],
    ["w32 jeans", ["32"]],
    ["32w jeans", ["32"]],
    ["waist 30", ["30"]],
    ["blazer eu 48", ["EU 48"]],
    ["size eu48", ["EU 48"]],
    ["xs and xl", ["XS", "XL"]],
  ])("%s", (q, sizes) => {
    const p = parse(q);
    expect(p.filters.sizes).toEqual(sizes);
    expect(p.chips.filter((c) => c.key === "sizes").map((c) => c.label)).toEqual(sizes.map((s) => `Size ${s}`));
  });

  it("does not read single letters or words as sizes without \"size\"", () => {
    expect(parse("m shirt").filters.sizes).toBeUndefined();
    expect(parse("large bag").filters.sizes).toBeUndefined();
    expect(parse("small").filters.sizes).toBeUndefined();
  });
});

describe("stores and availability", () => {
  it("finds store names, longest first", () => {
    const p = parse("northwind femme dress");
    expect(p.filters.storeIds).toEqual(["store-northwind-femme"]);
    expect(p.chips[0]).toEqual({ key: "storeIds", value: "store-northwind-femme", label: "Northwind Femme" });
    expect(parse("jacket from northwind").filters.storeIds).toEqual(["store-northwind"]);
    expect(parse("Ember & Ash cardigan").filters.storeIds).toEqual(["store-ember-and-ash"]);
    expect(parse("ember and ash").filters.storeIds).toEqual(["store-ember-and-ash"]);
    expect(parse("lumiere silk dress").filters.storeIds).toEqual(["store-lumiere"]);
  });

  it("reads \"in stock\" and \"available\"", () => {
    expect(parse("linen shirt in stock").filters.available).toBe(true);
    expect(parse("available jackets").filters.available).toBe(true);
    expect(parse("in stock").chips).toEqual([{ key: "available", value: true, label: "In stock" }]);
  });
});

describe("the text left", () => {
  it("removes parsed parts and the small words around them", () => {
    const p = parse("navy linen shirt for men under $80 size M");
    expect(p.text).toBe("");
    expect(p.terms).toEqual([]);
    expect(p.filters).toEqual({ priceMax: 80, sizes: ["M"], target_gender: "menswear", materials: ["linen"], colors: ["navy"], productTypes: ["Shirts"] });
    expect(p.chips).toHaveLength(6);
    expect(p.boosts).toEqual(expect.arrayContaining(["linen", "navy", "shirt"]));
  });

  it("keeps the words it does not know, as typed", () => {
    const p = parse("Vintage Floral summer dress under 100");
    expect(p.text).toBe("Vintage Floral summer");
    expect(p.terms).toEqual(["vintage", "floral", "summer"]);
  });

  it("drops stop words from the terms but keeps the text when nothing was parsed", () => {
    const p = parse("the best of the west");
    expect(p.text).toBe("the best of the west");
    expect(p.terms).toEqual(["best", "west"]);
    expect(plainTerms("A Shirt, with pockets!")).toEqual(["shirt", "pockets"]);
  });

  it("handles empty and odd input", () => {
    expect(parse("")).toEqual({ text: "", terms: [], filters: {}, chips: [], boosts: [] });
    expect(parse("   ")).toEqual({ text: "", terms: [], filters: {}, chips: [], boosts: [] });
    expect(parse("!!! ???").terms).toEqual([]);
    expect(parse("Lumière", { ...ctx, stores: [] }).terms).toEqual(["lumiere"]);
    expect(parse("'; DROP TABLE products; --").terms).toEqual(["drop", "table"]);
  });
});
