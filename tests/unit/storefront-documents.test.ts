/**
 * Every Storefront API document the app sends is valid against the real Storefront API schema of
 * the pinned version (2025-07: `storefront.schema.json` from @shopify/hydrogen-react 2025.7.x),
 * and the local endpoint's search syntax parses as documented.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { parse, validate, type GraphQLSchema } from "graphql";
import { getStorefrontSchema } from "../../app/storefront-api/schema.server";
import { STOREFRONT_API_VERSION, STOREFRONT_DOCUMENTS, PRODUCT_FIELDS_FRAGMENT } from "../../app/storefront-api/documents";
import { parseSearchQuery } from "../../app/storefront-api/search-query";

const schema: GraphQLSchema = getStorefrontSchema();
const errorsOf = (source: string) => validate(schema, parse(source)).map((e) => e.message);

describe("Storefront API schema", () => {
  it("is the 2025.7 line of @shopify/hydrogen-react (Storefront API 2025-07)", () => {
    const pkg = createRequire(import.meta.url)("@shopify/hydrogen-react/package.json") as { version: string };
    expect(pkg.version).toMatch(/^2025\.7\./);
    expect(STOREFRONT_API_VERSION).toBe("2025-07");
    expect(schema.getQueryType()?.getFields().products).toBeDefined();
  });
});

describe("Storefront documents", () => {
  for (const [name, source] of Object.entries(STOREFRONT_DOCUMENTS)) {
    it(`${name} is valid against the Storefront schema`, () => {
      const doc = parse(source);
      expect(source.trimStart().startsWith("#graphql")).toBe(true);
      const op = doc.definitions.find((d) => d.kind === "OperationDefinition");
      expect(op && "name" in op ? op.name?.value : undefined).toBe(name);
      expect(errorsOf(source)).toEqual([]);
    });
  }

  it("selects the SPEC §3 fields and no deprecated option `values`", () => {
    for (const field of ["availableForSale", "descriptionHtml", "featuredImage", "priceRange", "images(first: 50)", "variants(first: 250)", "compareAtPrice", "selectedOptions", "optionValues"]) {
      expect(PRODUCT_FIELDS_FRAGMENT).toContain(field);
    }
    expect(PRODUCT_FIELDS_FRAGMENT).toContain('metafield(namespace: "custom", key: "target_gender")');
    expect(PRODUCT_FIELDS_FRAGMENT).toContain('metafield(namespace: "custom", key: "color_hex")');
    expect(PRODUCT_FIELDS_FRAGMENT).not.toMatch(/^\s*values\s*$/m);
  });

  it("a typo'd field fails validation", () => {
    const typo = STOREFRONT_DOCUMENTS.ProductById.replace("availableForSale\n    productType", "availableForSael\n    productType");
    expect(typo).not.toBe(STOREFRONT_DOCUMENTS.ProductById);
    expect(errorsOf(typo)).toEqual([expect.stringContaining('Cannot query field "availableForSael" on type "Product"')]);
  });

  it("a wrong argument and a wrong variable type fail validation", () => {
    expect(errorsOf(`query { products(frist: 3) { nodes { id } } }`).join("\n")).toMatch(/Unknown argument "frist"/);
    expect(errorsOf(`query Q($k: String) { products(first: 3, sortKey: $k) { nodes { id } } }`).join("\n")).toMatch(/Variable "\$k" of type "String" used in position expecting type "ProductSortKeys"/);
  });
});

describe("Storefront search syntax (local endpoint)", () => {
  it("parses field terms, wildcards, quotes, comparators, negation and OR", () => {
    const q = parseSearchQuery(`title:*lin* vendor:"Maison Test" -tag:sale variants.price:>=50 available_for_sale:true silk OR product_type:Dresses`);
    expect(q.groups).toHaveLength(2);
    const [a, b] = q.groups;
    expect(a[0]).toMatchObject({ field: "title", value: "lin", prefixWildcard: true, suffixWildcard: true, negated: false });
    expect(a[1]).toMatchObject({ field: "vendor", value: "Maison Test", prefixWildcard: false });
    expect(a[2]).toMatchObject({ field: "tag", value: "sale", negated: true });
    expect(a[3]).toMatchObject({ field: "variants.price", value: "50", comparator: ">=" });
    expect(a[4]).toMatchObject({ field: "available_for_sale", value: "true" });
    expect(a[5]).toMatchObject({ field: null, value: "silk" });
    expect(b).toEqual([expect.objectContaining({ field: "product_type", value: "Dresses" })]);
  });

  it("treats unknown fields as plain words and ignores empty input", () => {
    expect(parseSearchQuery("colour:red").groups[0][0]).toMatchObject({ field: null, value: "colour:red" });
    expect(parseSearchQuery("  ").groups).toEqual([]);
    expect(parseSearchQuery(null).groups).toEqual([]);
    expect(parseSearchQuery("NOT vendor:x").groups[0][0]).toMatchObject({ field: "vendor", negated: true });
  });
});
